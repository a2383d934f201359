// Package acquire defines a non-reporting Analyzer that summarises which
// functions of a package acquire a semaphore on their caller's behalf: they
// wait for a permit and return holding it, leaving the release to the
// caller. Such a function is an acquire wherever it is called, in this
// package or (through analysis facts) in any package that imports it:
//
//	func (p *pool) acquire(ctx context.Context) error {
//		select {
//		case p.sem <- struct{}{}: // a permit on the receiver's channel...
//			return nil
//		case <-ctx.Done():
//			return ctx.Err()
//		}
//	} // ...held on return: acquire(chan on argument 0, select)
//
// The summary is syntactic and deliberately narrow, so that it is cheap
// enough to run on every dependency (the standard library included) and
// never calls a function that does work an acquire:
//
//   - the permit is one of: a send on a channel that some code in the same
//     package receives from and discards (the release), alone or in a
//     select whose other cases only receive (ctx.Done(), a quit channel)
//     and which has no default; a receive from a token channel (one the
//     package fills with tokens by a counting loop where it makes it, and
//     gives tokens back to with a send), alone or in such a select;
//     (*semaphore.Weighted).Acquire;
//     (*rate.Limiter).Wait or WaitN; a call of another such function; or a
//     call of a function the user named;
//   - it is taken on the receiver, a parameter or a package-level variable
//     (something that outlives the call), exactly once, outside any loop;
//   - nothing else in the function waits or works: every other call is
//     bookkeeping (match.IsBookkeeping, or a read of a rate.Limiter's
//     state such as Tokens), there is no other channel
//     operation, no function literal (a deferred release is one) and no go
//     statement.
package acquire

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"reflect"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/types/typeutil"
)

// Kind says what a function acquires.
type Kind uint8

const (
	Chan     Kind = iota + 1 // a send on a channel used as a semaphore
	Weighted                 // (*semaphore.Weighted).Acquire
	Limiter                  // (*rate.Limiter).Wait or WaitN
	Named                    // a function named by the user
)

func (k Kind) String() string {
	switch k {
	case Chan:
		return "chan"
	case Weighted:
		return "weighted"
	case Limiter:
		return "limiter"
	case Named:
		return "named"
	}
	return "?"
}

// A Fact marks a function that waits for a permit and returns holding it.
type Fact struct {
	Kind Kind
	// On is what the permit is taken on: -1 for a package-level variable,
	// otherwise the index of the call's argument, a method's receiver
	// being argument 0.
	On int
	// Select is set when the wait is a select that also gives up on
	// another channel, such as ctx.Done().
	Select bool
}

func (*Fact) AFact() {}

func (f *Fact) String() string {
	on := "global"
	if f.On >= 0 {
		on = fmt.Sprintf("argument %d", f.On)
	}
	sel := ""
	if f.Select {
		sel = ", select"
	}
	return fmt.Sprintf("acquire(%s on %s%s)", f.Kind, on, sel)
}

// New returns a summary analyzer. named points at the functions the user
// declared to be acquires, as "importpath.Func" or
// "importpath.Type.Method"; it is read when the analyzer runs, so a flag
// bound to it takes effect.
func New(named *[]string) *analysis.Analyzer {
	return &analysis.Analyzer{
		Name:       "acquire",
		Doc:        "acquire: summarise the functions that wait for a semaphore permit and return holding it",
		URL:        "https://pkg.go.dev/github.com/admitlint/admitlint/passes/lateacquire/internal/acquire",
		Run:        func(pass *analysis.Pass) (any, error) { return run(pass, *named) },
		FactTypes:  []analysis.Fact{new(Fact)},
		ResultType: reflect.TypeFor[*Summary](),
	}
}

// A Summary answers, for any function a package calls, whether it is an
// acquire.
type Summary struct {
	pass  *analysis.Pass
	named []string
	local map[*types.Func]Fact
	sems  map[types.Object]bool // the package's channel semaphores: see semaphoreChans
	toks  map[types.Object]bool // the package's token channels: see semaphoreChans
	made  map[types.Object]bool // channel variables and fields the package makes: whether always with room
}

// Room reports whether the package makes the channel variable or field
// obj (known), and if so whether always with room for permits.
func (s *Summary) Room(obj types.Object) (room, known bool) {
	room, known = s.made[obj]
	return room, known
}

// IsSemaphore reports whether obj, a channel variable or field of the
// package, is made buffered and given back with a receive: a semaphore.
func (s *Summary) IsSemaphore(obj types.Object) bool {
	return obj != nil && s.sems[obj]
}

// isToken reports whether obj, a channel variable or field of the
// package, is made buffered, filled with tokens where it is made, and
// given tokens back with a send: a semaphore of the token form.
func (s *Summary) isToken(obj types.Object) bool {
	return obj != nil && s.toks[obj]
}

