package retainslice_test

import (
	"path/filepath"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/admitlint/admitlint/internal/lazyssa"
	"github.com/admitlint/admitlint/passes/retainslice"
)

func testdata(t *testing.T) string {
	dir, err := filepath.Abs("../../testdata")
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestRetainslice(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, testdata(t), retainslice.Analyzer, "retainslice/basic")
}

// TestFacts checks pieces returned by helpers in another package, known
// through the borrow facts.
func TestFacts(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, testdata(t), retainslice.Analyzer, "retainslice/facts/use", "retainslice/facts/lexutil")
}

// TestFixes checks the suggested fix against each way a file can import,
// or not, the package providing Clone.
func TestFixes(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, testdata(t), retainslice.Analyzer, "retainslice/fixes")
}

// TestMinBytes checks the min-bytes flag, set the way the command sets it.
func TestMinBytes(t *testing.T) {
	a := retainslice.New(retainslice.Defaults())
	if err := a.Flags.Set("min-bytes", "1024"); err != nil {
		t.Fatal(err)
	}
	analysistest.Run(t, testdata(t), a, "retainslice/minbytes")
}

// TestOdd runs the pass over shapes that must not crash it.
func TestOdd(t *testing.T) {
	analysistest.Run(t, testdata(t), retainslice.Analyzer, "retainslice/odd")
}

// TestGateMutant checks that the reference gate, seeded with the defect,
// is reported; analyzer's tests check the real gate stays silent.
func TestGateMutant(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, testdata(t), retainslice.Analyzer, "retainslice/gatemutant")
}

// TestRealCode holds the false positives found on real code, each fixed,
// and the true positives next to them.
func TestRealCode(t *testing.T) {
	analysistest.Run(t, testdata(t), retainslice.Analyzer, "retainslice/realcode")
}

// TestStaysOffSSA checks the cheap guard: a package with no whole-stream
// read and no large buffer, such as the reference gate, gets no SSA.
func TestStaysOffSSA(t *testing.T) {
	for _, r := range analysistest.Run(t, testdata(t), retainslice.Analyzer, "gate") {
		if r.Pass.Pkg.Path() != "gate" {
			continue
		}
		if lazyssa.Of(r.Pass).Built() {
			t.Errorf("SSA was built for %s, which has no candidate source", r.Pass.Pkg.Path())
		}
	}
}
