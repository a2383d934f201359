package fixes

import "os"

// A local variable is named bytes: no fix, the finding stands.
func shadow(path string) []byte {
	bytes, _ := os.ReadFile(path)
	return bytes[1:5] // want `bytes\[1:5\] keeps a slice of bytes`
}
