package waitpath

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/admitlint/admitlint/internal/ssacfg"
)

// innermost returns the smallest loop containing b but not the block
// outside, or nil. Loops around outside (the make of a channel) repeat
// the whole story with a new channel; they are not loops over its values.
func innermost(loops []*ssacfg.Loop, b, outside *ssa.BasicBlock) *ssacfg.Loop {
	var best *ssacfg.Loop
	for _, l := range loops {
		if l.Has(b) && !l.Has(outside) && (best == nil || l.Size < best.Size) {
			best = l
		}
	}
	return best
}

// LoopTrip returns the trip count of a for or range statement of fn's
// body that encloses pos (the innermost for depth 0, the one around it
// for 1, …), when it is a counted loop (for i := 0; i < n; i++, or a range
// over an integer, slice, array or map), and the statement. The statement
// is nil when there is no such loop.
func LoopTrip(fn *ssa.Function, info *types.Info, pos token.Pos, depth int) (Count, ast.Stmt, bool) {
	loops := enclosingLoops(fn, pos)
	if depth >= len(loops) {
		return Count{}, nil, false
	}
	loop := loops[len(loops)-1-depth]
	if loop == nil {
		return Count{}, nil, false
	}
	switch loop := loop.(type) {
	case *ast.ForStmt:
		if e := countedFor(loop, info); e != nil {
			return countOf(e, info, false), loop, true
		}
	case *ast.RangeStmt:
		if c, ok := rangeTrip(loop, info); ok {
			return c, loop, true
		}
	}
	return Count{}, loop, false
}

// enclosingLoops returns the for and range statements of fn's own body
// (not of a function literal in it) that enclose pos, outermost first.
func enclosingLoops(fn *ssa.Function, pos token.Pos) []ast.Stmt {
	var body *ast.BlockStmt
	switch syn := fn.Syntax().(type) {
	case *ast.FuncDecl:
		body = syn.Body
	case *ast.FuncLit:
		body = syn.Body
	}
	if body == nil || pos < body.Pos() || pos >= body.End() {
		return nil
	}
	var found []ast.Stmt
	ast.Inspect(body, func(n ast.Node) bool {
		if n == nil || pos < n.Pos() || pos >= n.End() {
			return false
		}
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ForStmt:
			found = append(found, n)
		case *ast.RangeStmt:
			found = append(found, n)
		}
		return true
	})
	return found
}

// countedFor returns n in for i := 0; i < n; i++ (or i += 1, or n > i),
// or nil if loop is not of that form.
func countedFor(loop *ast.ForStmt, info *types.Info) ast.Expr {
	init, ok := loop.Init.(*ast.AssignStmt)
	if !ok || len(init.Lhs) != 1 || len(init.Rhs) != 1 || !isIntConst(init.Rhs[0], info, 0) {
		return nil
	}
	i, ok := init.Lhs[0].(*ast.Ident)
	if !ok {
		return nil
	}
	obj := info.ObjectOf(i)
	if obj == nil || !isIncrement(loop.Post, obj, info) {
		return nil
	}
	cond, ok := ast.Unparen(loop.Cond).(*ast.BinaryExpr)
	if !ok {
		return nil
	}
	switch {
	case cond.Op == token.LSS && isVar(cond.X, obj, info):
		return cond.Y
	case cond.Op == token.GTR && isVar(cond.Y, obj, info):
		return cond.X
	}
	return nil
}

// isIncrement reports whether post is i++ or i += 1 for the variable obj.
func isIncrement(post ast.Stmt, obj types.Object, info *types.Info) bool {
	switch post := post.(type) {
	case *ast.IncDecStmt:
		return post.Tok == token.INC && isVar(post.X, obj, info)
	case *ast.AssignStmt:
		return post.Tok == token.ADD_ASSIGN && len(post.Lhs) == 1 && isVar(post.Lhs[0], obj, info) && isIntConst(post.Rhs[0], info, 1)
	}
	return false
}

// isVar reports whether e is an identifier denoting obj.
func isVar(e ast.Expr, obj types.Object, info *types.Info) bool {
	id, ok := ast.Unparen(e).(*ast.Ident)
	return ok && info.ObjectOf(id) == obj
}

// isIntConst reports whether e is the integer constant want.
func isIntConst(e ast.Expr, info *types.Info, want int64) bool {
	tv, ok := info.Types[e]
	if !ok || tv.Value == nil || tv.Value.Kind() != constant.Int {
		return false
	}
	v, exact := constant.Int64Val(tv.Value)
	return exact && v == want
}

// rangeTrip returns the number of iterations of a range statement over
// an integer, slice, array (or pointer to one) or map.
func rangeTrip(loop *ast.RangeStmt, info *types.Info) (Count, bool) {
	t := info.TypeOf(loop.X)
	if t == nil {
		return Count{}, false
	}
	switch u := t.Underlying().(type) {
	case *types.Basic:
		if u.Info()&types.IsInteger != 0 {
			return countOf(loop.X, info, false), true
		}
	case *types.Slice, *types.Map:
		return countOf(loop.X, info, true), true
	case *types.Array:
		return Count{N: u.Len()}, true
	case *types.Pointer:
		if a, ok := u.Elem().Underlying().(*types.Array); ok {
			return Count{N: a.Len()}, true
		}
	}
	return Count{}, false
}

// countOf returns the count e (or len(e)) denotes.
func countOf(e ast.Expr, info *types.Info, length bool) Count {
	if !length {
		if tv, ok := info.Types[e]; ok && tv.Value != nil && tv.Value.Kind() == constant.Int {
			if v, exact := constant.Int64Val(tv.Value); exact && v >= 0 {
				return Count{N: v}
			}
			return Count{Many: true}
		}
		return Count{Expr: types.ExprString(e)}
	}
	return Count{Expr: "len(" + types.ExprString(e) + ")"}
}

// LoopsAround returns how many natural loops of fn contain block b but
// not block outside.
func LoopsAround(fn *ssa.Function, b, outside *ssa.BasicBlock) int {
	n := 0
	for _, l := range ssacfg.Loops(fn) {
		if l.Has(b) && !l.Has(outside) {
			n++
		}
	}
	return n
}
