// Package borrow defines a non-reporting Analyzer that summarises which
// functions return memory borrowed from their parameters: a sub-slice or
// substring of an argument (bytes.TrimSpace, a user's field splitter), or
// a slice whose elements are such pieces (strings.Split). It also provides
// the intraprocedural tracer that computes those summaries, which the
// retainslice pass uses to follow pieces of a large buffer through a
// function.
//
// A summary is a fact on the function's *types.Func, so it reaches callers
// in other packages. The standard library's best-known borrowers (bytes,
// strings, regexp, bufio) come from a hand table instead, which is both
// cheaper and more precise than what the tracer would infer from their
// optimised bodies: strings.TrimSpace returns nearly all of its argument,
// not a small piece of it.
//
// Under go vet the analyzer runs on every dependency, the standard library
// included, so it first checks syntactically that the package declares a
// function taking and returning slices or strings, and builds SSA only
// then.
package borrow

import (
	"fmt"
	"go/ast"
	"go/types"
	"reflect"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/admitlint/admitlint/internal/lazyssa"
)

// Analyzer exports a *Fact for each function that returns borrowed memory
// and returns the package's *Summaries.
var Analyzer = &analysis.Analyzer{
	Name:       "borrow",
	Doc:        "summarise which functions return slices borrowed from their parameters",
	URL:        "https://pkg.go.dev/github.com/admitlint/admitlint/passes/retainslice/internal/borrow",
	Run:        run,
	Requires:   []*analysis.Analyzer{lazyssa.Analyzer},
	FactTypes:  []analysis.Fact{new(Fact)},
	ResultType: reflect.TypeFor[*Summaries](),
}

// A Borrow says that a function's result shares the backing array of one
// of its parameters.
type Borrow struct {
	Result uint8 // index of the result
	Param  uint8 // index of the parameter, the receiver being 0 for methods
	// Depth is 0 when the result itself aliases the parameter, 1 when its
	// elements do (a [][]byte of pieces), 2 when its elements' elements do.
	Depth uint8
	// Piece is set when the result may be a small part of the parameter
	// (a slice with a computed bound); otherwise it is all or nearly all of
	// it (the parameter itself, or trimmed), and a caller's piece stays a
	// piece and a whole buffer stays whole.
	Piece bool
}

func (b Borrow) String() string {
	kind := "same"
	if b.Piece {
		kind = "piece"
	}
	return fmt.Sprintf("r%d<-p%d:%s%s", b.Result, b.Param, kind, strings.Repeat("[]", int(b.Depth)))
}

// A Fact lists what a function's results borrow from its parameters.
type Fact struct {
	Borrows []Borrow
}

func (*Fact) AFact() {}

func (f *Fact) String() string {
	parts := make([]string, len(f.Borrows))
	for i, b := range f.Borrows {
		parts[i] = b.String()
	}
	return "borrows(" + strings.Join(parts, " ") + ")"
}

// Summaries answers, for the package being analysed, what any function it
// calls borrows: from the hand table, from facts of dependencies, or from
// summaries of the package's own functions.
type Summaries struct {
	local    map[*types.Func][]Borrow // this package's functions, computed in run
	imported map[*types.Func][]Borrow // facts of the dependencies' functions this package uses
}

// Of returns what fn's results borrow from its parameters, or nil.
func (s *Summaries) Of(fn *types.Func) []Borrow {
	if fn == nil {
		return nil
	}
	if b, ok := tableOf(fn); ok {
		return b
	}
	if b, ok := s.local[fn]; ok {
		return b
	}
	return s.imported[fn]
}

// Of returns the summaries computed for pass's package; pass's analyzer
// must require Analyzer.
func Of(pass *analysis.Pass) *Summaries {
	s, ok := pass.ResultOf[Analyzer].(*Summaries)
	if !ok {
		panic(fmt.Sprintf("internal error: analyzer %s does not require borrow", pass.Analyzer.Name))
	}
	return s
}

