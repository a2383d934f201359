package replyfields_test

import (
	"path/filepath"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/admitlint/admitlint/passes/strandedsend/internal/replyfields"
)

// TestFacts checks the facts exported for api's request fields: only the
// field whose caller can leave is abandoned.
func TestFacts(t *testing.T) {
	testdata, _ := filepath.Abs("../../../../testdata")
	analysistest.Run(t, testdata, replyfields.Analyzer, "strandedsend/reqreply/api")
}

// TestAnswers checks the Answers facts of worker packages: the first
// plain send on each channel field, a select's cases not counted, whether
// the field is a task's reply or a queue of the pool.
func TestAnswers(t *testing.T) {
	testdata, _ := filepath.Abs("../../../../testdata")
	analysistest.Run(t, testdata, replyfields.Analyzer, "strandedsend/reqreply/worker")
}
