// Package facts lists which functions return a large buffer of their
// own, whole (a Fresh fact), and which do not.
package facts

import (
	"bytes"
	"io"
	"os"
)

// Read allocates and fills a block.
func Read(r io.Reader) ([]byte, error) { // want Read:`fresh\(r0: allocated 1 MiB\)`
	buf := make([]byte, 1<<20)
	n, err := io.ReadFull(r, buf)
	return buf[:n], err
}

// Text copies a block into a string of its own, as large.
func Text(r io.Reader) string { // want Text:`fresh\(r0: converted 1 MiB\)`
	b, _ := Read(r)
	return string(b)
}

// A Pool hands out blocks.
type Pool struct{ spare [][]byte }

// Get returns a spare block or a new one: fresh on one path.
func (p *Pool) Get() []byte { // want Get:`fresh\(r0: allocated by newBlock 256 KiB\)`
	if n := len(p.spare); n > 0 {
		b := p.spare[n-1]
		p.spare = p.spare[:n-1]
		return b
	}
	return newBlock()
}

// newBlock, declared after its caller, is summarised first on demand.
func newBlock() []byte { // want newBlock:`fresh\(r0: allocated 256 KiB\)`
	var arr [256 << 10]byte
	return arr[:]
}

// Second returns its buffer as the second result.
func Second() (int, []byte) { // want Second:`fresh\(r1: allocated 64 KiB\)`
	return 0, make([]byte, 64<<10)
}

// Small allocates too little to count.
func Small() []byte { return make([]byte, 1024) }

// Trimmed returns a trimmed block: nearly all of it, still the buffer.
func Trimmed(r io.Reader) []byte { // want Trimmed:`fresh\(r0: allocated by Read 1 MiB\)`
	b, _ := Read(r)
	return bytes.TrimSpace(b)
}

// Piece returns a piece of a block, which is not a whole buffer: no fact.
func Piece(r io.Reader) []byte {
	b, _ := Read(r)
	i := bytes.IndexByte(b, ' ')
	if i < 0 {
		return nil
	}
	return b[:i]
}

// Copied returns a copy of a small part: no fact.
func Copied(r io.Reader) []byte {
	b, _ := Read(r)
	return bytes.Clone(b[:16])
}

// File reads a file whole: not large in the default run (its size is
// the file's), so no fact.
func File(name string) []byte {
	b, _ := os.ReadFile(name)
	return b
}

// Param returns its parameter: no fact (borrow summarises it).
func Param(b []byte) []byte { return b }

// Recursive returns what it returns: recursion assumes nothing fresh.
func Recursive(n int) []byte {
	if n == 0 {
		return nil
	}
	return Recursive(n - 1)
}
