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
