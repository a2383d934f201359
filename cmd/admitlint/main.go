// Command admitlint finds the goroutine patterns that quietly turn overload
// into an unbounded queue, a leak or an out-of-memory crash.
//
//	admitlint ./...
//	go vet -vettool=$(command -v admitlint) ./...
//
// Run "admitlint help" for the list of passes.
package main

import (
	"os"

	"github.com/admitlint/admitlint/analyzer"
	"github.com/admitlint/admitlint/cmd/admitlint/internal/cli"
	"github.com/admitlint/admitlint/cmd/admitlint/internal/vettool"
)

func main() {
	if vettool.Invoked(os.Args[1:]) {
		vettool.Main(analyzer.All) // does not return
	}
	os.Exit(cli.Main(analyzer.All, os.Args[1:], os.Stdout, os.Stderr))
}
