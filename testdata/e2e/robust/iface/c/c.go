// Package c asserts on package b's types from a third package. Every
// package a vet tool is given must type-check as the compiler's does,
// whatever the packages it imports carry in their export data.
package c

import (
	"example.com/robust/iface/a"
	"example.com/robust/iface/b"
)

func Name() string {
	k := b.Make()
	b.Accept[int](&a.Struct{})
	if s, ok := k.(*a.Struct); ok {
		return s.Name()
	}
	return k.Name()
}