func run(pass *analysis.Pass) (_ any, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("internal error: borrow panicked on package %s: %v", pass.Pkg.Path(), r)
		}
	}()
	// Facts can be read only while the pass runs, so import, now, those
	// of every function the package uses that could borrow.
	s := &Summaries{local: map[*types.Func][]Borrow{}, imported: map[*types.Func][]Borrow{}}
	for _, obj := range pass.TypesInfo.Uses {
		fn, ok := obj.(*types.Func)
		if !ok || fn.Pkg() == pass.Pkg || !MayBorrow(fn.Signature()) {
			continue
		}
		var f Fact
		if pass.ImportObjectFact(fn, &f) {
			s.imported[fn] = f.Borrows
		}
	}
	candidates := candidates(pass)
	if len(candidates) == 0 {
		return s, nil
	}
	res, err := lazyssa.Of(pass).SSA()
	if err != nil {
		return nil, err
	}
	sum := &summarizer{s: s, prog: res.Pkg.Prog, pkg: pass.Pkg, busy: map[*types.Func]bool{}}
	for _, fn := range candidates {
		if b := sum.summarize(fn); len(b) > 0 {
			pass.ExportObjectFact(fn, &Fact{Borrows: b})
		}
	}
	return s, nil
}

// candidates returns the package's functions and methods, in source order,
// whose signature could borrow and which have a body.
func candidates(pass *analysis.Pass) []*types.Func {
	return Decls(pass, func(decl *ast.FuncDecl, fn *types.Func) bool {
		return MayBorrow(fn.Signature()) && bodyMayBorrow(pass.TypesInfo, decl)
	})
}

// Decls returns the package's functions and methods that have a body and
// are not generic (nor methods of a generic type), in source order, for
// which pred holds.
func Decls(pass *analysis.Pass, pred func(*ast.FuncDecl, *types.Func) bool) []*types.Func {
	var fns []*types.Func
	for _, file := range pass.Files {
		for _, decl := range file.Decls {
			decl, ok := decl.(*ast.FuncDecl)
			if !ok || decl.Body == nil || decl.Type.TypeParams != nil {
				continue
			}
			fn, ok := pass.TypesInfo.Defs[decl.Name].(*types.Func)
			if ok && !hasTypeParams(fn.Signature()) && pred(decl, fn) {
				fns = append(fns, fn)
			}
		}
	}
	return fns
}

// bodyMayBorrow reports whether decl's body could hand out memory of a
// parameter: it slices something, calls a function that could borrow,
// uses package unsafe, or returns a parameter as it is.
func bodyMayBorrow(info *types.Info, decl *ast.FuncDecl) bool {
	found := false
	ast.Inspect(decl.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.SliceExpr:
			found = true
		case *ast.SelectorExpr: // unsafe.String, unsafe.Pointer: a zero-copy conversion
			if id, ok := n.X.(*ast.Ident); ok {
				if pkg, ok := info.Uses[id].(*types.PkgName); ok && pkg.Imported().Path() == "unsafe" {
					found = true
				}
			}
		case *ast.CallExpr:
			if fn, ok := typeutil.Callee(info, n).(*types.Func); ok && MayBorrow(fn.Signature()) {
				found = true
			}
		case *ast.ReturnStmt:
			for _, r := range n.Results {
				if id, ok := ast.Unparen(r).(*ast.Ident); ok && isParam(info, decl, id) {
					found = true
				}
			}
		}
		return !found
	})
	return found
}

// isParam reports whether id refers to a parameter or the receiver of decl.
func isParam(info *types.Info, decl *ast.FuncDecl, id *ast.Ident) bool {
	obj := info.Uses[id]
	if obj == nil {
		return false
	}
	for _, list := range []*ast.FieldList{decl.Recv, decl.Type.Params} {
		if list == nil {
			continue
		}
		for _, field := range list.List {
			for _, name := range field.Names {
				if info.Defs[name] == obj {
					return true
				}
			}
		}
	}
	return false
}

