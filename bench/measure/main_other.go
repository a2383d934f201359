//go:build !linux

// Command measure needs Linux: it reads process memory from /proc.
package main

import (
	"fmt"
	"os"
)

func main() {
	fmt.Fprintln(os.Stderr, "measure: needs Linux (/proc); bench/run.sh runs only there")
	os.Exit(2)
}
