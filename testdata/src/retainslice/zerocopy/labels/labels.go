// Package labels decodes requests into a large buffer and keeps label
// names and values in long-lived maps. A string made from a piece of the
// buffer without copying is still a piece of it: kept, it pins the
// whole buffer.
package labels

import (
	"bytes"
	"io"
	"sync"
	"unsafe"

	"retainslice/zerocopy/conv"
)

// A Registry remembers the series it has seen.
type Registry struct {
	mu     sync.Mutex
	series map[string]int
	byName map[string][]byte
}

// observe keeps a series name made from the request without copying:
// through a helper of another package.
func (r *Registry) observe(body io.Reader) error {
	buf := make([]byte, 1<<20)
	n, err := io.ReadFull(body, buf)
	if err != nil && err != io.ErrUnexpectedEOF {
		return err
	}
	name, _, _ := bytes.Cut(buf[:n], []byte{'='})
	r.mu.Lock()
	defer r.mu.Unlock()
	r.series[conv.YoloString(name)] = n // want `conv.YoloString\(name\) stored in r.series keeps a substring of buf \(make at labels.go:\d+, 1 MiB\) alive after observe returns; copy it with strings.Clone`
	return nil
}

// remember keeps a value cast in place, the older way.
func (r *Registry) remember(body io.Reader) {
	var buf [128 << 10]byte
	n, _ := io.ReadFull(body, buf[:])
	key, value, _ := bytes.Cut(buf[:n], []byte{'='})
	k := *(*string)(unsafe.Pointer(&key))
	r.mu.Lock()
	r.byName[k] = value // want `k stored in r.byName keeps a substring of buf \(array at labels.go:\d+, 128 KiB\) alive after remember returns; copy it with strings.Clone`
	r.mu.Unlock()
}

// keepBytes keeps a piece of a string turned back into bytes.
func (r *Registry) keepBytes(body io.Reader) {
	buf := make([]byte, 1<<20)
	if _, err := io.ReadFull(body, buf); err != nil {
		return
	}
	s := string(buf)
	i := bytes.IndexByte(buf, ' ')
	if i < 0 {
		return
	}
	r.byName["first"] = conv.UnsafeBytes(s[:i]) // want `conv.UnsafeBytes\(s\[:i\]\) stored in r.byName keeps a slice of s .* alive after keepBytes returns; copy it with bytes.Clone`
}

// ok: the zero-copy string only looks the series up.
func (r *Registry) count(body io.Reader) int {
	buf := make([]byte, 1<<20)
	n, _ := io.ReadFull(body, buf)
	name, _, _ := bytes.Cut(buf[:n], []byte{'='})
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.series[conv.YoloString(name)]
}

// ok: the name is copied before it is kept.
func (r *Registry) observeCopy(body io.Reader) {
	buf := make([]byte, 1<<20)
	n, _ := io.ReadFull(body, buf)
	name, _, _ := bytes.Cut(buf[:n], []byte{'='})
	r.mu.Lock()
	defer r.mu.Unlock()
	r.series[string(name)] = n
}

// ok: a zero-copy string of the whole buffer, kept whole: no small part
// pins more than itself.
func (r *Registry) keepAll(body io.Reader) {
	buf := make([]byte, 1<<20)
	n, _ := io.ReadFull(body, buf)
	r.mu.Lock()
	defer r.mu.Unlock()
	r.series[conv.YoloString(buf[:n])] = n
}
