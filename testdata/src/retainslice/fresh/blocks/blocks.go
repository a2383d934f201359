// Package blocks reads fixed-size blocks for its callers. It keeps no
// piece of them itself, so it is not reported; the Fresh facts tell its
// callers, in other packages, that what ReadBlock and (*Reader).Next
// return is a large buffer of their own.
package blocks

import (
	"io"
	"strings"
)

// BlockSize is the size of a block.
const BlockSize = 1 << 20

// ReadBlock reads one block.
func ReadBlock(r io.Reader) ([]byte, error) {
	buf := make([]byte, BlockSize)
	n, err := io.ReadFull(r, buf)
	if err == io.ErrUnexpectedEOF {
		err = nil
	}
	return buf[:n], err
}

// ReadText reads one block as text: a string copied from a large buffer
// is large too.
func ReadText(r io.Reader) string {
	b, _ := ReadBlock(r)
	return string(b)
}

// A Reader reads blocks into buffers it allocates for each.
type Reader struct{ R io.Reader }

// Next reads the next block.
func (r *Reader) Next() ([]byte, error) {
	return ReadBlock(r.R)
}

// Small reads a block too small to count: no fact.
func Small(r io.Reader) []byte {
	buf := make([]byte, 512)
	n, _ := r.Read(buf)
	return buf[:n]
}

// Scratch is a buffer kept by the package.
var scratch = make([]byte, BlockSize)

// Shared returns the package's own buffer, not a fresh one: no fact.
func Shared() []byte { return scratch }

// Header returns a piece of a block it reads, and is reported here, not
// at its callers: a piece is not a whole buffer.
func Header(r io.Reader) string {
	b, _ := ReadBlock(r)
	h, _, _ := strings.Cut(string(b), "\n")
	return h // want `h keeps a substring of string\(b\) \(string\(b\) at blocks.go:\d+, 1 MiB\) alive after Header returns; copy it with strings.Clone`
}
