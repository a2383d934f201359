// Package minbytes is checked with -retainslice.min-bytes=1024.
package minbytes

func page() []byte {
	buf := make([]byte, 4096)
	return buf[:8] // want `buf\[:8\] keeps a slice of buf \(make at minbytes.go:\d+, 4 KiB\)`
}

// nope: 512 bytes is below the 1 KiB threshold.
func line() []byte {
	buf := make([]byte, 512)
	return buf[:8]
}

// nope: a capacity given as a variable is not a constant size.
func sized(n int) []byte {
	buf := make([]byte, 0, n)
	return buf[:8]
}

func capacity() []byte {
	buf := make([]byte, 0, 2048)
	buf = append(buf, "header: value"...)
	return buf[8:14] // want `buf\[8:14\] keeps a slice of buf \(make at minbytes.go:\d+, 2 KiB\)`
}
