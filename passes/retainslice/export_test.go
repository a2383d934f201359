package retainslice

import "golang.org/x/tools/go/analysis"

// FreshAnalyzer returns the analyzer that exports Fresh facts for a run
// with cfg, so that tests can check the facts themselves.
func FreshAnalyzer(cfg Config) *analysis.Analyzer { return newFreshAnalyzer(&cfg) }
