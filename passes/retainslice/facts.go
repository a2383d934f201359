package retainslice

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

	"github.com/admitlint/admitlint/internal/lazyssa"
	"github.com/admitlint/admitlint/internal/match"
	"github.com/admitlint/admitlint/passes/retainslice/internal/borrow"
)

// Fresh is a fact on a function that returns, whole, a large buffer it
// makes or reads itself (or gets from another such function): a call of
// it is a root for its caller, in any package, as a make in the caller
// would be. Which buffers count as large follows the run's flags, the
// same for every package of a run.
type Fresh struct {
	Results []Made
}

// Made describes one result of a Fresh function.
type Made struct {
	Result uint8  // index of the result
	Verb   string // how the buffer came to be: "allocated", "read"
	Size   string // "1 MiB", "unbounded", "sized from input"
}

func (*Fresh) AFact() {}

func (f *Fresh) String() string {
	parts := make([]string, len(f.Results))
	for i, m := range f.Results {
		parts[i] = fmt.Sprintf("r%d: %s %s", m.Result, m.Verb, m.Size)
	}
	return "fresh(" + strings.Join(parts, ", ") + ")"
}

// Keeps is a fact on a function that keeps a string or byte-slice
// parameter beyond the call: stores it (or appends it) into a field or
// element of another parameter (the receiver included) or into a
// global, or sends it on a channel one of those holds. A piece passed to
// it outlives its caller when that other parameter does.
type Keeps struct {
	Params []Kept
}

// Kept describes one parameter a Keeps function keeps. Parameter
// indexes count the receiver as 0 for methods, as SSA call arguments do.
type Kept struct {
	Param uint8
	Into  int8 // the parameter whose memory holds it, or -1 for a global
}

func (*Keeps) AFact() {}

func (f *Keeps) String() string {
	parts := make([]string, len(f.Params))
	for i, k := range f.Params {
		into := "global"
		if k.Into >= 0 {
			into = fmt.Sprintf("p%d", k.Into)
		}
		parts[i] = fmt.Sprintf("p%d->%s", k.Param, into)
	}
	return "keeps(" + strings.Join(parts, " ") + ")"
}

// newFactsAnalyzer returns the analyzer that exports Fresh and Keeps
// facts for a retainslice run with settings cfg, and gives the
// package's own (and imported) summaries to that run as its result.
func newFactsAnalyzer(cfg *Config) *analysis.Analyzer {
	return &analysis.Analyzer{
		Name:       "retainfacts",
		Doc:        "retainfacts: summarise the functions that return a large buffer they make or read, or keep a string or byte-slice parameter",
		URL:        "https://pkg.go.dev/github.com/admitlint/admitlint/passes/retainslice",
		Requires:   []*analysis.Analyzer{inspect.Analyzer, lazyssa.Analyzer, borrow.Analyzer},
		FactTypes:  []analysis.Fact{new(Fresh), new(Keeps)},
		ResultType: reflect.TypeFor[*factSet](),
		Run:        func(pass *analysis.Pass) (any, error) { return runFacts(pass, cfg) },
	}
}

// A factSet answers, for any function a package calls, which of its
// results are fresh large buffers.
type factSet struct {
	c        *checker // computes the package's own, on demand; nil without sources
	prog     *ssa.Program
	local    map[*types.Func][]Made
	busy     map[*types.Func]bool // being computed: recursion assumes nothing fresh
	imported map[*types.Func][]Made

	keeps map[*types.Func][]Kept // the package's own and imported

	// sources: the package holds a candidate root (hasSources) or calls
	// a Fresh function of another package; without one it gets no SSA
	// for retainslice's checks.
	sources bool
}

func runFacts(pass *analysis.Pass, cfg *Config) (_ any, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("internal error: retainfacts panicked on package %s: %v", pass.Pkg.Path(), r)
		}
	}()
	fs := &factSet{local: map[*types.Func][]Made{}, busy: map[*types.Func]bool{}, imported: map[*types.Func][]Made{}, keeps: map[*types.Func][]Kept{}}
	for _, obj := range pass.TypesInfo.Uses {
		fn, ok := obj.(*types.Func)
		if !ok || fn.Pkg() == pass.Pkg {
			continue
		}
		var f Fresh
		if returnsBuffer(fn.Signature()) && pass.ImportObjectFact(fn, &f) {
			fs.imported[fn] = f.Results
		}
		var k Keeps
		if pass.ImportObjectFact(fn, &k) {
			fs.keeps[fn] = k.Params
		}
	}
	keepers := keepCandidates(pass)
	fs.sources = len(fs.imported) > 0 || hasSources(pass, pass.ResultOf[inspect.Analyzer].(*inspector.Inspector), cfg)
	if !fs.sources && len(keepers) == 0 {
		return fs, nil
	}
	res, err := lazyssa.Of(pass).SSA()
	if err != nil {
		return nil, err
	}
	fs.c, fs.prog = newChecker(pass, cfg, borrow.Of(pass)), res.Pkg.Prog
	fs.c.fresh = fs
	for _, obj := range keepers {
		if f := fs.prog.FuncValue(obj); f != nil && f.Blocks != nil {
			if kept := fs.c.keptBy(f); len(kept) > 0 {
				fs.keeps[obj] = kept
				pass.ExportObjectFact(obj, &Keeps{Params: kept})
			}
		}
	}
	if !fs.sources {
		return fs, nil
	}
	for _, fn := range res.SrcFuncs {
		obj, ok := fn.Object().(*types.Func)
		if !ok || fn.TypeParams().Len() > 0 || !returnsBuffer(obj.Signature()) {
			continue
		}
		if made := fs.of(obj); len(made) > 0 {
			pass.ExportObjectFact(obj, &Fresh{Results: made})
		}
	}
	return fs, nil
}

