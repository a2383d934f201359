// Package a declares a sealed interface: its method is unexported, so only
// the types of package a implement it.
package a

type Kind interface {
	sealed()
	Name() string
}

type Struct struct{}

func (*Struct) sealed()      {}
func (*Struct) Name() string { return "struct" }

type Generic[T any] interface {
	accept(T)
}

func (*Struct) accept(int) {}
