// Package seq cuts large buffers with the range-over-func splitters
// (strings.Lines, bytes.SplitSeq, strings.FieldsSeq): the body of the
// loop is a function of its own, and what it keeps of each part is kept
// by the function running the loop, as with strings.Split.
package seq

import (
	"bytes"
	"io"
	"strings"
)

// A Config remembers a name read from its file.
type Config struct {
	name  string
	names []string
}

// load keeps the first "name=" line: a search, one piece of the buffer.
func (c *Config) load(r io.Reader) {
	buf := make([]byte, 1<<20)
	if _, err := io.ReadFull(r, buf); err != nil {
		return
	}
	for line := range strings.Lines(string(buf)) {
		if strings.HasPrefix(line, "name=") {
			c.name = line // want `line stored in c.name keeps a substring of string\(buf\) \(string\(buf\) at seq.go:\d+, up to 1 MiB\) alive after load returns; copy it with strings.Clone`
			return
		}
	}
}

// errorFields returns the fields that report errors: a filter.
func errorFields(r io.Reader) [][]byte {
	var buf [256 << 10]byte
	n, _ := io.ReadFull(r, buf[:])
	var errs [][]byte
	for f := range bytes.SplitSeq(buf[:n], []byte{','}) {
		if bytes.HasPrefix(f, []byte("error:")) {
			errs = append(errs, f) // want `f appended to errs keeps a slice of buf \(array at seq.go:\d+, 256 KiB\) alive after errorFields returns; copy it with bytes.Clone`
		}
	}
	return errs
}

// ok: every line is kept but blank and comment lines: the pieces
// together are the buffer, and copying them would cost what they pin.
func (c *Config) loadAll(r io.Reader) {
	buf := make([]byte, 1<<20)
	n, _ := io.ReadFull(r, buf)
	for line := range strings.Lines(string(buf[:n])) {
		if line == "\n" || strings.HasPrefix(line, "#") {
			continue
		}
		c.names = append(c.names, line)
	}
}

// ok: every field is kept, in a slice returned.
func fields(r io.Reader) []string {
	buf := make([]byte, 1<<20)
	n, _ := io.ReadFull(r, buf)
	var out []string
	for f := range strings.FieldsSeq(string(buf[:n])) {
		out = append(out, f)
	}
	return out
}

// ok: the matches stay in a local slice that dies with the function.
func countErrors(r io.Reader) int {
	buf := make([]byte, 1<<20)
	n, _ := io.ReadFull(r, buf)
	var errs []string
	for line := range strings.Lines(string(buf[:n])) {
		if strings.Contains(line, "error") {
			errs = append(errs, line)
		}
	}
	return len(errs)
}

// ok: the line kept is copied.
func (c *Config) loadCopy(r io.Reader) {
	buf := make([]byte, 1<<20)
	n, _ := io.ReadFull(r, buf)
	for line := range strings.Lines(string(buf[:n])) {
		if strings.HasPrefix(line, "name=") {
			c.name = strings.Clone(line)
			return
		}
	}
}
