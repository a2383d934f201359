// Package spawn finds, in SSA, the places that start goroutines: go
// statements, (*errgroup.Group).Go and TryGo, and (*sync.WaitGroup).Go;
// and resolves the function each goroutine runs, with the values it
// captured.
package spawn

import (
	"go/ast"

	"golang.org/x/tools/go/ast/inspector"
	"golang.org/x/tools/go/ssa"

	"github.com/admitlint/admitlint/internal/match"
)

// Kind says how a goroutine is started.
type Kind int

const (
	GoStmt      Kind = iota // go f(…)
	ErrgroupGo              // (*errgroup.Group).Go(f) or TryGo(f)
	WaitGroupGo             // (*sync.WaitGroup).Go(f)
)

func (k Kind) String() string {
	switch k {
	case ErrgroupGo:
		return "errgroup Go"
	case WaitGroupGo:
		return "WaitGroup.Go"
	}
	return "go statement"
}

// A Site is one place that starts a goroutine.
type Site struct {
	Instr ssa.CallInstruction // the *ssa.Go, or the *ssa.Call of a Go method
	Kind  Kind

	// Fn is the function the goroutine runs, when it is known: a function
	// literal, a named function or a method. For a method value (go t.m())
	// it is the method itself, not its bound-method wrapper. Nil for a
	// call through a function value or an interface.
	Fn *ssa.Function

	// Bindings are the values Fn's free variables capture (parallel to
	// Fn.FreeVars), for a closure; Args are the arguments of the call the
	// goroutine makes (receiver first, for a method).
	Bindings []ssa.Value
	Args     []ssa.Value

	// Group is the errgroup.Group or sync.WaitGroup whose Go method starts
	// the goroutine; nil for a go statement.
	Group ssa.Value
}

// HasCandidates reports whether the files contain a go statement or a
// call of a method named Go or TryGo: the cheap syntactic test passes run
// before asking for SSA.
func HasCandidates(ins *inspector.Inspector) bool {
	found := false
	ins.Preorder([]ast.Node{(*ast.GoStmt)(nil), (*ast.CallExpr)(nil)}, func(n ast.Node) {
		if found {
			return
		}
		switch n := n.(type) {
		case *ast.GoStmt:
			found = true
		case *ast.CallExpr:
			if sel, ok := ast.Unparen(n.Fun).(*ast.SelectorExpr); ok && (sel.Sel.Name == "Go" || sel.Sel.Name == "TryGo") {
				found = true
			}
		}
	})
	return found
}

// Sites returns the goroutine starts in fn's body, in instruction order.
// It does not descend into fn's anonymous functions: they are functions
// of their own.
func Sites(fn *ssa.Function) []Site {
	var sites []Site
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			if s, ok := siteOf(instr); ok {
				sites = append(sites, s)
			}
		}
	}
	return sites
}

// siteOf returns the site instr is, if it starts a goroutine.
func siteOf(instr ssa.Instruction) (Site, bool) {
	switch instr := instr.(type) {
	case *ssa.Go:
		s := Site{Instr: instr, Kind: GoStmt}
		s.resolve(instr.Call.Value, instr.Call.Args)
		if instr.Call.IsInvoke() {
			s.Fn = nil
		}
		return s, true
	case *ssa.Call:
		callee := match.Callee(instr)
		var kind Kind
		switch {
		case match.IsMethod(callee, match.ErrgroupPkg, "Group", "Go", "TryGo"):
			kind = ErrgroupGo
		case match.IsMethod(callee, "sync", "WaitGroup", "Go"):
			kind = WaitGroupGo
		default:
			return Site{}, false
		}
		args := instr.Call.Args
		if len(args) != 2 {
			return Site{}, false
		}
		s := Site{Instr: instr, Kind: kind, Group: args[0]}
		s.resolve(args[1], nil)
		return s, true
	}
	return Site{}, false
}

// resolve sets Fn, Bindings and Args from the function value v the
// goroutine calls with args.
func (s *Site) resolve(v ssa.Value, args []ssa.Value) {
	s.Args = args
	switch v := v.(type) {
	case *ssa.Function:
		s.Fn = Body(v)
	case *ssa.MakeClosure:
		fn := v.Fn.(*ssa.Function)
		if method := BoundMethod(fn); method != nil {
			// go t.m(args): the wrapper captures t and calls m(t, args).
			s.Fn, s.Args = Body(method), append(append([]ssa.Value(nil), v.Bindings...), args...)
			return
		}
		s.Fn, s.Bindings = fn, v.Bindings
	}
}

// Body returns the function whose code a call of fn runs: fn itself, or
// for an instance of a generic function (emitN[int]) its generic origin.
// Without ssa.InstantiateGenerics an instance's body is a wrapper with
// no positions that converts its arguments and calls the origin, which
// takes them one for one; the origin holds the sends and their lines.
// An origin built from export data (another package's) has no body and
// is left to that package's facts, as fn would be.
func Body(fn *ssa.Function) *ssa.Function {
	if o := fn.Origin(); o != nil && len(o.Blocks) > 0 {
		return o
	}
	return fn
}

// BoundMethod returns the method a bound-method wrapper (the function of
// a method value such as t.m) calls, or nil if fn is not such a wrapper.
// The wrapper has no position of its own: passes that follow a value
// into it look through it to the method, whose receiver is the
// wrapper's one free variable.
func BoundMethod(fn *ssa.Function) *ssa.Function {
	if fn == nil || fn.Synthetic == "" || len(fn.FreeVars) != 1 || len(fn.Blocks) == 0 {
		return nil
	}
	for _, instr := range fn.Blocks[0].Instrs {
		if call, ok := instr.(*ssa.Call); ok && !call.Call.IsInvoke() {
			if callee, ok := call.Call.Value.(*ssa.Function); ok && callee.Signature.Recv() != nil {
				return callee
			}
		}
	}
	return nil
}
