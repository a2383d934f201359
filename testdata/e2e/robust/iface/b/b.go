// Package b defines its own types whose underlying types are package a's
// sealed interfaces: their unexported methods still belong to package a.
package b

import "example.com/robust/iface/a"

type Kind a.Kind

type Generic[T any] a.Generic[T]

func Make() Kind { return &a.Struct{} }

func Accept[T any](Generic[T]) {}
