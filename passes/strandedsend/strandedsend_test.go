package strandedsend_test

import (
	"path/filepath"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/admitlint/admitlint/passes/strandedsend"
)

func testdata(t *testing.T) string {
	t.Helper()
	dir, err := filepath.Abs("../../testdata")
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestShapes runs the pass over every shape of the issue, positive and
// negative, and checks each suggested fix against its golden file.
func TestShapes(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, testdata(t), strandedsend.Analyzer,
		"strandedsend/timeout",
		"strandedsend/earlyreturn",
		"strandedsend/firsterror",
		"strandedsend/future",
		"strandedsend/selectsend",
		"strandedsend/stream",
		"strandedsend/escape",
		"strandedsend/cmd",
	)
}