// hasTypeParams reports whether sig is a method of a generic type.
func hasTypeParams(sig *types.Signature) bool {
	return sig.RecvTypeParams().Len() > 0 || sig.TypeParams().Len() > 0
}

// MayBorrow reports whether a function of signature sig could return
// memory of its parameters: some parameter (or the receiver) is a slice or
// a string, and so is some result.
func MayBorrow(sig *types.Signature) bool {
	if sig.Results().Len() == 0 {
		return false
	}
	param := sig.Recv() != nil && IsSliceOrString(sig.Recv().Type())
	for i := 0; !param && i < sig.Params().Len(); i++ {
		param = IsSliceOrString(sig.Params().At(i).Type())
	}
	if !param {
		return false
	}
	for i := 0; i < sig.Results().Len(); i++ {
		if IsSliceOrString(sig.Results().At(i).Type()) {
			return true
		}
	}
	return false
}

// IsSliceOrString reports whether t's underlying type is a slice or a
// string: the types whose values can share a backing array.
func IsSliceOrString(t types.Type) bool {
	switch u := t.Underlying().(type) {
	case *types.Slice:
		return true
	case *types.Basic:
		return u.Info()&types.IsString != 0
	}
	return false
}

// A summarizer computes the package's own summaries on demand, so a
// function's callees in the same package are summarised before it.
type summarizer struct {
	s    *Summaries
	prog *ssa.Program
	pkg  *types.Package
	busy map[*types.Func]bool // being summarised: recursion assumes no borrowing
}

// summarize returns, and records, what fn borrows.
func (m *summarizer) summarize(fn *types.Func) []Borrow {
	if b, ok := m.s.local[fn]; ok || m.busy[fn] {
		return b
	}
	m.busy[fn] = true
	defer delete(m.busy, fn)
	var borrows []Borrow
	if f := m.prog.FuncValue(fn); f != nil && f.Blocks != nil {
		borrows = m.borrowsOf(f)
	}
	m.s.local[fn] = borrows
	return borrows
}

// borrowsOf traces each slice or string parameter of f to f's returns.
func (m *summarizer) borrowsOf(f *ssa.Function) []Borrow {
	var borrows []Borrow
	for pi, p := range f.Params {
		if pi > 255 || !IsSliceOrString(p.Type()) {
			continue
		}
		seen := map[Borrow]bool{}
		Returned(f, Trace(f, p, State{Kind: Whole}, m.lookup), func(ri int, st State) {
			br := Borrow{Result: uint8(ri), Param: uint8(pi), Depth: st.Depth, Piece: st.Kind == Piece}
			if !seen[br] {
				seen[br] = true
				borrows = mergeBorrow(borrows, br)
			}
		})
	}
	return borrows
}

// Returned calls yield with the index and the state of each result of
// each return of f that is in states as a value (not an address), in
// block order; indexes above 255, which facts cannot hold, are skipped.
func Returned(f *ssa.Function, states map[ssa.Value]State, yield func(result int, st State)) {
	for _, b := range f.Blocks {
		ret, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return)
		if !ok {
			continue
		}
		for ri, r := range ret.Results {
			if st, ok := states[r]; ok && !st.Ptr && ri <= 255 {
				yield(ri, st)
			}
		}
	}
}

// mergeBorrow adds b to bs, a piece overriding a whole for the same result,
// parameter and depth.
func mergeBorrow(bs []Borrow, b Borrow) []Borrow {
	for i, x := range bs {
		if x.Result == b.Result && x.Param == b.Param && x.Depth == b.Depth {
			bs[i].Piece = x.Piece || b.Piece
			return bs
		}
	}
	return append(bs, b)
}

// lookup is the tracer's view of callees while summarising: the package's
// own functions are summarised first, on demand.
func (m *summarizer) lookup(fn *types.Func) []Borrow {
	if b, ok := tableOf(fn); ok {
		return b
	}
	if fn != nil && fn.Pkg() == m.pkg && MayBorrow(fn.Signature()) && !hasTypeParams(fn.Signature()) {
		return m.summarize(fn)
	}
	return m.s.Of(fn)
}
