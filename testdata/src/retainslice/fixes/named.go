package fixes

import (
	"io"
	"os"
)

// Raw is a named byte slice: slices.Clone keeps its type.
type Raw []byte

func raw(r io.Reader) Raw {
	data, _ := io.ReadAll(r)
	msg := Raw(data)
	return msg[3:9] // want `msg\[3:9\] keeps a slice of data.*copy it with slices.Clone`
}

// Name is a named string: strings.Clone would change its type, so no fix.
type Name string

func name(path string) Name {
	data, _ := os.ReadFile(path)
	n := Name(data)
	return n[:8] // want `n\[:8\] keeps a substring of n \(Name\(data\) at named.go:\d+, unbounded\)`
}

// Other element types: slices.Clone.
func ids() []int64 {
	all := make([]int64, 1<<14)
	return all[:4] // want `all\[:4\] keeps a slice of all \(make at named.go:\d+, 128 KiB\).*copy it with slices.Clone`
}

// nope: 1<<10 int64s are 8 KiB, below min-bytes.
func fewIDs() []int64 {
	all := make([]int64, 1<<10)
	return all[:4]
}

// Interfaces: the piece is wrapped where it is written, as a []byte.
func anyToken(r io.Reader) any {
	data, _ := io.ReadAll(r)
	return data[:8] // want `data\[:8\] keeps a slice of data`
}

// Two findings in one file that lacks the import add it once.
func twice(path string) (string, string) {
	data, _ := os.ReadFile(path)
	s := string(data)
	a, b := s[:4], s[8:12]
	return a, b // want `a keeps a substring .*\(and 1 more piece of it\)`
}
