//go:build !linux

package tagged

// OnLinux is built everywhere but Linux.
func OnLinux() string { return "not linux" }