// Of returns the acquire fact of fn, if it has one: from the user's list,
// from this package's summary or from fn's package.
func (s *Summary) Of(fn *types.Func) (Fact, bool) {
	if fn == nil || fn.Pkg() == nil {
		return Fact{}, false
	}
	fn = fn.Origin()
	for _, name := range s.named {
		if isNamed(fn, name) {
			on := -1
			if fn.Signature().Recv() != nil {
				on = 0
			}
			return Fact{Kind: Named, On: on}, true
		}
	}
	if fn.Pkg() == s.pass.Pkg {
		f, ok := s.local[fn]
		return f, ok
	}
	var f Fact
	if s.pass.ImportObjectFact(fn, &f) {
		return f, true
	}
	return Fact{}, false
}

// isNamed reports whether fn is the function spelled name, as
// "importpath.Func" or "importpath.Type.Method" (the receiver's type
// without a star).
func isNamed(fn *types.Func, name string) bool {
	path := fn.Pkg().Path()
	if len(name) <= len(path)+1 || name[:len(path)] != path || name[len(path)] != '.' {
		return false
	}
	rest := name[len(path)+1:]
	recv := fn.Signature().Recv()
	if recv == nil {
		return rest == fn.Name()
	}
	t := types.Unalias(recv.Type())
	if ptr, ok := t.(*types.Pointer); ok {
		t = types.Unalias(ptr.Elem())
	}
	named, ok := t.(*types.Named)
	if !ok {
		return false
	}
	tn := named.Origin().Obj().Name()
	return len(rest) == len(tn)+1+len(fn.Name()) && rest[:len(tn)] == tn && rest[len(tn)] == '.' && rest[len(tn)+1:] == fn.Name()
}

func run(pass *analysis.Pass, named []string) (any, error) {
	s := &Summary{pass: pass, named: named, local: map[*types.Func]Fact{}}
	s.sems, s.toks, s.made = semaphoreChans(pass)
	var decls []*ast.FuncDecl
	for _, f := range pass.Files {
		for _, d := range f.Decls {
			if d, ok := d.(*ast.FuncDecl); ok && d.Body != nil {
				decls = append(decls, d)
			}
		}
	}
	// A wrapper of a wrapper is found in a later round than the wrapper
	// it calls; chains in one package are short.
	for round := 0; round < 4; round++ {
		changed := false
		for _, d := range decls {
			fn, ok := pass.TypesInfo.Defs[d.Name].(*types.Func)
			if !ok {
				continue
			}
			if _, done := s.local[fn]; done {
				continue
			}
			if f, ok := s.wrapper(d, fn); ok {
				s.local[fn] = f
				changed = true
			}
		}
		if !changed {
			break
		}
	}
	for _, d := range decls { // export in source order, for deterministic output
		if fn, ok := pass.TypesInfo.Defs[d.Name].(*types.Func); ok {
			if f, ok := s.local[fn]; ok {
				pass.ExportObjectFact(fn, &f)
			}
		}
	}
	return s, nil
}

