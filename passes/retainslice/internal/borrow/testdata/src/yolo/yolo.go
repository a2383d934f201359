// Package yolo converts between strings and byte slices without copying,
// as fast decoders do: the result shares its argument's array, so a
// caller's piece stays a piece and a whole buffer stays whole.
package yolo

import "unsafe"

// String returns b as a string, sharing its bytes.
func String(b []byte) string { // want String:`borrows\(r0<-p0:same\)`
	return unsafe.String(unsafe.SliceData(b), len(b))
}

// Bytes returns s as a byte slice, sharing its bytes.
func Bytes(s string) []byte { // want Bytes:`borrows\(r0<-p0:same\)`
	return unsafe.Slice(unsafe.StringData(s), len(s))
}

// Cast is the older form, through a pointer to the slice header.
func Cast(b []byte) string { // want Cast:`borrows\(r0<-p0:same\)`
	return *(*string)(unsafe.Pointer(&b))
}

// Copy copies: no fact.
func Copy(b []byte) string {
	return string(b)
}

// Header returns the length of b through unsafe: no fact.
func Header(b []byte) int {
	return *(*int)(unsafe.Add(unsafe.Pointer(&b), unsafe.Sizeof(uintptr(0))))
}
