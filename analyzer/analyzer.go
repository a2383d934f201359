// Package analyzer is the admitlint suite: every pass, in a fixed order,
// and the settings that configure them. The admitlint command, its
// golangci-lint plugin and anything else that embeds admitlint start here.
//
// # Anatomy of a pass
//
// A pass lives in passes/<name>, one package per pass, and is one entry
// of the registry below. Its files, in reading order:
//
//   - doc.go: the package comment, which is the pass's documentation (its
//     Doc, `admitlint help <name>` and the README's section are extracted
//     from it): why the pattern hurts, a wrong and a right example with the
//     diagnostic quoted, the model that decides a report, what is left
//     silent, and the flags;
//   - <name>.go: Config and Defaults, New (the analyzer bound to its
//     flags), and run, a table of contents: a cheap syntactic guard, the
//     candidates, one check per function;
//   - the files that find (candidates, identities, facts), then those that
//     decide (the conditions of the model, each a named predicate), then
//     report.go and fix.go, which describe (message, related positions,
//     suggested fix);
//   - internal/...: engines only this pass uses (Go's internal rule keeps
//     them private to it), each with its own tests;
//   - <name>_test.go: analysistest over testdata/src/<name>/..., and the
//     gate mutant (see below).
//
// The testdata of a pass, testdata/src/<name>/<case>/, reads like its
// specification. A positive carries `// want "regexp"` on the line
// reported; a negative is plain code, marked `// ok` when it is the
// correct twin of a positive beside it, or `// nope: <why>` when it is a
// shape once reported falsely (on real code, with where it was met): the
// marker says why it must stay silent. Suggested fixes are checked against
// <file>.golden. Shapes met on real code live in realcode/.
//
// The reference gate (testdata/src/gate) is admission control done right;
// every pass must stay silent on it (TestSuiteSilentOnGate). Each pass
// also proves it catches its own defect seeded into the gate: its test
// derives the mutant from gate.go by a few literal edits (package
// internal/gatemutant), so the mutant cannot drift from the gate.
//
// Adding a pass is its package plus one entry in registry: the suite
// (All), the constructor with settings (New), the settings golangci-lint
// decodes and the pass names the directives pass accepts all come from
// there.
package analyzer

import (
	"golang.org/x/tools/go/analysis"

	"github.com/admitlint/admitlint/passes/directives"
	"github.com/admitlint/admitlint/passes/lateacquire"
	"github.com/admitlint/admitlint/passes/retainslice"
	"github.com/admitlint/admitlint/passes/strandedsend"
)

// registry lists admitlint's reporting passes, in the order help, output
// and SARIF rules use. The directives pass follows them, built with their
// names.
var registry = []pass{
	entry(lateacquire.Analyzer, lateacquire.Defaults, lateacquire.New),
	entry(strandedsend.Analyzer, strandedsend.Defaults, strandedsend.New),
	entry(retainslice.Analyzer, retainslice.Defaults, retainslice.New),
}

// A pass is one entry of the registry.
type pass struct {
	analyzer *analysis.Analyzer        // the package-level analyzer, with the default settings
	build    func() *analysis.Analyzer // a new analyzer with its own copy of the default settings
}

// entry makes the registry entry of a pass from its package's Analyzer,
// Defaults and New.
func entry[C any](a *analysis.Analyzer, defaults func() C, build func(C) *analysis.Analyzer) pass {
	return pass{analyzer: a, build: func() *analysis.Analyzer { return build(defaults()) }}
}

// All lists every admitlint analyzer with its default settings, in the
// order help, output and SARIF rules use. Each reporting pass is also
// exported by its own package (passes/<name>) for drivers such as nogo
// that take analyzers one by one; the directives pass that knows the
// suite's pass names is analyzer/directives.
var All = suite(registry)

// suite returns the analyzers of the registry reg, the directives pass
// last.
func suite(reg []pass) []*analysis.Analyzer {
	var all []*analysis.Analyzer
	for _, p := range reg {
		all = append(all, p.analyzer)
	}
	return append(all, directives.New(names(reg)...))
}

// Names returns the names of all analyzers, in order.
func Names() []string {
	return append(names(registry), directives.Analyzer.Name)
}

// names returns the names of the passes of reg.
func names(reg []pass) []string {
	ns := make([]string, len(reg))
	for i, p := range reg {
		ns[i] = p.analyzer.Name
	}
	return ns
}

// Directives returns the directives analyzer that accepts the suite's pass
// names.
func Directives() *analysis.Analyzer {
	return All[len(All)-1]
}
