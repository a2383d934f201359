package directives_test

import (
	"path/filepath"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/admitlint/admitlint/passes/directives"
)

func TestDirectives(t *testing.T) {
	testdata, _ := filepath.Abs("../../testdata")
	analysistest.RunWithSuggestedFixes(t, testdata, directives.New("alpha", "beta"), "directives")
}
