// Package use calls lexutil on large buffers: the facts about lexutil's
// functions say which results are pieces.
package use

import (
	"io"
	"os"

	"retainslice/facts/lexutil"
)

type config struct {
	name []byte
	tags [][]byte
}

// Shape: a user helper in another package returns a piece of the file.
func load(path string) (*config, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	c := &config{}
	c.name = lexutil.Field(data, 2) // want `lexutil.Field\(data, 2\) stored in c.name keeps a slice of data \(os.ReadFile at use.go:\d+, unbounded\) alive after load returns; copy it with bytes.Clone`
	return c, nil
}

func loadCopy(path string) (*config, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	c := &config{}
	c.name = lexutil.Copy(data, 2) // ok: the helper copies
	return c, nil
}

// nope: Clean keeps nearly all of the whole buffer it is given.
func loadClean(path string) []byte {
	data, _ := os.ReadFile(path)
	return lexutil.Clean(data)
}

// Shape: a helper that keeps nearly all of its argument, given a piece,
// returns a piece.
func loadCleanField(path string) []byte {
	data, _ := os.ReadFile(path)
	return lexutil.Clean(lexutil.Field(data, 1)) // want `lexutil.Clean\(lexutil.Field\(data, 1\)\) keeps a slice of data`
}

// Shape: a helper returning a container of pieces; an element escapes.
func firstTag(r io.Reader) []byte {
	data, _ := io.ReadAll(r)
	tags := lexutil.Fields(data)
	return tags[0] // want `tags\[0\] keeps a slice of data`
}

// nope: all the fields are kept: together they cover the buffer.
func allTags(r io.Reader) [][]byte {
	data, _ := io.ReadAll(r)
	return lexutil.Fields(data)
}

// Shape: a method borrowing from its argument.
func span(r io.Reader, l *lexutil.Lexer) []byte {
	data, _ := io.ReadAll(r)
	return l.Span(data, 3, 9) // want `l.Span\(data, 3, 9\) keeps a slice of data`
}

// nope: the helper's piece stays local.
func tagCount(r io.Reader) int {
	data, _ := io.ReadAll(r)
	return len(lexutil.Field(data, 3))
}

// nope: a string converted from a whole file, stripped, is nearly all of it.
func stripped(path string) string {
	data, _ := os.ReadFile(path)
	return lexutil.Strip(string(data))
}
