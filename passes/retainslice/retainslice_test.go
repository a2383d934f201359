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

// widened returns retainslice with -retainslice.files and
// -retainslice.streams set, the way the command sets them: most shapes
// below read their buffer with os.ReadFile or io.ReadAll, which the
// default run does not count as large (TestWholeFile, TestDefault).
func widened(t *testing.T) *analysis.Analyzer {
	a := retainslice.New(retainslice.Defaults())
	for _, name := range []string{"files", "streams"} {
		if err := a.Flags.Set(name, "true"); err != nil {
			t.Fatal(err)
		}
	}
	return a
}

func TestRetainslice(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, testdata(t), widened(t), "retainslice/basic")
}

// TestWholeFile checks the default run on files read whole: no evidence
// that they are large (a password, a version, a config, a list the
// program wrote itself), unlike a body or a stream read to its end.
func TestWholeFile(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, testdata(t), retainslice.Analyzer, "retainslice/wholefile")
}

// TestDefault checks the default run's evidence of size: a size the
// program states, not one its input decides (-retainslice.streams).
func TestDefault(t *testing.T) {
	analysistest.Run(t, testdata(t), retainslice.Analyzer, "retainslice/sized")
}

// TestFacts checks pieces returned by helpers in another package, known
// through the borrow facts.
func TestFacts(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, testdata(t), widened(t), "retainslice/facts/use", "retainslice/facts/lexutil")
}

// TestFixes checks the suggested fix against each way a file can import,
// or not, the package providing Clone.
func TestFixes(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, testdata(t), widened(t), "retainslice/fixes")
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
	analysistest.Run(t, testdata(t), widened(t), "retainslice/odd")
}

// TestGateMutant checks that the reference gate, seeded with the defect,
// is reported; analyzer's tests check the real gate stays silent. The
// defect: each admitted operation reads its request into a 1 MiB buffer,
// and its result keeps the request's key, a short slice of that buffer,
// so the buffer stays alive after the slot is free, for as long as the
// caller keeps the result.
func TestGateMutant(t *testing.T) {
	read := "\tbuf := make([]byte, 1<<20)\n" +
		"\tn, err := io.ReadFull(body, buf)\n" +
		"\tif err != nil && err != io.ErrUnexpectedEOF {\n\t\tresult <- Result{Err: err}\n\t\treturn\n\t}\n" +
		"\tkey, _, _ := bytes.Cut(buf[:n], []byte(\"\\n\"))\n"
	want := " // want `key stored in Result\\{…\\} keeps a slice of buf \\(make at gate.go:\\d+, 1 MiB\\) alive after run returns; copy it with bytes.Clone`\n"
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
			Old:    "\tresult <- work(ctx)\n",
			Mutant: read + "\tresult <- Result{Key: key, Err: work(ctx, buf[:n])}" + want,
			Fixed:  read + "\tresult <- Result{Key: bytes.Clone(key), Err: work(ctx, buf[:n])}" + want,
		},
	)
	analysistest.RunWithSuggestedFixes(t, dir, retainslice.Analyzer, gatemutant.Package)
}

// TestRealCode holds the false positives found on real code, each fixed,
// and the true positives next to them.
func TestRealCode(t *testing.T) {
	analysistest.Run(t, testdata(t), widened(t), "retainslice/realcode")
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

// TestFresh checks buffers made by helpers in another package: the
// Fresh facts make a call of the helper a root in its caller, with the
// default run's notion of large.
func TestFresh(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, testdata(t), retainslice.Analyzer, "retainslice/fresh/use", "retainslice/fresh/blocks")
}

// TestFreshFacts checks the Fresh facts themselves.
func TestFreshFacts(t *testing.T) {
	analysistest.Run(t, testdata(t), retainslice.FactsAnalyzer(retainslice.Defaults()), "retainslice/fresh/facts")
}

// TestKeeps checks pieces handed to functions that keep them, in this
// package and another: the Keeps facts make such a call a place where
// the piece outlives its function.
func TestKeeps(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, testdata(t), retainslice.Analyzer, "retainslice/keeps/use")
}

// TestKeepsFacts checks the Keeps facts themselves.
func TestKeepsFacts(t *testing.T) {
	analysistest.Run(t, testdata(t), retainslice.FactsAnalyzer(retainslice.Defaults()), "retainslice/keeps/store")
}

// TestZeroCopy checks strings and slices made from pieces without
// copying (unsafe.String, unsafe.Slice, the pointer cast), in place and
// through helpers of another package: still pieces of their buffer.
func TestZeroCopy(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, testdata(t), retainslice.Analyzer, "retainslice/zerocopy/labels")
}

// TestSeq checks the range-over-func splitters: the body of the loop
// runs within the function, and keeps what that function keeps.
func TestSeq(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, testdata(t), retainslice.Analyzer, "retainslice/seq")
}