// of returns the fresh results of fn, computing them for the package's
// own functions.
func (fs *factSet) of(fn *types.Func) []Made {
	if fn == nil {
		return nil
	}
	if made, ok := fs.imported[fn]; ok {
		return made
	}
	if made, ok := fs.local[fn]; ok || fs.busy[fn] || fs.c == nil || fn.Pkg() != fs.c.pass.Pkg {
		return made
	}
	fs.busy[fn] = true
	defer delete(fs.busy, fn)
	var made []Made
	if sf := fs.prog.FuncValue(fn); sf != nil && sf.Blocks != nil && sf.TypeParams().Len() == 0 {
		made = fs.c.madeBy(sf)
	}
	fs.local[fn] = made
	return made
}

// madeBy returns the results of fn that are one of its roots, whole, on
// some path: fn hands a large buffer it made to its caller.
func (c *checker) madeBy(fn *ssa.Function) []Made {
	var made []Made
	seen := map[uint8]bool{}
	roots := c.roots(fn)
	for i := 0; i < len(roots); i++ {
		states := borrow.Trace(fn, roots[i].v, borrow.State{Kind: borrow.Whole}, c.sums.Of)
		roots = append(roots, c.conversions(fn, roots[i], states)...)
		borrow.Returned(fn, states, func(ri int, st borrow.State) {
			if !seen[uint8(ri)] && st.Kind == borrow.Whole && st.Depth == 0 {
				seen[uint8(ri)] = true
				made = append(made, Made{Result: uint8(ri), Verb: roots[i].verb, Size: roots[i].size})
			}
		})
	}
	return made
}

// helperRoots returns the roots a call of a Fresh function makes in the
// caller: its fresh results.
func (c *checker) helperRoots(call *ssa.Call) []*root {
	if c.fresh == nil {
		return nil
	}
	fn := match.Callee(call)
	var roots []*root
	for _, m := range c.fresh.of(fn) {
		if v := extract(call, int(m.Result)); v != nil {
			name := fn.Name()
			if fn.Pkg() != c.pass.Pkg {
				name = fn.Pkg().Name() + "." + name
			}
			roots = append(roots, &root{v: v, how: name, verb: m.Verb + " by " + name, size: m.Size, pos: call.Pos()})
		}
	}
	return roots
}

// returnsBuffer reports whether a function of signature sig returns a
// slice or a string: only then can it hand out a buffer.
func returnsBuffer(sig *types.Signature) bool {
	for i := 0; i < sig.Results().Len(); i++ {
		if borrow.IsSliceOrString(sig.Results().At(i).Type()) {
			return true
		}
	}
	return false
}

// factsOf returns the factSet computed for pass's package.
func factsOf(pass *analysis.Pass) *factSet {
	for _, req := range pass.Analyzer.Requires {
		if fs, ok := pass.ResultOf[req].(*factSet); ok {
			return fs
		}
	}
	panic("internal error: retainslice does not require retainfacts")
}

// keepCandidates returns the package's functions, in source order, that
// may keep a string or byte-slice parameter: the parameter's name
// appears in a send, or on the right of an assignment to something other
// than a local variable (a field, an element, a global). Only those get
// traced, so a package of plain setters of other types, or of none,
// costs no SSA.
func keepCandidates(pass *analysis.Pass) []*types.Func {
	return borrow.Decls(pass, func(decl *ast.FuncDecl, _ *types.Func) bool {
		params := bufferParams(pass.TypesInfo, decl)
		return len(params) > 0 && mayKeep(pass, decl.Body, params)
	})
}

// bufferParams returns decl's parameters (receiver included) of string
// or byte-slice type.
func bufferParams(info *types.Info, decl *ast.FuncDecl) map[types.Object]bool {
	params := map[types.Object]bool{}
	for _, list := range []*ast.FieldList{decl.Recv, decl.Type.Params} {
		if list == nil {
			continue
		}
		for _, field := range list.List {
			for _, name := range field.Names {
				if obj := info.Defs[name]; obj != nil && isStringOrBytes(obj.Type()) {
					params[obj] = true
				}
			}
		}
	}
	return params
}

