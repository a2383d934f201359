package lateacquire

import (
	"fmt"
	"go/ast"
	"go/types"
	"reflect"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/inspect"
	"golang.org/x/tools/go/ast/inspector"
	"golang.org/x/tools/go/ssa"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/admitlint/admitlint/internal/lazyssa"
	"github.com/admitlint/admitlint/internal/spawn"
	"github.com/admitlint/admitlint/passes/lateacquire/internal/acquire"
	"github.com/admitlint/admitlint/passes/lateacquire/internal/lengths"
)

// A Spawns fact marks an exported function or method that starts one
// goroutine per call, outside any loop and without waiting for it, whose
// first act is to wait for a permit of the semaphore its caller passes
// as parameter Param (not the receiver): the same report as a spawn in
// view (one goroutine parks per call), carried to the packages that call
// it. Where the helper is another module's, the call in the caller's
// loop is the line a user can change.
type Spawns struct {
	Param int // the semaphore's index among the parameters, the receiver first
	// Signals are the parameters the goroutine signals its end on (a
	// channel it closes or sends on, a WaitGroup it calls Done on): a
	// caller that waits on one after each call starts no burst.
	Signals []int
}

func (*Spawns) AFact() {}

func (s *Spawns) String() string {
	return fmt.Sprintf("spawns(acquires param %d, signals %v)", s.Param, s.Signals)
}

// newSpawners returns the analyzer that exports Spawns facts, sharing
// the pass's acquire summary (whose functions the user's list changes).
func newSpawners(summary *analysis.Analyzer) *analysis.Analyzer {
	return &analysis.Analyzer{
		Name:       "spawnacquire",
		Doc:        "spawnacquire: mark the functions that start a goroutine per call whose first act waits for a permit of a semaphore parameter",
		URL:        "https://pkg.go.dev/github.com/admitlint/admitlint/passes/lateacquire",
		Requires:   []*analysis.Analyzer{inspect.Analyzer, lazyssa.Analyzer, summary, lengths.Analyzer},
		FactTypes:  []analysis.Fact{new(Spawns)},
		ResultType: reflect.TypeFor[*spawnFacts](),
		Run: func(pass *analysis.Pass) (any, error) {
			return &spawnFacts{pass}, exportSpawns(pass, pass.ResultOf[summary].(*acquire.Summary))
		},
	}
}

// spawnFacts answers, for the functions of the packages a package
// imports, what their Spawns facts say.
type spawnFacts struct{ pass *analysis.Pass }

// of returns the Spawns fact of fn, a function of another package.
func (s *spawnFacts) of(fn *types.Func) (*Spawns, bool) {
	if fn == nil || fn.Pkg() == nil || fn.Pkg() == s.pass.Pkg {
		return nil, false
	}
	var f Spawns
	if !s.pass.ImportObjectFact(fn.Origin(), &f) {
		return nil, false
	}
	return &f, true
}

func exportSpawns(pass *analysis.Pass, summary *acquire.Summary) error {
	ins := pass.ResultOf[inspect.Analyzer].(*inspector.Inspector)
	if !spawn.HasCandidates(ins) || !hasAcquireCandidate(pass, ins, summary) || !hasExportedFunc(pass) {
		return nil
	}
	res, err := lazyssa.Of(pass).SSA()
	if err != nil {
		return err
	}
	c := &checker{pass: pass, cfg: &Config{}, summary: summary, lengths: pass.ResultOf[lengths.Analyzer].(*lengths.Lengths), srcFuncs: res.SrcFuncs}
	for _, fn := range res.SrcFuncs {
		obj, ok := fn.Object().(*types.Func)
		if !ok || fn.Parent() != nil || !obj.Exported() {
			continue
		}
		for _, site := range spawn.Sites(fn) {
			if fact, ok := c.spawnsOnParam(fn, site); ok {
				pass.ExportObjectFact(obj, fact)
				break
			}
		}
	}
	return nil
}

// hasExportedFunc reports whether the package declares an exported
// function or method: only those are called from other packages.
func hasExportedFunc(pass *analysis.Pass) bool {
	for _, f := range pass.Files {
		for _, d := range f.Decls {
			if d, ok := d.(*ast.FuncDecl); ok && d.Name.IsExported() {
				return true
			}
		}
	}
	return false
}

// spawnsOnParam returns the Spawns fact of fn for its spawn site, if the
// site starts one goroutine per call of fn whose first act waits on a
// semaphore parameter of fn, with nothing that admits or awaits it.
func (c *checker) spawnsOnParam(fn *ssa.Function, site spawn.Site) (*Spawns, bool) {
	if site.Fn == nil || len(site.Fn.Blocks) == 0 || site.Kind == spawn.ErrgroupGo {
		return nil, false
	}
	sp := c.spawnerOf(fn, site)
	if sp.top != sp.frame || len(sp.loops) > 0 || isRecursive(fn, site) {
		return nil, false
	}
	g := &frame{fn: site.Fn, bindings: site.Bindings, args: site.Args, parent: sp.frame, via: site.Instr, goroutine: true}
	for _, a := range c.firstActs(g, 0) {
		if a.try || idleAfter(a) {
			continue
		}
		k, ok := c.semParam(c.resolve(a.sem, a.fr), fn)
		if !ok || c.admitted(sp, site, g, a) || c.refilled(sp, site, a) {
			continue
		}
		if c.waitsForGoroutine(site, g) {
			return nil, false // the helper awaits its goroutine: at most one per waiting caller
		}
		fact := &Spawns{Param: k}
		for _, s := range c.signalsOf(g, 0) {
			if j, ok := c.semParam(where{place: s, outside: true}, fn); ok && j != k && !slices.Contains(fact.Signals, j) {
				fact.Signals = append(fact.Signals, j)
			}
		}
		slices.Sort(fact.Signals)
		return fact, true
	}
	return nil, false
}

