package passes

import (
	"bytes"
	"os"
)

// FirstLine returns the first line of a file, a slice that keeps the whole
// file's contents alive for as long as the caller keeps the line.
func FirstLine(path string) ([]byte, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	line, _, _ := bytes.Cut(data, []byte("\n"))
	return line, nil
}
