// Package use hands pieces of large buffers to functions that keep them,
// here and in another package: the Keeps facts make the call a place
// where the piece outlives the function, as a store would be.
package use

import (
	"bytes"
	"io"
	"strings"

	"retainslice/keeps/store"
)

// A Server caches what requests ask for.
type Server struct {
	cache  *store.Cache
	recent map[string]bool
	events chan string
}

// remember keeps a name: a method of this package.
func (s *Server) remember(name string) {
	s.recent[name] = true
}

// handle reads a request into a large buffer and caches its key.
func (s *Server) handle(r io.Reader) error {
	buf := make([]byte, 1<<20)
	n, err := io.ReadFull(r, buf)
	if err != nil {
		return err
	}
	text := string(buf)
	key, _, _ := strings.Cut(text, "\n")
	s.cache.Put(key, n) // want `key passed to s.cache.Put, which keeps it, keeps a substring of text \(string\(buf\) at use.go:\d+, up to 1 MiB\) alive after handle returns; copy it with strings.Clone`
	return nil
}

// greet keeps the first word through a method of this package.
func (s *Server) greet(r io.Reader) {
	var buf [256 << 10]byte
	if _, err := io.ReadFull(r, buf[:]); err != nil {
		return
	}
	word, _, _ := strings.Cut(string(buf[:]), " ")
	s.remember(word) // want `word passed to s.remember, which keeps it, keeps a substring of string\(buf\[:\]\) \(string\(buf\[:\]\) at use.go:\d+, up to 256 KiB\) alive after greet returns; copy it with strings.Clone`
}

// announce registers a name in a global list and touches the cache.
func (s *Server) announce(r io.Reader) {
	buf := make([]byte, 1<<20)
	n, _ := io.ReadFull(r, buf)
	name, _, _ := bytes.Cut(buf[:n], []byte{0})
	store.Register(string(name)) // ok: string() copies
	s.cache.Touch(name)          // want `name passed to s.cache.Touch, which keeps it, keeps a slice of buf \(make at use.go:\d+, 1 MiB\) alive after announce returns; copy it with bytes.Clone`
}

// ok: the key is copied before it is handed over.
func (s *Server) handleCopy(r io.Reader) {
	buf := make([]byte, 1<<20)
	n, _ := io.ReadFull(r, buf)
	key, _, _ := strings.Cut(string(buf[:n]), "\n")
	s.cache.Put(strings.Clone(key), n)
}

// ok: the callee reads the key and keeps nothing.
func (s *Server) lookup(r io.Reader) int {
	buf := make([]byte, 1<<20)
	n, _ := io.ReadFull(r, buf)
	key, _, _ := strings.Cut(string(buf[:n]), "\n")
	return s.cache.Lookup(key)
}

// ok: the entry the key is kept in does not outlive the function.
func entryLen(r io.Reader) int {
	buf := make([]byte, 1<<20)
	n, _ := io.ReadFull(r, buf)
	key, _, _ := strings.Cut(string(buf[:n]), "\n")
	return len(store.NewEntry(key).Key)
}

// ok: the cache the key is put in is this function's own, and dies with it.
func countKeys(r io.Reader) int {
	buf := make([]byte, 1<<20)
	n, _ := io.ReadFull(r, buf)
	c := &Server{recent: map[string]bool{}}
	for _, w := range strings.Fields(string(buf[:n])) {
		if strings.HasPrefix(w, "#") {
			c.remember(w)
		}
	}
	return len(c.recent)
}

// ok: every line of the buffer is published: the pieces together are
// the buffer, and copying them would cost what they pin.
func (s *Server) publishAll(r io.Reader) {
	buf := make([]byte, 1<<20)
	n, _ := io.ReadFull(r, buf)
	for _, line := range strings.Split(string(buf[:n]), "\n") {
		store.Publish(s.events, line)
	}
}

// publishErrors publishes only the lines that report errors: a
// selection, each line pinning the buffer.
func (s *Server) publishErrors(r io.Reader) {
	buf := make([]byte, 1<<20)
	if _, err := io.ReadFull(r, buf); err != nil {
		return
	}
	for _, line := range strings.Split(string(buf), "\n") {
		if strings.Contains(line, "error") {
			store.Publish(s.events, line) // want `line passed to store.Publish, which keeps it, keeps a substring of string\(buf\) .* alive after publishErrors returns; copy it with strings.Clone`
		}
	}
}