// mayKeep reports whether body sends one of params, or assigns an
// expression mentioning one to something other than a local variable.
func mayKeep(pass *analysis.Pass, body *ast.BlockStmt, params map[types.Object]bool) bool {
	mentions := func(e ast.Expr) bool {
		found := false
		ast.Inspect(e, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok && params[pass.TypesInfo.Uses[id]] {
				found = true
			}
			return !found
		})
		return found
	}
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.SendStmt:
			found = found || mentions(n.Value)
		case *ast.AssignStmt:
			for _, lhs := range n.Lhs {
				if !isLocalVar(pass, lhs) {
					for _, rhs := range n.Rhs {
						found = found || mentions(rhs)
					}
					if ix, ok := ast.Unparen(lhs).(*ast.IndexExpr); ok {
						found = found || mentions(ix.Index) // a map key
					}
				}
			}
		}
		return !found
	})
	return found
}

// isLocalVar reports whether e names a variable local to a function.
func isLocalVar(pass *analysis.Pass, e ast.Expr) bool {
	id, ok := ast.Unparen(e).(*ast.Ident)
	if !ok {
		return false
	}
	obj := pass.TypesInfo.ObjectOf(id)
	return obj == nil || obj.Parent() != pass.Pkg.Scope()
}

// keptBy returns the string and byte-slice parameters fn keeps, each
// with where: into a global if it ever is, else into the first
// parameter whose memory holds it.
func (c *checker) keptBy(fn *ssa.Function) []Kept {
	var kept []Kept
	for pi, p := range fn.Params {
		if pi > 127 || !isStringOrBytes(p.Type()) {
			continue
		}
		states := borrow.Trace(fn, p, borrow.State{Kind: borrow.Piece}, c.sums.Of)
		found, into := false, int8(0)
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				for _, to := range keptAt(instr, states) {
					k, ok := anchor(fn, to)
					if !ok || k == int8(pi) {
						continue
					}
					if !found || k < into { // a global (-1) first, else the first parameter
						found, into = true, k
					}
				}
			}
		}
		if found {
			kept = append(kept, Kept{Param: uint8(pi), Into: into})
		}
	}
	return kept
}

// keptAt returns the memory or channels instr puts a traced value into:
// the address of a store, the map of an update, the channel of a send.
func keptAt(instr ssa.Instruction, states map[ssa.Value]borrow.State) []ssa.Value {
	traced := func(v ssa.Value) bool {
		st, ok := states[v]
		return ok && !st.Ptr
	}
	switch instr := instr.(type) {
	case *ssa.Store:
		if traced(instr.Val) {
			return []ssa.Value{instr.Addr}
		}
	case *ssa.MapUpdate:
		if traced(instr.Key) || traced(instr.Value) {
			return []ssa.Value{instr.Map}
		}
	case *ssa.Send:
		if traced(instr.X) {
			return []ssa.Value{instr.Chan}
		}
	case *ssa.Select:
		var chans []ssa.Value
		for _, st := range instr.States {
			if st.Dir == types.SendOnly && traced(st.Send) {
				chans = append(chans, st.Chan)
			}
		}
		return chans
	}
	return nil
}

// anchor returns what holds the memory or channel v denotes beyond fn:
// the index of a parameter of fn whose field or element it is (or that
// it is), or -1 for a global. Memory of fn's own making is no anchor:
// whether it outlives fn depends on fn's callers.
func anchor(fn *ssa.Function, v ssa.Value) (int8, bool) {
	for range 16 {
		switch x := v.(type) {
		case *ssa.Global:
			return -1, true
		case *ssa.Parameter:
			i := slices.Index(fn.Params, x)
			return int8(i), i >= 0 && i <= 127
		}
		if v = holder(v); v == nil {
			return 0, false
		}
	}
	return 0, false
}

// keptSink returns the sink a call makes of v when its callee keeps the
// parameter v is passed as, into memory that outlives the caller.
func (c *checker) keptSinks(call *ssa.Call, v ssa.Value) []sink {
	if c.fresh == nil || call.Call.IsInvoke() {
		return nil
	}
	var sinks []sink
	args := call.Call.Args
	for _, k := range c.fresh.keeps[match.Callee(call)] {
		if int(k.Param) >= len(args) || args[k.Param] != v {
			continue
		}
		if k.Into < 0 || (int(k.Into) < len(args) && c.outlivesNow(args[k.Into])) {
			sinks = append(sinks, sink{kind: passed, instr: call, index: int(k.Param)})
		}
	}
	return sinks
}

// isStringOrBytes reports whether t's underlying type is string or a
// slice of bytes: what a piece of a buffer is.
func isStringOrBytes(t types.Type) bool {
	return isString(t) || isByteSlice(t)
}
