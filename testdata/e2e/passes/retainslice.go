package passes

import (
	"bytes"
	"io"
)

// FirstLine returns the first line of a stream, a slice that keeps all
// that was read alive for as long as the caller keeps the line.
func FirstLine(r io.Reader) ([]byte, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, err
	}
	line, _, _ := bytes.Cut(data, []byte("\n"))
	return line, nil
}
