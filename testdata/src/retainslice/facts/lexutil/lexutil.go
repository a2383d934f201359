// Package lexutil returns pieces of its arguments, as lexers do. It is not
// reported itself: whether a piece pins a large buffer depends on the
// caller's buffer. The borrow facts carry that to the callers.
package lexutil

import "bytes"

// Field returns the n-th comma-separated field of line.
func Field(line []byte, n int) []byte { // ok: returns a piece of its parameter
	for ; n > 0; n-- {
		i := bytes.IndexByte(line, ',')
		if i < 0 {
			return nil
		}
		line = line[i+1:]
	}
	if i := bytes.IndexByte(line, ','); i >= 0 {
		return line[:i]
	}
	return line
}

// Clean trims blanks and a trailing semicolon: nearly all of its argument.
func Clean(line []byte) []byte { // ok
	line = bytes.TrimSuffix(line, []byte(";"))
	return bytes.TrimSpace(line)
}

// Strip removes surrounding blanks: all of its argument but its ends.
func Strip(s string) string { // ok
	if len(s) > 0 && s[0] == ' ' {
		s = s[1:]
	}
	return s
}

// Fields splits a line at commas.
func Fields(line []byte) [][]byte { // ok
	return bytes.Split(line, []byte(","))
}

// Copy returns a copy of a field.
func Copy(line []byte, n int) []byte { // ok
	return bytes.Clone(Field(line, n))
}

// A Lexer walks a buffer it does not own.
type Lexer struct{ Src []byte }

// Span returns a piece of a buffer passed to it.
func (l *Lexer) Span(b []byte, i, j int) []byte { return b[i:j] } // ok
