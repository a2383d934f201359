package lengths_test

import (
	"path/filepath"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/admitlint/admitlint/passes/lateacquire/internal/lengths"
)

// TestFacts checks which functions get a length fact: a body that is
// return len(x), and not a configured count or a length on one path.
func TestFacts(t *testing.T) {
	dir, err := filepath.Abs("../../../../testdata")
	if err != nil {
		t.Fatal(err)
	}
	analysistest.Run(t, dir, lengths.Analyzer, "lateacquire/lengths")
}
