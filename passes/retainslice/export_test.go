package retainslice

import "golang.org/x/tools/go/analysis"

// FactsAnalyzer returns the analyzer that exports Fresh and Keeps facts for a run
// with cfg, so that tests can check the facts themselves.
func FactsAnalyzer(cfg Config) *analysis.Analyzer { return newFactsAnalyzer(&cfg) }
