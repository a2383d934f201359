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
//     and which has no default; (*semaphore.Weighted).Acquire;
//     (*rate.Limiter).Wait or WaitN; a call of another such function; or a
//     call of a function the user named;
//   - it is taken on the receiver, a parameter or a package-level variable
//     (something that outlives the call), exactly once, outside any loop;
//   - nothing else in the function waits or works: every other call is
//     bookkeeping (match.IsBookkeeping), there is no other channel
//     operation, no function literal (a deferred release is one) and no go
//     statement.
package acquire

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"reflect"

	"golang.org/x/tools/go/analysis"
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
	released := releasedChans(pass)
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
			if f, ok := s.wrapper(d, fn, released); ok {
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

// releasedChans returns the channel variables and fields that some code
// in the package receives from and discards, as a semaphore's release
// does: "<-p.sem" as a statement or a select case.
func releasedChans(pass *analysis.Pass) map[types.Object]bool {
	released := map[types.Object]bool{}
	for _, f := range pass.Files {
		ast.Inspect(f, func(n ast.Node) bool {
			if stmt, ok := n.(*ast.ExprStmt); ok {
				if recv, ok := ast.Unparen(stmt.X).(*ast.UnaryExpr); ok && recv.Op == token.ARROW {
					if obj := chanObject(pass.TypesInfo, recv.X); obj != nil {
						released[obj] = true
					}
				}
			}
			return true
		})
	}
	return released
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
