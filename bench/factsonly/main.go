// Command factsonly runs only what admitlint's passes compute for other
// packages: the analyzers among their requirements that export facts
// (the summaries of helpers' sends, of acquire wrappers, of functions
// returning sub-slices, of abandoned reply fields), with what those
// require (lazy SSA, ctrlflow, the inspector), and reports nothing.
// Measured as a vet tool beside admitlint's (bench/run.sh,
// docs/bench.md), it shows what computing the facts costs on its own.
//
//	go vet -vettool=$(command -v factsonly) packages…
package main

import (
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/multichecker"

	"github.com/admitlint/admitlint/passes/lateacquire"
	"github.com/admitlint/admitlint/passes/retainslice"
	"github.com/admitlint/admitlint/passes/strandedsend"
)

// factAnalyzers returns the analyzers that export facts among the
// requirements of passes, each once, in a fixed order.
func factAnalyzers(passes ...*analysis.Analyzer) []*analysis.Analyzer {
	var out []*analysis.Analyzer
	seen := map[*analysis.Analyzer]bool{}
	var visit func(a *analysis.Analyzer)
	visit = func(a *analysis.Analyzer) {
		if seen[a] {
			return
		}
		seen[a] = true
		for _, r := range a.Requires {
			visit(r)
		}
		if len(a.FactTypes) > 0 {
			out = append(out, a)
		}
	}
	for _, p := range passes {
		for _, r := range p.Requires {
			visit(r)
		}
	}
	return out
}

func main() {
	multichecker.Main(factAnalyzers(lateacquire.Analyzer, retainslice.Analyzer, strandedsend.Analyzer)...)
}
