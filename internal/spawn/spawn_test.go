package spawn_test

import (
	"fmt"
	"path/filepath"
	"sync"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"
	"golang.org/x/tools/go/analysis/passes/buildssa"
	"golang.org/x/tools/go/analysis/passes/inspect"
	"golang.org/x/tools/go/ast/inspector"

	"github.com/admitlint/admitlint/internal/spawn"
)

// sites reports every spawn site with what it resolved.
var sites = &analysis.Analyzer{
	Name:     "sites",
	Doc:      "sites: report goroutine starts",
	Requires: []*analysis.Analyzer{buildssa.Analyzer},
	Run: func(pass *analysis.Pass) (any, error) {
		for _, fn := range pass.ResultOf[buildssa.Analyzer].(*buildssa.SSA).SrcFuncs {
			for _, s := range spawn.Sites(fn) {
				name := "<unknown>"
				if s.Fn != nil {
					name = s.Fn.String()
				}
				group := ""
				if s.Group != nil {
					group = " group"
				}
				pass.Reportf(s.Instr.Pos(), "%s runs %s captures=%d args=%d%s", s.Kind, name, len(s.Bindings), len(s.Args), group)
			}
		}
		return nil, nil
	},
}

func TestSites(t *testing.T) {
	testdata, _ := filepath.Abs("../../testdata")
	analysistest.Run(t, testdata, sites, "spawn")
}

func TestKindString(t *testing.T) {
	for k, want := range map[spawn.Kind]string{spawn.GoStmt: "go statement", spawn.ErrgroupGo: "errgroup Go", spawn.WaitGroupGo: "WaitGroup.Go"} {
		if got := fmt.Sprint(k); got != want {
			t.Errorf("%d.String() = %q, want %q", k, got, want)
		}
	}
}

func TestHasCandidates(t *testing.T) {
	testdata, _ := filepath.Abs("../../testdata")
	var mu sync.Mutex // the checker analyses packages in parallel
	got := map[string]bool{}
	probe := &analysis.Analyzer{
		Name:     "probe",
		Doc:      "probe: record HasCandidates",
		Requires: []*analysis.Analyzer{inspect.Analyzer},
		Run: func(pass *analysis.Pass) (any, error) {
			has := spawn.HasCandidates(pass.ResultOf[inspect.Analyzer].(*inspector.Inspector))
			mu.Lock()
			got[pass.Pkg.Path()] = has
			mu.Unlock()
			return nil, nil
		},
	}
	// The spawn package's "want" comments are for TestSites: ignore them.
	analysistest.Run(ignoreWants{}, testdata, probe, "spawn", "golang.org/x/sync/semaphore")
	if !got["spawn"] || got["golang.org/x/sync/semaphore"] {
		t.Errorf("HasCandidates = %v, want true for spawn only", got)
	}
}

// ignoreWants drops analysistest's complaints about unmatched expectations.
type ignoreWants struct{}

func (ignoreWants) Errorf(string, ...any) {}

// wrapped reports every start made through a spawning wrapper, with the
// caller's values it maps to the goroutine's parameters.
var wrapped = &analysis.Analyzer{
	Name:     "wrapped",
	Doc:      "wrapped: report goroutine starts made through spawning wrappers",
	Requires: []*analysis.Analyzer{buildssa.Analyzer},
	Run: func(pass *analysis.Pass) (any, error) {
		for _, fn := range pass.ResultOf[buildssa.Analyzer].(*buildssa.SSA).SrcFuncs {
			for _, s := range spawn.Wrapped(fn) {
				var args []string
				for _, a := range s.Args {
					args = append(args, a.Name())
				}
				pass.Reportf(s.Instr.Pos(), "wrapper starts %s with %v", s.Fn.Name(), args)
			}
		}
		return nil, nil
	},
}

func TestWrapped(t *testing.T) {
	testdata, _ := filepath.Abs("../../testdata")
	analysistest.Run(t, testdata, wrapped, "spawn/wrapped")
}
