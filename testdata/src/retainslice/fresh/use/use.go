// Package use keeps pieces of buffers that helpers allocate, in another
// package (the helper's Fresh fact makes its call a root here, as a make
// in this package would be) or in this one.
package use

import (
	"bytes"
	"io"
	"strings"

	"retainslice/fresh/blocks"
)

// An Entry is what an index keeps per block.
type Entry struct{ Key []byte }

var index = map[string]Entry{}

// addBlock keeps a block's key: the whole block stays alive with it.
func addBlock(r io.Reader) error {
	b, err := blocks.ReadBlock(r)
	if err != nil {
		return err
	}
	key, _, _ := bytes.Cut(b, []byte{0})
	index[string(key)] = Entry{Key: key} // want `key stored in Entry\{…\} keeps a slice of b \(blocks.ReadBlock at use.go:\d+, 1 MiB\) alive after addBlock returns; copy it with bytes.Clone`
	return nil
}

// title returns a text block's first line: a method's buffer, through
// another package's helper.
func title(r *blocks.Reader) ([]byte, error) {
	b, err := r.Next()
	if err != nil {
		return nil, err
	}
	line, _, _ := bytes.Cut(b, []byte("\n"))
	return line, nil // want `line keeps a slice of b \(blocks.Next at use.go:\d+, 1 MiB\) alive after title returns; copy it with bytes.Clone`
}

// name keeps a word of a string copied from a block.
func name(r io.Reader) string {
	s := blocks.ReadText(r)
	f := strings.Fields(s)
	if len(f) == 0 {
		return ""
	}
	return f[0] // want `f\[0\] keeps a substring of s \(blocks.ReadText at use.go:\d+, 1 MiB\) alive after name returns; copy it with strings.Clone`
}

// ok: the key is copied before it is kept.
func addBlockCopy(r io.Reader) error {
	b, err := blocks.ReadBlock(r)
	if err != nil {
		return err
	}
	key, _, _ := bytes.Cut(b, []byte{0})
	index[string(key)] = Entry{Key: bytes.Clone(key)}
	return nil
}

// ok: a small buffer's piece.
func smallKey(r io.Reader) []byte {
	b := blocks.Small(r)
	key, _, _ := bytes.Cut(b, []byte{0})
	return key
}

// ok: the package's shared buffer is pinned anyway.
func sharedKey() []byte {
	key, _, _ := bytes.Cut(blocks.Shared(), []byte{0})
	return key
}

// ok: the whole block is kept, not a piece of it.
func keepBlock(r io.Reader) ([]byte, error) {
	return blocks.ReadBlock(r)
}

// ok: every line of the block is kept, which costs what copying would.
func lines(r io.Reader) []string {
	s := blocks.ReadText(r)
	var out []string
	for _, line := range strings.Split(s, "\n") {
		out = append(out, line)
	}
	return out
}

// ok: the header the helper cut is reported in blocks, not again here.
func header(r io.Reader) string {
	return blocks.Header(r)
}

// The same through a helper of this package: readChunk makes and fills
// the buffer it returns whole, so its call is a root as the make is.
func readChunk(r io.Reader) ([]byte, error) {
	b := make([]byte, 1<<20)
	n, err := io.ReadFull(r, b)
	return b[:n], err
}

// addChunk keeps a chunk's key, the whole chunk with it.
func addChunk(r io.Reader) error {
	b, err := readChunk(r)
	if err != nil && err != io.ErrUnexpectedEOF {
		return err
	}
	key, _, _ := bytes.Cut(b, []byte{0})
	index["chunk:"+string(key)] = Entry{Key: key} // want `key stored in Entry\{…\} keeps a slice of b \(readChunk at use.go:\d+, 1 MiB\) alive after addChunk returns; copy it with bytes.Clone`
	return nil
}

// ok: the twin that keeps a copy of the key.
func addChunkCopy(r io.Reader) error {
	b, err := readChunk(r)
	if err != nil && err != io.ErrUnexpectedEOF {
		return err
	}
	key, _, _ := bytes.Cut(b, []byte{0})
	index["chunk:"+string(key)] = Entry{Key: bytes.Clone(key)}
	return nil
}
