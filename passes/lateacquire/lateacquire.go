package lateacquire

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/inspect"
	"golang.org/x/tools/go/ast/inspector"
	"golang.org/x/tools/go/ssa"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/admitlint/admitlint/internal/docs"
	"github.com/admitlint/admitlint/internal/harness"
	"github.com/admitlint/admitlint/internal/lazyssa"
	"github.com/admitlint/admitlint/internal/match"
	"github.com/admitlint/admitlint/internal/settings"
	"github.com/admitlint/admitlint/internal/spawn"
	"github.com/admitlint/admitlint/passes/lateacquire/internal/acquire"
	"github.com/admitlint/admitlint/passes/lateacquire/internal/lengths"
)

// Config is the pass's settings.
type Config struct {
	Funcs  []string `json:"funcs" help:"more functions that acquire a semaphore and return holding it, as importpath.Func or importpath.Type.Method"`
	Strict bool     `json:"strict" help:"also report non-blocking tries (TryAcquire, Allow, select with default) made first thing inside the goroutine"`
}

// Defaults returns the settings the pass starts from.
func Defaults() Config { return Config{} }

// Analyzer reports with the default settings.
var Analyzer = New(Defaults())

// New returns a lateacquire analyzer with its own copy of cfg, bound to its
// flags. The summary analyzer it requires shares the copy, since the
// functions the user names change which functions are wrappers.
func New(cfg Config) *analysis.Analyzer {
	c := &cfg
	summary := acquire.New(&c.Funcs)
	spawners := newSpawners(summary)
	a := &analysis.Analyzer{
		Name:     "lateacquire",
		Doc:      docs.MustExtract(doc, "lateacquire"),
		URL:      "https://pkg.go.dev/github.com/admitlint/admitlint/passes/lateacquire",
		Requires: []*analysis.Analyzer{inspect.Analyzer, lazyssa.Analyzer, summary, lengths.Analyzer, spawners},
		Run: func(pass *analysis.Pass) (any, error) {
			return run(pass, c, pass.ResultOf[summary].(*acquire.Summary), pass.ResultOf[spawners].(*spawnFacts))
		},
	}
	settings.Bind(&a.Flags, c)
	return harness.Wrap(a)
}

func run(pass *analysis.Pass, cfg *Config, summary *acquire.Summary, spawns *spawnFacts) (any, error) {
	ins := pass.ResultOf[inspect.Analyzer].(*inspector.Inspector)
	sites := spawn.HasCandidates(ins) && hasAcquireCandidate(pass, ins, summary)
	calls := hasSpawningCall(pass, ins, spawns)
	if !sites && !calls {
		return nil, nil
	}
	res, err := lazyssa.Of(pass).SSA()
	if err != nil {
		return nil, err
	}
	c := &checker{pass: pass, cfg: cfg, summary: summary, spawns: spawns, lengths: pass.ResultOf[lengths.Analyzer].(*lengths.Lengths), srcFuncs: res.SrcFuncs}
	for _, fn := range res.SrcFuncs {
		if sites {
			for _, site := range spawn.Sites(fn) {
				c.checkSite(fn, site)
			}
		}
		if calls {
			c.checkSpawningCalls(fn)
		}
	}
	c.findings.flush(pass)
	return nil, nil
}

// hasAcquireCandidate reports whether the package contains anything that
// can be an acquire: a channel operation, or a call of a semaphore or
// limiter method, of a wrapper or of a function the user named.
func hasAcquireCandidate(pass *analysis.Pass, ins *inspector.Inspector, summary *acquire.Summary) bool {
	found := false
	kinds := []ast.Node{(*ast.SendStmt)(nil), (*ast.UnaryExpr)(nil), (*ast.CallExpr)(nil)}
	ins.Preorder(kinds, func(n ast.Node) {
		if found {
			return
		}
		switch n := n.(type) {
		case *ast.SendStmt:
			found = true
		case *ast.UnaryExpr:
			found = n.Op == token.ARROW
		case *ast.CallExpr:
			found = isAcquireCall(pass.TypesInfo, n, summary)
		}
	})
	return found
}

