package retainslice_test

import (
	"path/filepath"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/admitlint/admitlint/internal/gatemutant"
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

// withFiles returns retainslice with -retainslice.files set, the way the
// command sets it: most shapes below read their buffer with os.ReadFile,
// which the default run does not count as large (TestWholeFile).
func withFiles(t *testing.T) *analysis.Analyzer {
	a := retainslice.New(retainslice.Defaults())
	if err := a.Flags.Set("files", "true"); err != nil {
		t.Fatal(err)
	}
	return a
}

func TestRetainslice(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, testdata(t), withFiles(t), "retainslice/basic")
}

// TestWholeFile checks the default run on files read whole: no evidence
// that they are large (a password, a version, a config, a list the
// program wrote itself), unlike a body or a stream read to its end.
func TestWholeFile(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, testdata(t), retainslice.Analyzer, "retainslice/wholefile")
}

// TestFacts checks pieces returned by helpers in another package, known
// through the borrow facts.
func TestFacts(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, testdata(t), withFiles(t), "retainslice/facts/use", "retainslice/facts/lexutil")
}

// TestFixes checks the suggested fix against each way a file can import,
// or not, the package providing Clone.
func TestFixes(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, testdata(t), withFiles(t), "retainslice/fixes")
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
	analysistest.Run(t, testdata(t), withFiles(t), "retainslice/odd")
}

// TestGateMutant checks that the reference gate, seeded with the defect,
// is reported; analyzer's tests check the real gate stays silent. The
// defect: each admitted operation reads its request body whole, and its
// result keeps the request's key, a short slice of that body, so the body
// stays alive after the slot is free, for as long as the caller keeps the
// result.
func TestGateMutant(t *testing.T) {
	dir := gatemutant.Write(t,
		gatemutant.Edit{Old: "\t\"context\"\n", Mutant: "\t\"bytes\"\n\t\"context\"\n"},
		gatemutant.Edit{Old: "\t\"errors\"\n", Mutant: "\t\"errors\"\n\t\"io\"\n"},
		gatemutant.Edit{
			Old: "// Start admits work",
			Mutant: "// A Result is what an admitted operation leaves behind: the key of the\n" +
				"// request it served, and its work's error.\n" +
				"type Result struct {\n\tKey []byte\n\tErr error\n}\n\n" +
				"// Start admits work",
		},
		gatemutant.Edit{
			Old:    "func (g *Gate) Start(ctx context.Context, work func(context.Context) error) (<-chan error, error) {",
			Mutant: "func (g *Gate) Start(ctx context.Context, body io.Reader, work func(context.Context, []byte) error) (<-chan Result, error) {",
		},
		gatemutant.Edit{
			Old:    "\tresult := make(chan error, 1)\n\tgo g.run(ctx, work, result)\n",
			Mutant: "\tresult := make(chan Result, 1)\n\tgo g.run(ctx, body, work, result)\n",
		},
		gatemutant.Edit{
			Old:    "func (g *Gate) run(ctx context.Context, work func(context.Context) error, result chan<- error) {",
			Mutant: "func (g *Gate) run(ctx context.Context, body io.Reader, work func(context.Context, []byte) error, result chan<- Result) {",
		},
		gatemutant.Edit{
			Old: "\tresult <- work(ctx)\n",
			Mutant: "\tdata, err := io.ReadAll(body)\n" +
				"\tif err != nil {\n\t\tresult <- Result{Err: err}\n\t\treturn\n\t}\n" +
				"\tkey, _, _ := bytes.Cut(data, []byte(\"\\n\"))\n" +
				"\tresult <- Result{Key: key, Err: work(ctx, data)} // want `key stored in Result\\{…\\} keeps a slice of data \\(io.ReadAll at gate.go:\\d+, unbounded\\) alive after run returns; copy it with bytes.Clone`\n",
			Fixed: "\tdata, err := io.ReadAll(body)\n" +
				"\tif err != nil {\n\t\tresult <- Result{Err: err}\n\t\treturn\n\t}\n" +
				"\tkey, _, _ := bytes.Cut(data, []byte(\"\\n\"))\n" +
				"\tresult <- Result{Key: bytes.Clone(key), Err: work(ctx, data)} // want `key stored in Result\\{…\\} keeps a slice of data \\(io.ReadAll at gate.go:\\d+, unbounded\\) alive after run returns; copy it with bytes.Clone`\n",
		},
	)
	analysistest.RunWithSuggestedFixes(t, dir, retainslice.Analyzer, gatemutant.Package)
}

// TestRealCode holds the false positives found on real code, each fixed,
// and the true positives next to them.
func TestRealCode(t *testing.T) {
	analysistest.Run(t, testdata(t), withFiles(t), "retainslice/realcode")
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
