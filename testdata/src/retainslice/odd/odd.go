// Package odd holds shapes that must not crash the pass: generics, defers,
// select, range-over-func, unreachable code, recursion.
package odd

import (
	"bytes"
	"io"
	"iter"
	"os"
	"strings"
)

// nope: a buffer of type-parameter elements has no known size.
func Gen[T any]() []T {
	buf := make([]T, 1<<20)
	return buf[2:5]
}

// nope: a type declared inside a generic function is parameterized by it
// too, though it has no type arguments of its own; its array has no
// known size (this once crashed the pass on a routing table).
func GenLocal[T any](v T) []T {
	type entry struct {
		key  uint64
		item T
	}
	buf := make([]entry, 0, 1<<16)
	buf = append(buf, entry{1, v})
	out := make([]T, 0, 1)
	for _, e := range buf[:1] {
		out = append(out, e.item)
	}
	return out
}

// Generic code over concrete buffers is checked like any other.
func GenRead[T any](r io.Reader, v T) ([]byte, T) {
	data, _ := io.ReadAll(r)
	return data[1:5], v // want `data\[1:5\] keeps a slice of data`
}

// Converting to a type parameter keeps the array; there is no fix, since
// bytes.Clone would change the type.
func GenConv[S ~[]byte](r io.Reader) S {
	data, _ := io.ReadAll(r)
	return S(data[1:5]) // want `S\(data\[1:5\]\) keeps a slice of data`
}

type Box[T any] struct{ last []byte }

func (b *Box[T]) Set(r io.Reader) {
	data, _ := io.ReadAll(r)
	b.last = data[2:4] // want `data\[2:4\] stored in b.last keeps a slice of data`
}

// A deferred closure captures the named result: not an escape of its own.
func deferred(path string) (tok []byte, err error) {
	defer func() {
		if err != nil {
			tok = nil
		}
	}()
	data, err := os.ReadFile(path)
	tok = data[:8]
	return tok, err // want `tok keeps a slice of data`
}

func selectSend(r io.Reader, out chan []byte, done chan struct{}) {
	data, _ := io.ReadAll(r)
	select {
	case out <- data[:4]: // want `data\[:4\] sent on out keeps a slice of data`
	case <-done:
	}
}

// nope: range-over-func bodies are closures whose pieces arrive as
// parameters: not followed.
func rangeFunc(seq iter.Seq[[]byte], m map[string][]byte) {
	for b := range seq {
		m["k"] = b[1:3]
	}
}

// A known gap: the lines of strings.Lines arrive in the loop body's
// closure as parameters, so they are not followed either.
func lines(path string, keep map[string]string) {
	data, _ := os.ReadFile(path)
	for line := range strings.Lines(string(data)) {
		keep[line] = line
	}
}

func unreachable(r io.Reader) []byte {
	data, _ := io.ReadAll(r)
	for {
		if len(data) > 3 {
			return data[1:3] // want `data\[1:3\] keeps a slice of data`
		}
	}
	return nil
}

func recursive(r io.Reader, depth int) []byte {
	if depth > 0 {
		return recursive(r, depth-1)
	}
	data, _ := io.ReadAll(r)
	i := bytes.IndexByte(data, 0)
	return data[:i] // want `data\[:i\] keeps a slice of data`
}

func typeSwitch(x any, r io.Reader) any {
	data, _ := io.ReadAll(r)
	switch x.(type) {
	case string:
		return string(data[:4]) // ok: a copy
	}
	return nil
}

// A method value and a goto, for good measure.
func jumps(r io.Reader) (out []byte, rest []byte) {
	read := io.ReadAll
	data, _ := read(r) // SSA resolves the local function value
	i := 0
loop:
	if i < 3 {
		i++
		goto loop
	}
	return data[i : i+4], data[i:] // want `data\[i : i\+4\] keeps a slice of data`
}
