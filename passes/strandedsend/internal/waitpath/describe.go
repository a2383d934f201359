package waitpath

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"path/filepath"

	"golang.org/x/tools/go/ast/astutil"
	"golang.org/x/tools/go/ssa"
)

// Describe says in the user's terms where the receiver leaves, for a
// message: "case <-ctx.Done() at handler.go:42", "default at f.go:9",
// "return at f.go:12"; and returns the position it names.
func Describe(fset *token.FileSet, files []*ast.File, l *Leave) (string, token.Pos) {
	what, pos := "return", l.Pos()
	switch {
	case l.Stall:
		what = waitText(files, pos)
	case l.Case != nil:
		what, pos = caseText(files, l)
	case isMake(l.At):
		what = "the next iteration"
	case !l.At.Pos().IsValid():
		what = "the end of the function"
	}
	return fmt.Sprintf("%s at %s", what, Where(fset, pos)), pos
}

// Where returns pos as file:line, with the file's base name.
func Where(fset *token.FileSet, pos token.Pos) string {
	p := fset.Position(pos)
	return fmt.Sprintf("%s:%d", filepath.Base(p.Filename), p.Line)
}

func isMake(instr ssa.Instruction) bool {
	_, ok := instr.(*ssa.MakeChan)
	return ok
}

// caseText returns the select case of l as written ("case <-ctx.Done()",
// "case out <- v", "default") and its position.
func caseText(files []*ast.File, l *Leave) (string, token.Pos) {
	pos := l.Pos()
	for _, f := range files {
		if pos < f.Pos() || pos >= f.End() {
			continue
		}
		path, _ := astutil.PathEnclosingInterval(f, pos, pos)
		for _, n := range path {
			switch n := n.(type) {
			case *ast.SelectStmt:
				if l.Case.Index < 0 {
					for _, cc := range n.Body.List {
						if cc := cc.(*ast.CommClause); cc.Comm == nil {
							return "default", cc.Case
						}
					}
				}
			case *ast.CommClause:
				switch comm := n.Comm.(type) {
				case *ast.SendStmt:
					return "case " + types.ExprString(comm.Chan) + " <- " + types.ExprString(comm.Value), n.Case
				case *ast.ExprStmt:
					return "case " + types.ExprString(comm.X), n.Case
				case *ast.AssignStmt:
					if len(comm.Rhs) == 1 {
						return "case " + types.ExprString(comm.Rhs[0]), n.Case
					}
				}
			}
		}
	}
	if l.Case.Index < 0 {
		return "default", pos
	}
	return "a select case", pos
}

// IsDone reports whether the leave is a select case on a Done() channel,
// such as ctx.Done(): senders that can see it may select on it too.
func (l *Leave) IsDone() bool {
	if l.Case == nil || l.Case.Index < 0 {
		return false
	}
	call, ok := l.Case.Select.States[l.Case.Index].Chan.(*ssa.Call)
	if !ok {
		return false
	}
	if call.Call.IsInvoke() {
		return call.Call.Method.Name() == "Done"
	}
	fn := call.Call.StaticCallee()
	return fn != nil && fn.Name() == "Done"
}

// waitText returns the stalling call at pos as written, "wg.Wait()", or
// "the wait".
func waitText(files []*ast.File, pos token.Pos) string {
	for _, f := range files {
		if pos < f.Pos() || pos >= f.End() {
			continue
		}
		path, _ := astutil.PathEnclosingInterval(f, pos, pos)
		for _, n := range path {
			if call, ok := n.(*ast.CallExpr); ok {
				return types.ExprString(call)
			}
		}
	}
	return "the wait"
}
