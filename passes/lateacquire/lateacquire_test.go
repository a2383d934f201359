package lateacquire_test

import (
	"go/ast"
	"go/token"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/admitlint/admitlint/internal/gatemutant"
	"github.com/admitlint/admitlint/passes/lateacquire"
)

func testdata(t *testing.T) string {
	dir, err := filepath.Abs("../../testdata")
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestBasic(t *testing.T) {
	analysistest.Run(t, testdata(t), lateacquire.Analyzer, "lateacquire/basic", "lateacquire/realcode")
}

func TestFixes(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, testdata(t), lateacquire.Analyzer, "lateacquire/fixes")
}

// TestWrappersAcrossPackages: the wrappers of lateacquire/pool reach
// lateacquire/usepool as facts, and the lengths of lateacquire/lengths
// reach lateacquire/uselengths.
func TestWrappersAcrossPackages(t *testing.T) {
	analysistest.Run(t, testdata(t), lateacquire.Analyzer, "lateacquire/usepool", "lateacquire/uselengths")
}

func TestStrict(t *testing.T) {
	analysistest.Run(t, testdata(t), lateacquire.New(lateacquire.Config{Strict: true}), "lateacquire/strict")
}

// TestFuncs names acquire functions the pass cannot recognise itself.
func TestFuncs(t *testing.T) {
	cfg := lateacquire.Defaults()
	cfg.Funcs = []string{"lateacquire/funcs.Gate.Enter", "lateacquire/funcs.Wait"}
	analysistest.Run(t, testdata(t), lateacquire.New(cfg), "lateacquire/funcs")
}

// TestFuncsFlag sets the same list through the analyzer's flag, as the
// command line does.
func TestFuncsFlag(t *testing.T) {
	a := lateacquire.New(lateacquire.Defaults())
	if err := a.Flags.Set("funcs", "lateacquire/funcs.Gate.Enter,lateacquire/funcs.Wait"); err != nil {
		t.Fatal(err)
	}
	analysistest.Run(t, testdata(t), a, "lateacquire/funcs")
}

// TestGateMutant: the reference gate with its slot reservation moved into
// the spawned goroutine, on a channel semaphore, must be reported: a burst
// of Starts parks one goroutine per call at the acquire (the gate itself
// stays silent: see the analyzer package's TestSuiteSilentOnGate).
func TestGateMutant(t *testing.T) {
	dir := gatemutant.Write(t,
		gatemutant.Edit{
			Old:    "\tdone     chan struct{} // closed when draining and no work is active\n",
			Mutant: "\tdone     chan struct{} // closed when draining and no work is active\n\n\tslots chan struct{} // MUTANT: one token per running operation\n",
		},
		gatemutant.Edit{
			Old:    "return &Gate{limit: limit, done: make(chan struct{})}",
			Mutant: "return &Gate{limit: limit, slots: make(chan struct{}, limit), done: make(chan struct{})}",
		},
		gatemutant.Edit{
			Old:    "\tif g.active >= g.limit {\n\t\treturn ErrCapacity\n\t}\n",
			Mutant: "\t// MUTANT: no capacity check here; run waits for a slot instead.\n",
		},
		gatemutant.Edit{
			Old: "\tdefer g.release()\n\tresult <- work(ctx)\n",
			Mutant: "\tdefer g.release()\n" +
				"\tg.slots <- struct{}{} // want `goroutine waits on g.slots before doing any work; one goroutine parks per call of Gate.Start — acquire before the go statement`\n" +
				"\tdefer func() { <-g.slots }()\n" +
				"\tresult <- work(ctx)\n",
		},
	)
	analysistest.Run(t, dir, lateacquire.Analyzer, gatemutant.Package)
}

func TestGateSilent(t *testing.T) {
	for _, r := range analysistest.Run(t, testdata(t), lateacquire.Analyzer, "gate") {
		for _, d := range r.Diagnostics {
			t.Errorf("%s: %s", r.Pass.Fset.Position(d.Pos), d.Message)
		}
	}
}

// TestOneReportPerAcquire: an acquire that two spawns reach is printed
// once, with both go statements as related positions (the want comments
// of lateacquire/shared check the message; this checks the positions).
func TestOneReportPerAcquire(t *testing.T) {
	results := analysistest.Run(t, testdata(t), lateacquire.Analyzer, "lateacquire/shared")
	found := false
	for _, r := range results {
		for _, d := range r.Diagnostics {
			starts := 0
			for _, rel := range d.Related {
				if rel.Message == "goroutine started here" {
					starts++
				}
			}
			if strings.Contains(d.Message, " and per ") {
				found = true
				if starts != 2 || len(d.SuggestedFixes) != 0 {
					t.Errorf("%s: merged report has %d spawn positions and %d fixes, want 2 and 0", r.Pass.Fset.Position(d.Pos), starts, len(d.SuggestedFixes))
				}
			} else if starts != 1 {
				t.Errorf("%s: report has %d spawn positions, want 1", r.Pass.Fset.Position(d.Pos), starts)
			}
		}
	}
	if !found {
		t.Error("no merged report in lateacquire/shared")
	}
}

// TestHeldLockNamed: a blocking acquire whose spawn runs with a mutex
// held gets no fix, and names the Lock as a related position; its twin,
// spawned after the unlock, gets the fix and no such position (the
// golden file of lateacquire/fixes checks the edits).
func TestHeldLockNamed(t *testing.T) {
	results := analysistest.Run(t, testdata(t), lateacquire.Analyzer, "lateacquire/fixes")
	seen := map[string]bool{}
	for _, r := range results {
		for _, d := range r.Diagnostics {
			fn := enclosingFunc(r.Pass.Files, d.Pos)
			if fn != "refreshLocked" && fn != "refreshUnlocked" {
				continue
			}
			seen[fn] = true
			held := slices.ContainsFunc(d.Related, func(rel analysis.RelatedInformation) bool {
				return strings.HasPrefix(rel.Message, "c.mu is locked here and still held at the spawn")
			})
			if want := fn == "refreshLocked"; held != want || (len(d.SuggestedFixes) == 0) != want {
				t.Errorf("%s: held-lock position %v, %d fixes; want position %v and fixes only without it", fn, held, len(d.SuggestedFixes), want)
			}
		}
	}
	if !seen["refreshLocked"] || !seen["refreshUnlocked"] {
		t.Errorf("reports in %v, want both refreshLocked and refreshUnlocked", seen)
	}
}

// enclosingFunc returns the name of the function declaration of files
// that contains pos.
func enclosingFunc(files []*ast.File, pos token.Pos) string {
	for _, f := range files {
		for _, decl := range f.Decls {
			if fd, ok := decl.(*ast.FuncDecl); ok && fd.Pos() <= pos && pos < fd.End() {
				return fd.Name.Name
			}
		}
	}
	return ""
}

// TestSpawnsFacts: the helpers of lateacquire/spawners that start a
// goroutine per call waiting on a semaphore parameter carry a fact.
func TestSpawnsFacts(t *testing.T) {
	analysistest.Run(t, testdata(t), lateacquire.SpawnersAnalyzer(), "lateacquire/spawners")
}

// TestSpawnersAcrossPackages: lateacquire/usespawners calls them once
// per unit of its loops.
func TestSpawnersAcrossPackages(t *testing.T) {
	analysistest.Run(t, testdata(t), lateacquire.Analyzer, "lateacquire/usespawners")
}
