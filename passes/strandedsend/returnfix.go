package strandedsend

import (
	"fmt"
	"go/ast"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"
)

// returnFix returns the fix a goroutine that sends twice on a path
// usually needs: a return after each send that ends an if with no else
// and falls through to another send on the same channel (an error sent
// without the return that should follow it):
//
//	if err != nil {
//		gotc <- nil
//		return // added
//	}
//	gotc <- b
//
// It is offered beside the capacity fix, which is always safe, when the
// sends are the goroutine's own statements in a function with no
// results, outside loops, and one send a run is what the receiver takes
// (with the room it has) before it leaves. Nil otherwise.
func (c *checker) returnFix(targets []*op, i int, recvd int, room int64) []analysis.SuggestedFix {
	if int64(recvd)+room < 1 {
		return nil // even one send a run would block
	}
	var sends []*ast.SendStmt
	for _, o := range targets {
		send, ok := o.instr.(*ssa.Send)
		st := c.sends[o.pos[i]]
		if !ok || st == nil || o.via != nil || (o.anchor != nil && o.anchor != o.instr) || send.Parent().Signature.Results().Len() > 0 {
			return nil // a bare return must end the goroutine's own function
		}
		sends = append(sends, st)
	}
	var edits []analysis.TextEdit
	for _, st := range sends {
		path := c.pathTo(st)
		if len(path) < 3 || inLoop(path) {
			return nil
		}
		body, ok := path[1].(*ast.BlockStmt)
		iff, isIf := path[2].(*ast.IfStmt)
		if !ok || !isIf || iff.Else != nil || body.List[len(body.List)-1] != st {
			continue
		}
		if !slices.ContainsFunc(sends, func(later *ast.SendStmt) bool {
			return later.Pos() > iff.End() && sameChan(c.pass.TypesInfo, later.Chan, st.Chan)
		}) {
			continue
		}
		edit, ok := c.lineAfter(st, "return")
		if !ok {
			return nil
		}
		edits = append(edits, edit)
	}
	if len(edits) == 0 {
		return nil
	}
	msg := fmt.Sprintf("Return after sending on %s", types.ExprString(sends[0].Chan))
	return []analysis.SuggestedFix{{Message: msg, TextEdits: edits}}
}

// lineAfter returns the edit that puts stmt on a line of its own after
// st's, at st's indentation: after the line's end, so a comment trailing
// st stays with it. False when st ends the file.
func (c *checker) lineAfter(st ast.Stmt, stmt string) (analysis.TextEdit, bool) {
	tf := c.pass.Fset.File(st.End())
	line := tf.Line(st.End())
	if line >= tf.LineCount() {
		return analysis.TextEdit{}, false
	}
	eol := tf.LineStart(line+1) - 1
	col := c.pass.Fset.Position(st.Pos()).Column
	return analysis.TextEdit{Pos: eol, End: eol, NewText: []byte("\n" + strings.Repeat("\t", col-1) + stmt)}, true
}

// inLoop reports whether a loop of the innermost function on path
// encloses the node path starts from.
func inLoop(path []ast.Node) bool {
	for _, n := range path {
		switch n.(type) {
		case *ast.ForStmt, *ast.RangeStmt:
			return true
		case *ast.FuncLit, *ast.FuncDecl:
			return false
		}
	}
	return false
}

// sameChan reports whether a and b name the same variable (or field of
// the same variable).
func sameChan(info *types.Info, a, b ast.Expr) bool {
	a, b = ast.Unparen(a), ast.Unparen(b)
	switch a := a.(type) {
	case *ast.Ident:
		b, ok := b.(*ast.Ident)
		return ok && info.ObjectOf(a) != nil && info.ObjectOf(a) == info.ObjectOf(b)
	case *ast.SelectorExpr:
		b, ok := b.(*ast.SelectorExpr)
		return ok && info.ObjectOf(a.Sel) == info.ObjectOf(b.Sel) && sameChan(info, a.X, b.X)
	}
	return false
}
