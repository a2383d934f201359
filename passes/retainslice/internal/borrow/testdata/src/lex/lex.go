// Package lex is a small lexer library whose functions return slices of
// their arguments; the borrow facts describe exactly that.
package lex

import (
	"bytes"
	"strconv"
	"strings"
)

// Field returns the n-th comma-separated field of line.
func Field(line []byte, n int) []byte { // want Field:`borrows\(r0<-p0:piece\)`
	start := 0
	for i := 0; i <= n; i++ {
		j := bytes.IndexByte(line[start:], ',')
		if j < 0 {
			return line[start:] // the rest: nearly all
		}
		if i == n {
			return line[start : start+j]
		}
		start += j + 1
	}
	return nil
}

// Trim returns line without surrounding blanks: nearly all of it.
func Trim(line []byte) []byte { // want Trim:`borrows\(r0<-p0:same\)`
	return bytes.TrimSpace(line)
}

// Key returns the part of a "key=value" line before '=', a piece, and the
// rest, nearly all of it.
func Key(line string) (string, string) { // want Key:`borrows\(r0<-p0:piece r1<-p0:same\)`
	k, v, _ := strings.Cut(line, "=")
	return k, v
}

// Words splits text at blanks.
func Words(text []byte) [][]byte { // want Words:`borrows\(r0<-p0:piece\[\]\)`
	return bytes.Fields(text)
}

// Collect gathers the first byte-range of each line, built by hand.
func Collect(text []byte) [][]byte { // want Collect:`borrows\(r0<-p0:piece\[\]\)`
	var out [][]byte
	for len(text) > 0 {
		i := bytes.IndexByte(text, '\n')
		if i < 0 {
			break
		}
		out = append(out, text[:i])
		text = text[i+1:]
	}
	return out
}

// Header returns the length-prefixed header of a frame.
func Header(frame []byte) []byte { // want Header:`borrows\(r0<-p0:piece\)`
	n := int(frame[0])
	return frame[1 : 1+n]
}

// Body skips a fixed 4-byte prefix: the rest is nearly the whole frame.
func Body(frame []byte) []byte { // want Body:`borrows\(r0<-p0:same\)`
	return frame[4:]
}

// Tail returns the last eight bytes: a piece.
func Tail(b []byte) []byte { // want Tail:`borrows\(r0<-p0:piece\)`
	return b[len(b)-8:]
}

// Rest returns what follows a separator: in general most of it.
func Rest(b []byte) []byte { // want Rest:`borrows\(r0<-p0:same\)`
	i := bytes.IndexByte(b, ':')
	return b[i+1:]
}

// Unquote drops the quotes around s: nearly all of it.
func Unquote(s string) string { // want Unquote:`borrows\(r0<-p0:same\)`
	return s[1 : len(s)-1]
}

// Same returns its argument unchanged.
func Same(b []byte) []byte { return b } // want Same:`borrows\(r0<-p0:same\)`

// Indirect returns a piece through another function of the package.
func Indirect(line []byte) []byte { // want Indirect:`borrows\(r0<-p0:piece\)`
	return Field(Trim(line), 2)
}

// Size parses a decimal length prefix and returns that many bytes.
func Size(b []byte) []byte { // want Size:`borrows\(r0<-p0:piece\)`
	n, _ := strconv.Atoi(string(b[:2]))
	return b[2 : 2+n]
}

// Copy returns a copy: it borrows nothing.
func Copy(b []byte) []byte { // ok
	return bytes.Clone(b[1:3])
}

// Upper converts: strings are copied on conversion, so nothing is borrowed.
func Upper(b []byte) string { // ok
	return string(b[1:3])
}

// Count returns no slice.
func Count(b []byte) int { return len(b) } // ok

// Read buffers exactly what it is asked for: no parameter is sliced.
func Read(n int) []byte { return make([]byte, n) } // ok

// A Line is a byte slice with methods; the receiver is parameter 0.
type Line []byte

// Prefix returns the line's first four bytes.
func (l Line) Prefix() []byte { return l[:4] } // want Prefix:`borrows\(r0<-p0:piece\)`

// Loop recurses: the recursive call is assumed to borrow nothing, so only
// the final return counts.
func Loop(b []byte) []byte { // want Loop:`borrows\(r0<-p0:same\)`
	if len(b) > 10 {
		return Loop(b[1:])
	}
	return b
}