// semaphoreChans returns the channel variables and fields the package
// uses as semaphores: it makes each with a capacity that is not zero
// (make(chan struct{}, n)), never without one, and some code gives a
// permit back with a receive that discards the value, once, outside any
// loop of its function ("<-p.sem" as a statement, deferred or not). An
// unbuffered channel hands values over between goroutines, and a loop
// that takes every value (a counter of running handlers) is no release.
//
// It also returns the token channels: made with room as above, filled
// with tokens by a counting loop (for i := 0; i < n; i++, for range n) in
// the function that makes them, and given a token back by a send made
// once, outside any loop. A loop over data that fills a channel queues
// that data: its receivers take jobs, not permits.
//
// A channel the package closes is neither: closing lets every waiter
// through at once (a once gate, a shutdown signal).
//
// It also returns, for every channel variable and field the package
// makes, whether it always makes it with room (never for one it closes).
func semaphoreChans(pass *analysis.Pass) (sems, toks, made map[types.Object]bool) {
	info := pass.TypesInfo
	released := map[types.Object]bool{}
	returned := map[types.Object]bool{} // a send outside any loop
	filled := map[types.Object]bool{}   // sent on in a counting loop of the function that makes it
	var madeHere, countedSends map[types.Object]bool
	closed := map[types.Object]bool{}
	buffered := map[types.Object]bool{}
	unbuffered := map[types.Object]bool{}
	record := func(obj types.Object, e ast.Expr) {
		if obj == nil {
			return
		}
		if n, ok := makeCap(info, e); ok {
			if n {
				buffered[obj] = true
				madeHere[obj] = true
			} else {
				unbuffered[obj] = true
			}
		}
	}
	var walk func(n ast.Node, inLoop, counting bool)
	walk = func(n ast.Node, inLoop, counting bool) {
		ast.Inspect(n, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.FuncLit:
				walk(n.Body, false, false)
				return false
			case *ast.ForStmt:
				walk(n.Body, true, !inLoop && n.Cond != nil)
				return false
			case *ast.RangeStmt:
				walk(n.Body, true, !inLoop && isIntRange(info, n))
				return false
			case *ast.SendStmt:
				if obj := chanObject(info, n.Chan); obj != nil {
					switch {
					case !inLoop:
						returned[obj] = true
					case counting:
						countedSends[obj] = true
					}
				}
			case *ast.ExprStmt:
				if recv, ok := ast.Unparen(n.X).(*ast.UnaryExpr); ok && recv.Op == token.ARROW && !inLoop {
					if obj := chanObject(info, recv.X); obj != nil {
						released[obj] = true
					}
				}
			case *ast.CallExpr:
				if id, ok := ast.Unparen(n.Fun).(*ast.Ident); ok && id.Name == "close" && len(n.Args) == 1 {
					if _, builtin := info.Uses[id].(*types.Builtin); builtin {
						if obj := chanObject(info, n.Args[0]); obj != nil {
							closed[obj] = true
						}
					}
				}
			case *ast.AssignStmt:
				if len(n.Lhs) == len(n.Rhs) {
					for i, lhs := range n.Lhs {
						record(varOf(info, lhs), n.Rhs[i])
					}
				}
			case *ast.ValueSpec:
				if len(n.Names) == len(n.Values) {
					for i, name := range n.Names {
						record(info.Defs[name], n.Values[i])
					}
				}
			case *ast.KeyValueExpr:
				if key, ok := n.Key.(*ast.Ident); ok {
					if field, ok := info.Uses[key].(*types.Var); ok && field.IsField() {
						record(field.Origin(), n.Value)
					}
				}
			}
			return true
		})
	}
	for _, f := range pass.Files {
		for _, d := range f.Decls {
			madeHere, countedSends = map[types.Object]bool{}, map[types.Object]bool{}
			walk(d, false, false)
			for obj := range countedSends {
				if madeHere[obj] {
					filled[obj] = true
				}
			}
		}
	}
	sems, toks, made = map[types.Object]bool{}, map[types.Object]bool{}, map[types.Object]bool{}
	for obj := range released {
		if buffered[obj] && !unbuffered[obj] {
			sems[obj] = true
		}
	}
	for obj := range filled {
		if returned[obj] && buffered[obj] && !unbuffered[obj] && !closed[obj] {
			// Filled with tokens, its receive takes one and its send
			// gives it back: not a semaphore of the send form.
			toks[obj] = true
			delete(sems, obj)
		}
	}
	for obj := range buffered {
		made[obj] = !unbuffered[obj]
	}
	for obj := range unbuffered {
		made[obj] = false
	}
	for obj := range closed {
		// Closing lets every waiter through at once, now and later: a
		// gate or a signal, not a permit.
		delete(sems, obj)
		delete(toks, obj)
		if _, ok := made[obj]; ok {
			made[obj] = false
		}
	}
	return sems, toks, made
}

// isIntRange reports whether r ranges over an integer: for range n.
func isIntRange(info *types.Info, r *ast.RangeStmt) bool {
	b, ok := info.TypeOf(r.X).Underlying().(*types.Basic)
	return ok && b.Info()&types.IsInteger != 0
}

// makeCap reports whether e is make(chan T, …), and if so whether it has
// room: a capacity that is not the constant zero.
func makeCap(info *types.Info, e ast.Expr) (buffered, ok bool) {
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok || len(call.Args) == 0 {
		return false, false
	}
	if b, ok := typeutil.Callee(info, call).(*types.Builtin); !ok || b.Name() != "make" {
		return false, false
	}
	if _, ok := info.TypeOf(call.Args[0]).Underlying().(*types.Chan); !ok {
		return false, false
	}
	if len(call.Args) < 2 {
		return false, true
	}
	if tv, ok := info.Types[call.Args[1]]; ok && tv.Value != nil {
		return constant.Sign(tv.Value) > 0, true
	}
	return true, true // a size computed at run time: made to hold permits
}

// varOf returns the variable or field an assignment's left-hand side
// denotes, declared there or not.
func varOf(info *types.Info, e ast.Expr) types.Object {
	if id, ok := ast.Unparen(e).(*ast.Ident); ok {
		if v, ok := info.Defs[id].(*types.Var); ok {
			return v
		}
	}
	return chanObject(info, e)
}

// chanObject returns the variable or field an expression such as sem,
// p.sem or pkg.Sem denotes, or nil.
func chanObject(info *types.Info, e ast.Expr) types.Object {
	switch e := ast.Unparen(e).(type) {
	case *ast.Ident:
		if v, ok := info.Uses[e].(*types.Var); ok {
			return v.Origin()
		}
	case *ast.SelectorExpr:
		if v, ok := info.Uses[e.Sel].(*types.Var); ok {
			return v.Origin()
		}
	}
	return nil
}
