//go:build linux

package tagged

// OnLinux is built on Linux only.
func OnLinux() string { return "linux" }