// semParam returns the index of the parameter of fn (not its receiver)
// that w is, itself rather than a field of it.
func (c *checker) semParam(w where, fn *ssa.Function) (int, bool) {
	p, ok := w.place.root.(*ssa.Parameter)
	if !ok || !w.outside || w.place.depth != 0 || p.Parent() != fn {
		return 0, false
	}
	k := indexOfParam(fn, p)
	if k == 0 && fn.Signature.Recv() != nil {
		return 0, false // the receiver's own semaphore is the helper's design, not the caller's to move
	}
	return k, true
}

// hasSpawningCall reports whether the package calls a function of
// another package that carries a Spawns fact.
func hasSpawningCall(pass *analysis.Pass, ins *inspector.Inspector, facts *spawnFacts) bool {
	found := false
	ins.Preorder([]ast.Node{(*ast.CallExpr)(nil)}, func(n ast.Node) {
		if !found {
			_, found = facts.of(typeutil.StaticCallee(pass.TypesInfo, n.(*ast.CallExpr)))
		}
	})
	return found
}

// checkSpawningCalls reports the calls in fn of another package's
// spawning helpers (Spawns facts) that run once per unit of work with a
// semaphore shared by the runs: each call starts a goroutine that parks
// at the helper's acquire, as a go statement in view would.
func (c *checker) checkSpawningCalls(fn *ssa.Function) {
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			call, ok := instr.(*ssa.Call)
			if !ok || call.Call.IsInvoke() {
				continue
			}
			callee := call.Call.StaticCallee()
			if callee == nil {
				continue
			}
			obj, _ := callee.Object().(*types.Func)
			fact, ok := c.spawns.of(obj)
			if !ok || fact.Param >= len(call.Call.Args) {
				continue
			}
			c.checkSpawningCall(fn, call, obj, fact)
		}
	}
}

func (c *checker) checkSpawningCall(fn *ssa.Function, call *ssa.Call, helper *types.Func, fact *Spawns) {
	if inModule(c.pass.Module, helper.Pkg().Path()) {
		return // analysed with this package, reported at its own acquire, where the fix belongs
	}
	site := spawn.Site{Instr: call, Kind: spawn.GoStmt}
	sp := c.spawnerOf(fn, site)
	sem := call.Call.Args[fact.Param]
	unit := c.unit(sp, site, c.resolve(sem, sp.frame))
	if unit == "" || len(c.takenBefore(sp.frame, call)) > 0 || c.givesBack(sp.frame, sem) {
		return // no burst, or one the caller admits itself, or refills
	}
	signalled := func(v ssa.Value) bool {
		return slices.ContainsFunc(fact.Signals, func(j int) bool {
			return j < len(call.Call.Args) && c.samePlace(v, sp.frame, call.Call.Args[j], sp.frame)
		})
	}
	if allPathsWait(call, func(instr ssa.Instruction) bool { return waitsOn(instr, signalled) }) {
		return // the caller waits for each goroutine before it starts the next
	}
	expr := c.callExprAt(call.Pos())
	if expr == nil {
		return
	}
	arg := fact.Param
	if helper.Signature().Recv() != nil {
		arg-- // the receiver is not among the syntax's arguments
	}
	if arg < 0 || arg >= len(expr.Args) {
		return
	}
	name := calleeName(helper, c.pass.Pkg)
	semText := types.ExprString(expr.Args[arg])
	format := func(units string) string {
		return fmt.Sprintf("%s starts a goroutine that waits on %s before doing any work; one goroutine parks per %s — acquire before the spawn, not in %s's goroutine",
			name, semText, units, name)
	}
	d := analysis.Diagnostic{Pos: expr.Pos(), End: expr.End(), Message: format(unit),
		Related: []analysis.RelatedInformation{{Pos: expr.Args[arg].Pos(), End: expr.Args[arg].End(), Message: "the semaphore " + name + " waits on"}}}
	c.findings.add(d, unit, format)
}

// inModule reports whether the package path belongs to module m (as
// far as its path says: a nested module counts as its parent's, which
// only silences). A nil module, or one without a path, holds nothing.
func inModule(m *analysis.Module, path string) bool {
	return m != nil && m.Path != "" && (path == m.Path || strings.HasPrefix(path, m.Path+"/"))
}

// givesBack reports whether fr's function gives a permit back to sem
// itself (a receive from it, a Release): the goroutines' acquires may
// then find room the caller made, not a burst's queue.
func (c *checker) givesBack(fr *frame, sem ssa.Value) bool {
	for _, b := range fr.fn.Blocks {
		for _, instr := range b.Instrs {
			if v := released(instr); v != nil && c.samePlace(v, fr, sem, fr) {
				return true
			}
		}
	}
	return false
}
