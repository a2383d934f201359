// Package premise holds the shape passes/retainslice's premise test
// measures, exactly as written there: keepToken is reported, and its
// suggested fix is keepTokenCopy.
package premise

import (
	"bytes"
	"io"
)

func keepToken(r io.Reader) []byte {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil
	}
	i := bytes.IndexByte(data, ':')
	return data[i+1 : i+41] // want `data\[i\+1 : i\+41\] keeps a slice of data \(io.ReadAll at premise.go:\d+, unbounded\) alive after keepToken returns; copy it with bytes.Clone`
}

func keepTokenCopy(r io.Reader) []byte {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil
	}
	i := bytes.IndexByte(data, ':')
	return bytes.Clone(data[i+1 : i+41]) // ok: the fix
}
