// Command ssafloor is the benchmark's floor: an analysis tool that builds
// SSA for every package it is given and then does nothing with it. Any
// SSA-based linter pays at least this much, so admitlint as a vet tool is
// measured against it (bench/run.sh, docs/bench.md).
//
//	go vet -vettool=$(command -v ssafloor) packages…   # one package per process
//	ssafloor packages…                                 # whole program in one process
//
// The mode is chosen by the arguments, as admitlint's command does:
// singlechecker.Main hands go vet's protocol (-V=full, -flags, a *.cfg
// unit description) to unitchecker and loads the named packages itself
// otherwise. Standalone, buildssa requires ctrlflow, which exports facts,
// so the x/tools checker loads and converts the whole program, standard
// library included, in one process: its memory grows with the program.
package main

import (
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/buildssa"
	"golang.org/x/tools/go/analysis/singlechecker"
)

// Analyzer requires buildssa and reports nothing.
var Analyzer = &analysis.Analyzer{
	Name:     "ssafloor",
	Doc:      "build SSA for every package and report nothing (the benchmark's floor)",
	URL:      "https://pkg.go.dev/github.com/admitlint/admitlint/bench/ssafloor",
	Requires: []*analysis.Analyzer{buildssa.Analyzer},
	Run:      run,
}

// run touches the SSA result so that building it cannot be optimised
// away by a future driver that skips unused results.
func run(pass *analysis.Pass) (any, error) {
	ssa := pass.ResultOf[buildssa.Analyzer].(*buildssa.SSA)
	_ = len(ssa.SrcFuncs)
	return nil, nil
}

func main() { singlechecker.Main(Analyzer) }