// isAcquireCall reports whether call calls a semaphore, limiter or
// wrapper method that may wait or try for a permit.
func isAcquireCall(info *types.Info, call *ast.CallExpr, summary *acquire.Summary) bool {
	fn, ok := typeutil.Callee(info, call).(*types.Func)
	if !ok {
		return false
	}
	if match.IsMethod(fn, match.SemaphorePkg, "Weighted", "Acquire", "TryAcquire") ||
		match.IsMethod(fn, match.RatePkg, "Limiter", "Wait", "WaitN", "Allow", "AllowN") {
		return true
	}
	_, ok = summary.Of(fn)
	return ok
}

// A checker holds what one package's checks share.
type checker struct {
	pass     *analysis.Pass
	cfg      *Config
	summary  *acquire.Summary
	lengths  *lengths.Lengths
	srcFuncs []*ssa.Function
	spawns   *spawnFacts // nil while exporting them

	cycles   map[*ssa.Function][]bool           // memo: blocks on a cycle
	closures map[*ssa.Function]*ssa.MakeClosure // anonymous function -> the closure made of it
	findings findings                           // reports, merged by cause, printed at the end
}

// checkSite reports each acquire that is the first blocking act of the
// goroutine site starts, when the site runs once per unit of work and its
// runs share the semaphore.
func (c *checker) checkSite(fn *ssa.Function, site spawn.Site) {
	if site.Fn == nil || len(site.Fn.Blocks) == 0 {
		return // the goroutine's code is unknown, or not in this package
	}
	if site.Kind == spawn.ErrgroupGo && c.hasSetLimit(fn, site.Group) {
		return // with a limit, errgroup's Go waits for a slot before it spawns
	}
	sp := c.spawnerOf(fn, site)
	g := &frame{fn: site.Fn, bindings: site.Bindings, args: site.Args, parent: sp.frame, via: site.Instr, goroutine: true}
	acts := c.firstActs(g, 0)
	waits := slices.ContainsFunc(acts, func(a act) bool { return !a.try })
	var waited *bool // whether the spawner waits for the goroutine; computed once, if needed
	for _, a := range acts {
		if a.try && (waits || !c.cfg.Strict) {
			continue // a try is reported only with -strict, and only if the goroutine then does not wait
		}
		if idleAfter(a) {
			continue // nothing is done holding it: a signal of the goroutine's end, not a permit
		}
		w := c.resolve(a.sem, a.fr)
		if w.inGoroutine {
			continue // the goroutine's own semaphore, for its sub-work
		}
		unit := c.unit(sp, site, w)
		if unit == "" {
			continue
		}
		if waited == nil {
			w := c.waitsForGoroutine(site, g)
			waited = &w
		}
		if !*waited && !c.admitted(sp, site, g, a) && !c.refilled(sp, site, a) {
			c.report(site, sp, a, unit)
		}
	}
}

// hasSetLimit reports whether the errgroup group, used in fn, may have a
// limit: SetLimit is called on it in fn or, when fn did not make the group
// (it is a field, a parameter, a captured variable), anywhere in the
// package.
func (c *checker) hasSetLimit(fn *ssa.Function, group ssa.Value) bool {
	fr := &frame{fn: fn}
	made := !c.resolve(group, fr).outside
	for _, f := range c.srcFuncs {
		for _, b := range f.Blocks {
			for _, instr := range b.Instrs {
				call, ok := instr.(*ssa.Call)
				if !ok || !match.IsMethod(match.Callee(call), match.ErrgroupPkg, "Group", "SetLimit") {
					continue
				}
				if !made || (f == fn && c.samePlace(call.Call.Args[0], fr, group, fr)) {
					return true
				}
			}
		}
	}
	return false
}
