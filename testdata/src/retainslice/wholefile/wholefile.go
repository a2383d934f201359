// Package wholefile holds the default run's rule for files read whole by
// name: the file's size is what that file holds, which the pass cannot
// know, so a piece of it is no evidence of a large buffer kept
// (-retainslice.files counts it; basic runs with it). Streams are the
// same in the default run (package sized).
package wholefile

import (
	"bytes"
	"io"
	"io/fs"
	"os"
	"strings"
)

// ok: a password file read for its first line.
func readPassword(path string) (string, error) {
	text, err := os.ReadFile(path)
	if err != nil {
		return "", err
	}
	lines := strings.Split(string(text), "\n")
	return strings.TrimRight(lines[0], "\r"), nil
}

// ok: a digest file, the digest being most of it.
func readSum(fsys fs.FS, name string) (string, error) {
	data, err := fs.ReadFile(fsys, name)
	if err != nil {
		return "", err
	}
	sum, _, _ := strings.Cut(string(data), " ")
	return sum, nil
}

// Its twin reads the first line of the same kind of file into a buffer
// whose size the program states, 1 MiB: the line pins all of it.
func readPasswordBlock(f *os.File) ([]byte, error) {
	buf := make([]byte, 1<<20)
	n, err := io.ReadFull(f, buf)
	if err != nil && err != io.ErrUnexpectedEOF {
		return nil, err
	}
	line, _, _ := bytes.Cut(buf[:n], []byte("\n"))
	return line, nil // want `line keeps a slice of buf \(make at wholefile.go:\d+, 1 MiB\) alive after readPasswordBlock returns; copy it with bytes.Clone`
}
