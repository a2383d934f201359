package acquire

import (
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/types/typeutil"

	"github.com/admitlint/admitlint/internal/match"
)

// A walker looks through one function body for its one acquire, and for
// anything that disqualifies the function as a thin acquire wrapper.
type walker struct {
	s    *Summary
	decl *ast.FuncDecl
	fn   *types.Func

	fact  Fact
	at    token.Pos // the acquire, or NoPos
	bad   bool
	loops []ast.Node
}

// wrapper returns the fact of the function decl declares, if it is a thin
// acquire wrapper (see the package documentation).
func (s *Summary) wrapper(decl *ast.FuncDecl, fn *types.Func) (Fact, bool) {
	w := &walker{s: s, decl: decl, fn: fn}
	ast.Inspect(decl.Body, w.visit)
	if w.bad || w.at == token.NoPos {
		return Fact{}, false
	}
	for _, loop := range w.loops {
		if loop.Pos() <= w.at && w.at < loop.End() {
			return Fact{}, false // an acquire per iteration is not one permit
		}
	}
	return w.fact, true
}

func (w *walker) visit(n ast.Node) bool {
	if w.bad {
		return false
	}
	switch n := n.(type) {
	case *ast.FuncLit, *ast.GoStmt:
		w.bad = true
	case *ast.ForStmt, *ast.RangeStmt:
		w.loops = append(w.loops, n)
	case *ast.SelectStmt:
		w.selectStmt(n)
		return false
	case *ast.SendStmt:
		w.send(n.Chan, n.Arrow, false)
	case *ast.UnaryExpr:
		if n.Op == token.ARROW {
			w.recv(n.X, n.OpPos, false) // a token, or else a release, a wait or a job
		}
	case *ast.CallExpr:
		w.call(n)
	}
	return !w.bad
}

// selectStmt accepts a select whose one send is the acquire and whose
// other cases only receive, and walks the cases' bodies.
func (w *walker) selectStmt(sel *ast.SelectStmt) {
	var send *ast.SendStmt
	for _, c := range sel.Body.List {
		comm := c.(*ast.CommClause)
		switch stmt := comm.Comm.(type) {
		case nil:
			w.bad = true // default: a try, not a wait
			return
		case *ast.SendStmt:
			if send != nil {
				w.bad = true
				return
			}
			send = stmt
		default:
			// A receive case: <-ctx.Done(), v := <-quit. Its channel
			// expression may call Done, which is bookkeeping.
			ast.Inspect(stmt, func(n ast.Node) bool {
				if call, ok := n.(*ast.CallExpr); ok {
					w.call(call)
				}
				return !w.bad
			})
		}
	}
	if send == nil {
		w.tokenCase(sel)
		return
	}
	w.send(send.Chan, send.Arrow, true)
	for _, c := range sel.Body.List {
		for _, stmt := range c.(*ast.CommClause).Body {
			ast.Inspect(stmt, w.visit)
		}
	}
}

// tokenCase accepts a select without a send whose one receive from a
// token channel is the acquire and whose other cases only receive
// (<-ctx.Done()), and walks the cases' bodies.
func (w *walker) tokenCase(sel *ast.SelectStmt) {
	var tok *ast.UnaryExpr
	for _, c := range sel.Body.List {
		recv := receiveOf(c.(*ast.CommClause).Comm)
		if recv != nil && w.s.isToken(chanObject(w.s.pass.TypesInfo, recv.X)) {
			if tok != nil {
				w.bad = true
				return
			}
			tok = recv
		}
	}
	if tok == nil {
		w.bad = true
		return
	}
	w.recv(tok.X, tok.OpPos, true)
	for _, c := range sel.Body.List {
		for _, stmt := range c.(*ast.CommClause).Body {
			ast.Inspect(stmt, w.visit)
		}
	}
}

// receiveOf returns the receive of a select case's communication
// (<-ch, v := <-ch, v, ok = <-ch), or nil.
func receiveOf(comm ast.Stmt) *ast.UnaryExpr {
	var e ast.Expr
	switch s := comm.(type) {
	case *ast.ExprStmt:
		e = s.X
	case *ast.AssignStmt:
		if len(s.Rhs) == 1 {
			e = s.Rhs[0]
		}
	}
	if u, ok := ast.Unparen(e).(*ast.UnaryExpr); ok && u.Op == token.ARROW {
		return u
	}
	return nil
}

// recv accepts a receive from one of the package's token channels as
// the acquire; any other receive disqualifies the function.
func (w *walker) recv(ch ast.Expr, at token.Pos, inSelect bool) {
	if !w.s.isToken(chanObject(w.s.pass.TypesInfo, ch)) {
		w.bad = true
		return
	}
	w.found(Fact{Kind: Chan, Select: inSelect}, ch, at)
}

