package harness_test

import (
	"go/ast"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"
	"golang.org/x/tools/go/analysis/passes/inspect"
	"golang.org/x/tools/go/ast/inspector"

	"github.com/admitlint/admitlint/internal/harness"
)

// gostmt reports every go statement: a stand-in pass for the harness.
func gostmt() *analysis.Analyzer {
	return harness.Wrap(&analysis.Analyzer{
		Name:     "gostmt",
		Doc:      "gostmt: report go statements",
		Requires: []*analysis.Analyzer{inspect.Analyzer},
		Run: func(pass *analysis.Pass) (any, error) {
			ins := pass.ResultOf[inspect.Analyzer].(*inspector.Inspector)
			ins.Preorder([]ast.Node{(*ast.GoStmt)(nil)}, func(n ast.Node) {
				pass.Reportf(n.Pos(), "go statement")
			})
			return nil, nil
		},
	})
}

func TestSuppression(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, analysistest.TestData(), gostmt(), "suppress")
}

// failing records the error a run returned instead of failing the test.
type failing struct {
	*testing.T
	errs []string
}

func (f *failing) Errorf(format string, args ...any) {
	f.errs = append(f.errs, format)
}

func TestPanicBecomesError(t *testing.T) {
	a := harness.Wrap(&analysis.Analyzer{
		Name: "boom",
		Doc:  "boom: panic",
		Run:  func(*analysis.Pass) (any, error) { panic("kaboom") },
	})
	results := analysistest.Run(&failing{T: t}, analysistest.TestData(), a, "suppress")
	if len(results) == 0 {
		t.Fatal("no results")
	}
	for _, r := range results {
		if r.Err == nil || !strings.Contains(r.Err.Error(), "internal error: boom panicked") || !strings.Contains(r.Err.Error(), "kaboom") {
			t.Errorf("result error = %v, want the panic as an internal error", r.Err)
		}
	}
}
