package sendsum_test

import (
	"path/filepath"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/admitlint/admitlint/passes/strandedsend/internal/sendsum"
)

// TestFacts checks the summaries exported for feed's functions: one plain
// send, a stream, a send two calls deep, a callback run in place; none for
// a send in a select with ctx.Done or a callback kept for later; and for
// jobs' functions, by the field of the struct they are given: a plain
// send, none for a select on ctx.Done, no summary for a job kept.
func TestFacts(t *testing.T) {
	testdata, _ := filepath.Abs("../../../../testdata")
	analysistest.Run(t, testdata, sendsum.Analyzer, "strandedsend/helpers/feed", "strandedsend/structs/jobs")
}