// send accepts a send on one of the package's semaphores as the acquire.
func (w *walker) send(ch ast.Expr, at token.Pos, inSelect bool) {
	if !w.s.IsSemaphore(chanObject(w.s.pass.TypesInfo, ch)) {
		w.bad = true
		return
	}
	w.found(Fact{Kind: Chan, Select: inSelect}, ch, at)
}

// call accepts a call of an acquire or of bookkeeping.
func (w *walker) call(call *ast.CallExpr) {
	info := w.s.pass.TypesInfo
	switch callee := typeutil.Callee(info, call).(type) {
	case nil, *types.Builtin:
		return // a conversion or a builtin
	case *types.Func:
		recv := receiverExpr(call)
		switch {
		case match.IsMethod(callee, match.SemaphorePkg, "Weighted", "Acquire"):
			w.found(Fact{Kind: Weighted}, recv, call.Lparen)
		case match.IsMethod(callee, match.RatePkg, "Limiter", "Wait", "WaitN"):
			w.found(Fact{Kind: Limiter}, recv, call.Lparen)
		case match.IsMethod(callee, match.RatePkg, "Limiter", "Tokens", "TokensAt", "Limit", "Burst"):
			// A read of the limiter's state, which never waits: bookkeeping.
		default:
			if f, ok := w.s.Of(callee); ok {
				w.found(f, operand(call, callee, f.On), call.Lparen)
			} else if !match.IsBookkeeping(callee) && !isMutexLock(callee) {
				w.bad = true
			}
		}
	default:
		w.bad = true // a call of a function value
	}
}

// found records the acquire of kind f on the expression on (nil for a
// package-level permit), if it is the function's only one and is taken on
// something that outlives the call.
func (w *walker) found(f Fact, on ast.Expr, at token.Pos) {
	if w.at != token.NoPos {
		w.bad = true
		return
	}
	if on != nil || f.On >= 0 {
		idx, ok := w.rootIndex(on)
		if !ok {
			w.bad = true
			return
		}
		f.On = idx
	}
	w.fact, w.at = f, at
}

// rootIndex returns what e is rooted in, as a Fact's On: -1 for a
// package-level variable, the argument index for the receiver or a
// parameter. It reports false for anything else (a local variable, a
// call's result).
func (w *walker) rootIndex(e ast.Expr) (int, bool) {
	info := w.s.pass.TypesInfo
	for e != nil {
		switch x := ast.Unparen(e).(type) {
		case *ast.StarExpr:
			e = x.X
		case *ast.SelectorExpr:
			if sel, ok := info.Selections[x]; ok {
				if sel.Kind() != types.FieldVal {
					return 0, false
				}
				e = x.X
				continue
			}
			return globalVar(info.Uses[x.Sel]) // pkg.Var
		case *ast.Ident:
			return w.identIndex(info.Uses[x])
		default:
			return 0, false
		}
	}
	return 0, false
}

// identIndex is rootIndex for a variable.
func (w *walker) identIndex(obj types.Object) (int, bool) {
	v, ok := obj.(*types.Var)
	if !ok {
		return 0, false
	}
	sig := w.fn.Signature()
	offset := 0
	if recv := sig.Recv(); recv != nil {
		if recv == v {
			return 0, true
		}
		offset = 1
	}
	for i := 0; i < sig.Params().Len(); i++ {
		if sig.Params().At(i) == v {
			return i + offset, true
		}
	}
	return globalVar(v)
}

// globalVar returns -1 and true if obj is a package-level variable.
func globalVar(obj types.Object) (int, bool) {
	v, ok := obj.(*types.Var)
	if ok && v.Pkg() != nil && v.Parent() == v.Pkg().Scope() {
		return -1, true
	}
	return 0, false
}

// receiverExpr returns the receiver expression of a method call x.m(…),
// or nil.
func receiverExpr(call *ast.CallExpr) ast.Expr {
	if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok {
		return sel.X
	}
	return nil
}

// operand returns the expression of argument i of call (a method's
// receiver being argument 0), or nil for i < 0 or a missing argument.
func operand(call *ast.CallExpr, callee *types.Func, i int) ast.Expr {
	if i < 0 {
		return nil
	}
	if callee.Signature().Recv() != nil {
		if i == 0 {
			return receiverExpr(call)
		}
		i--
	}
	if i < len(call.Args) {
		return call.Args[i]
	}
	return nil
}

// isMutexLock reports whether fn locks a sync.Mutex or RWMutex: a wrapper
// may keep its bookkeeping under a lock.
func isMutexLock(fn *types.Func) bool {
	locks, _ := match.MutexLock(fn)
	return locks
}
