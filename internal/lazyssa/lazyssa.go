// Package lazyssa defines an Analyzer that hands out the SSA form of a
// package on demand, building it at most once per package.
//
// It is buildssa with the build deferred: the result is a handle, and the
// first pass that calls SSA pays for the build while every later caller in
// the same package shares it. admitlint's passes first look for cheap
// syntactic candidates (an import, a go statement, a make with a large
// constant) and most packages have none, so most packages never get SSA at
// all. That matters most under go vet, where every dependency is analysed
// for facts.
//
// The build itself is buildssa's own: the handle calls buildssa's Run with
// the package's inputs, so the SSA form (and the noreturn information
// from ctrlflow) is exactly what buildssa would give.
package lazyssa

import (
	"fmt"
	"reflect"
	"sync"
	"sync/atomic"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/buildssa"
	"golang.org/x/tools/go/analysis/passes/ctrlflow"
)

// Analyzer returns a *Handle for the package.
var Analyzer = &analysis.Analyzer{
	Name:       "lazyssa",
	Doc:        "provide SSA form on demand, built at most once per package",
	URL:        "https://pkg.go.dev/github.com/admitlint/admitlint/internal/lazyssa",
	Run:        run,
	Requires:   []*analysis.Analyzer{ctrlflow.Analyzer},
	ResultType: reflect.TypeFor[*Handle](),
}

// A Handle builds the package's SSA form on first use.
type Handle struct {
	once  sync.Once
	input *analysis.Pass // a private copy holding only what buildssa reads
	ssa   *buildssa.SSA
	err   error
	built atomic.Bool
}

func run(pass *analysis.Pass) (any, error) {
	// Keep a copy of the pass with exactly the inputs buildssa needs, so the
	// handle does not depend on the driver keeping the original intact.
	input := &analysis.Pass{
		Analyzer:   buildssa.Analyzer,
		Fset:       pass.Fset,
		Files:      pass.Files,
		Pkg:        pass.Pkg,
		TypesInfo:  pass.TypesInfo,
		TypesSizes: pass.TypesSizes,
		ResultOf: map[*analysis.Analyzer]any{
			ctrlflow.Analyzer: pass.ResultOf[ctrlflow.Analyzer],
		},
	}
	return &Handle{input: input}, nil
}

// Of returns the handle of the package analysed by pass, whose analyzer
// must list Analyzer among its requirements.
func Of(pass *analysis.Pass) *Handle {
	h, ok := pass.ResultOf[Analyzer].(*Handle)
	if !ok {
		panic(fmt.Sprintf("internal error: analyzer %s does not require lazyssa", pass.Analyzer.Name))
	}
	return h
}

// SSA returns the package's SSA form, building it on the first call. It is
// safe for concurrent use by the passes of one package. A panic inside the
// SSA builder becomes an error, so one unbuildable package costs that
// package's analysis, not the whole run.
func (h *Handle) SSA() (*buildssa.SSA, error) {
	h.once.Do(func() {
		defer func() {
			if r := recover(); r != nil {
				h.err = fmt.Errorf("internal error: building SSA for %s: %v", h.input.Pkg.Path(), r)
			}
		}()
		res, err := buildssa.Analyzer.Run(h.input)
		if err != nil {
			h.err = err
			return
		}
		h.ssa = res.(*buildssa.SSA)
		h.built.Store(true)
	})
	return h.ssa, h.err
}

// Built reports whether the package's SSA form has been built; tests use it
// to check that passes stay off SSA when a package has no candidates.
func (h *Handle) Built() bool { return h.built.Load() }
