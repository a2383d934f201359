// Package lengths defines a non-reporting Analyzer that marks the
// functions returning a length: the body is one statement, return len(x),
// of a slice, map, channel or string x the function reads (func (q
// *Queue) Len() int { return len(q.items) }). A loop that counts
// up to such a call, in this package or (through analysis facts) in any
// package importing it, counts elements of data, as a loop up to len(x)
// does: the input decides it.
//
// The summary is syntactic, one statement deep, and cheap enough to run on
// every dependency: a function whose returns give anything else (a field
// holding a configured count, a sum, a constant on some path) is no
// length.
package lengths

import (
	"fmt"
	"go/ast"
	"go/types"
	"reflect"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/types/typeutil"
)

// A Fact marks a function whose body is return len(x).
type Fact struct {
	Of string // x, as the function writes it (q.items)
}

func (*Fact) AFact() {}

func (f *Fact) String() string { return fmt.Sprintf("length(%s)", f.Of) }

// Analyzer summarises the functions of a package that return a length.
var Analyzer = &analysis.Analyzer{
	Name:       "lengths",
	Doc:        "lengths: mark the functions that return the length of what they read",
	URL:        "https://pkg.go.dev/github.com/admitlint/admitlint/passes/lateacquire/internal/lengths",
	Run:        run,
	FactTypes:  []analysis.Fact{new(Fact)},
	ResultType: reflect.TypeFor[*Lengths](),
}

// Lengths answers, for any function a package calls, whether it returns
// a length.
type Lengths struct {
	pass  *analysis.Pass
	local map[*types.Func]Fact
}

// Of returns what the function call calls returns the length of, when it
// is a static call of a length function ("q.items"), or "".
func (l *Lengths) Of(call *ast.CallExpr) string {
	fn := typeutil.StaticCallee(l.pass.TypesInfo, call)
	if fn == nil {
		return ""
	}
	if f, ok := l.local[fn]; ok {
		return f.Of
	}
	var f Fact
	if l.pass.ImportObjectFact(fn, &f) {
		return f.Of
	}
	return ""
}

func run(pass *analysis.Pass) (any, error) {
	l := &Lengths{pass: pass, local: map[*types.Func]Fact{}}
	for _, file := range pass.Files {
		for _, d := range file.Decls {
			d, ok := d.(*ast.FuncDecl)
			if !ok || d.Body == nil {
				continue
			}
			fn, ok := pass.TypesInfo.Defs[d.Name].(*types.Func)
			if !ok {
				continue
			}
			if of := lengthOf(pass.TypesInfo, d); of != "" {
				f := Fact{Of: of}
				l.local[fn] = f
				pass.ExportObjectFact(fn, &f)
			}
		}
	}
	return l, nil
}

// lengthOf returns x when d has one int result and its body is one
// statement, return len(x), of an x whose length is not a constant.
func lengthOf(info *types.Info, d *ast.FuncDecl) string {
	res := d.Type.Results
	if res == nil || res.NumFields() != 1 || len(d.Body.List) != 1 {
		return ""
	}
	ret, ok := d.Body.List[0].(*ast.ReturnStmt)
	if !ok || len(ret.Results) != 1 {
		return ""
	}
	call, ok := ast.Unparen(ret.Results[0]).(*ast.CallExpr)
	if !ok || len(call.Args) != 1 {
		return ""
	}
	id, ok := ast.Unparen(call.Fun).(*ast.Ident)
	if !ok {
		return ""
	}
	if b, ok := info.Uses[id].(*types.Builtin); !ok || b.Name() != "len" {
		return ""
	}
	if tv, ok := info.Types[call]; ok && tv.Value != nil {
		return "" // the length of an array: a constant, a fixed count
	}
	return types.ExprString(call.Args[0])
}
