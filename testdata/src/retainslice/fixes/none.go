package fixes

// The file imports nothing: the fix adds the first import.
func none() []byte {
	buf := make([]byte, 1<<20)
	return buf[:4] // want `buf\[:4\] keeps a slice of buf \(make at none.go:\d+, 1 MiB\)`
}
