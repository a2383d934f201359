package passes

import (
	"bytes"
	"io"
)

// FirstLine returns the first line of a block read into a 1 MiB buffer,
// a slice that keeps the whole buffer alive for as long as the caller
// keeps the line.
func FirstLine(r io.Reader) ([]byte, error) {
	buf := make([]byte, 1<<20)
	n, err := io.ReadFull(r, buf)
	if err != nil && err != io.ErrUnexpectedEOF {
		return nil, err
	}
	line, _, _ := bytes.Cut(buf[:n], []byte("\n"))
	return line, nil
}
