package lateacquire

import (
	"golang.org/x/tools/go/analysis"

	"github.com/admitlint/admitlint/passes/lateacquire/internal/acquire"
)

// SpawnersAnalyzer is the analyzer of Spawns facts, with no functions
// named by the user.
func SpawnersAnalyzer() *analysis.Analyzer {
	var named []string
	return newSpawners(acquire.New(&named))
}
