package lateacquire

import (
	"go/ast"
	"go/token"
	"go/types"
)

// paced reports whether every trip round a loop with this body waits for
// a clock: a statement of the body itself receives from a timer's
// channel (<-t.C, <-time.After(d)), or is a select each of whose cases
// either receives from one or returns; and no continue skips it. Its
// spawns come one per tick, however much work is waiting.
func paced(info *types.Info, body *ast.BlockStmt) bool {
	waits := false
	for _, stmt := range body.List {
		switch s := stmt.(type) {
		case *ast.ExprStmt:
			waits = waits || isTick(info, s.X)
		case *ast.SelectStmt:
			waits = waits || selectTicks(info, s)
		}
	}
	return waits && !hasContinue(body)
}

// selectTicks reports whether every case of sel receives from a timer's
// channel or ends by returning, and at least one does the former.
func selectTicks(info *types.Info, sel *ast.SelectStmt) bool {
	ticks := false
	for _, c := range sel.Body.List {
		cc := c.(*ast.CommClause)
		switch {
		case cc.Comm == nil:
			return false // a default: the loop goes round at once
		case isTickComm(info, cc.Comm):
			ticks = true
		case endsInReturn(cc.Body):
		default:
			return false
		}
	}
	return ticks
}

// isTickComm reports whether a select case's communication receives from
// a timer's channel.
func isTickComm(info *types.Info, comm ast.Stmt) bool {
	switch s := comm.(type) {
	case *ast.ExprStmt:
		return isTick(info, s.X)
	case *ast.AssignStmt:
		return len(s.Rhs) == 1 && isTick(info, s.Rhs[0])
	}
	return false
}

// isTick reports whether e receives from a channel of time.Time.
func isTick(info *types.Info, e ast.Expr) bool {
	u, ok := ast.Unparen(e).(*ast.UnaryExpr)
	if !ok || u.Op != token.ARROW {
		return false
	}
	t := info.TypeOf(u.X)
	if t == nil {
		return false
	}
	ch, ok := t.Underlying().(*types.Chan)
	return ok && isTime(ch.Elem())
}

// isTime reports whether t is time.Time.
func isTime(t types.Type) bool {
	n, ok := types.Unalias(t).(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "time" && n.Obj().Name() == "Time"
}

// endsInReturn reports whether a case body's last statement is a return.
func endsInReturn(body []ast.Stmt) bool {
	if len(body) == 0 {
		return false
	}
	_, ok := body[len(body)-1].(*ast.ReturnStmt)
	return ok
}

// hasContinue reports whether body holds a continue that can skip the
// rest of this loop's trip: an unlabeled one outside nested loops, or
// any labeled one.
func hasContinue(body *ast.BlockStmt) bool {
	found := false
	var visit func(n ast.Node, nested bool)
	visit = func(n ast.Node, nested bool) {
		ast.Inspect(n, func(m ast.Node) bool {
			switch m := m.(type) {
			case *ast.FuncLit:
				return false
			case *ast.ForStmt, *ast.RangeStmt:
				if m != n {
					visit(m, true)
					return false
				}
			case *ast.BranchStmt:
				if m.Tok == token.CONTINUE && (m.Label != nil || !nested) {
					found = true
				}
			}
			return true
		})
	}
	visit(body, false)
	return found
}
