// Package fixes checks the suggested fix in each situation an import can
// be in.
package fixes

import (
	bs "bytes"
	"io"
)

// The file imports bytes under another name: the fix uses it.
func alias(r io.Reader) []byte {
	data, _ := io.ReadAll(r)
	i := bs.IndexByte(data, 0)
	return data[:i] // want `data\[:i\] keeps a slice of data`
}
