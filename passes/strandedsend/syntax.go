package strandedsend

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/inspector"
)

// indexSyntax records the send statements and channel makes of the
// package by position, so SSA instructions can be mapped back to the
// expressions the user wrote.
func (c *checker) indexSyntax(ins *inspector.Inspector) {
	c.sends = map[token.Pos]*ast.SendStmt{}
	c.makes = map[token.Pos]*ast.CallExpr{}
	cases := map[ast.Stmt]bool{}
	ins.Preorder([]ast.Node{(*ast.CommClause)(nil), (*ast.SendStmt)(nil), (*ast.CallExpr)(nil)}, func(n ast.Node) {
		switch n := n.(type) {
		case *ast.CommClause:
			cases[n.Comm] = true
		case *ast.SendStmt:
			c.sends[n.Arrow] = n
			if !cases[n] {
				c.plain = append(c.plain, n)
				_, sel := ast.Unparen(n.Chan).(*ast.SelectorExpr)
				c.hasFieldSend = c.hasFieldSend || sel
			}
		case *ast.CallExpr:
			if isMakeChan(c.pass.TypesInfo, n) {
				c.makes[n.Lparen] = n
				c.hasMake = true
			}
		}
	})
}

// isTestSupport reports whether the package's non-test files use
// testing's T, TB, B, F or M: a package of test support (a test harness,
// a spec runner, an assertion library), whose receivers are test code
// wherever they are declared.
func isTestSupport(pass *analysis.Pass) bool {
	for _, f := range pass.Files {
		name := pass.Fset.File(f.Pos()).Name()
		if strings.HasSuffix(name, "_test.go") || !importsTesting(f) {
			continue
		}
		found := false
		ast.Inspect(f, func(n ast.Node) bool {
			if sel, ok := n.(*ast.SelectorExpr); ok && !found {
				if tn, ok := pass.TypesInfo.Uses[sel.Sel].(*types.TypeName); ok && tn.Pkg() != nil && tn.Pkg().Path() == "testing" {
					switch tn.Name() {
					case "T", "TB", "B", "F", "M":
						found = true
					}
				}
			}
			return !found
		})
		if found {
			return true
		}
	}
	return false
}

// importsTesting reports whether f imports package testing.
func importsTesting(f *ast.File) bool {
	for _, imp := range f.Imports {
		if imp.Path.Value == `"testing"` {
			return true
		}
	}
	return false
}

// isMakeChan reports whether call is make(chan …).
func isMakeChan(info *types.Info, call *ast.CallExpr) bool {
	id, ok := ast.Unparen(call.Fun).(*ast.Ident)
	if !ok || id.Name != "make" || len(call.Args) == 0 {
		return false
	}
	if _, ok := info.Uses[id].(*types.Builtin); !ok {
		return false
	}
	_, ok = underlyingChan(info.TypeOf(call.Args[0]))
	return ok
}

// underlyingChan returns t's channel type, if t is one.
func underlyingChan(t types.Type) (*types.Chan, bool) {
	if t == nil {
		return nil, false
	}
	ch, ok := t.Underlying().(*types.Chan)
	return ch, ok
}
