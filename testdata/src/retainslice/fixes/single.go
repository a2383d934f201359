package fixes

import "io"

// The file has one unparenthesised import: the fix adds a declaration.
func single(r io.Reader) []byte {
	data, _ := io.ReadAll(r)
	return data[2:6] // want `data\[2:6\] keeps a slice of data`
}
