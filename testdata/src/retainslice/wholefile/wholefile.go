// Package wholefile holds the default run's rule for files read whole by
// name: the file's size is what that file holds, which the pass cannot
// know, so a piece of it is no evidence of a large buffer kept. A body or
// a stream read to its end is sized by whoever sends it.
package wholefile

import (
	"bytes"
	"io"
	"io/fs"
	"net/http"
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

// Its twin reads the first line of a request body: the sender decides
// the body's size, and the line pins all of it.
func firstLine(r *http.Request) ([]byte, error) {
	data, err := io.ReadAll(r.Body)
	if err != nil {
		return nil, err
	}
	line, _, _ := bytes.Cut(data, []byte("\n"))
	return line, nil // want `line keeps a slice of data \(io.ReadAll at wholefile.go:\d+, unbounded\) alive after firstLine returns; copy it with bytes.Clone`
}

// And a stream read to its end, as a file opened and read whole would be
// too: io.ReadAll does not know what it reads.
func firstField(f *os.File) string {
	data, _ := io.ReadAll(f)
	field, _, _ := strings.Cut(string(data), " ")
	return field // want `field keeps a substring of string\(data\) \(string\(data\) at wholefile.go:\d+, unbounded\) alive after firstField returns; copy it with strings.Clone`
}
