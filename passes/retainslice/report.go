package retainslice

import (
	"fmt"
	"go/ast"
	"go/printer"
	"go/token"
	"go/types"
	"path/filepath"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/astutil"
	"golang.org/x/tools/go/ssa"

	"github.com/admitlint/admitlint/internal/ssacfg"
	"github.com/admitlint/admitlint/passes/retainslice/internal/borrow"
)

// A checker checks the functions of one package.
type checker struct {
	pass     *analysis.Pass
	cfg      *Config
	sums     *borrow.Summaries
	fresh    *factSet                   // functions whose results are large buffers
	states   map[ssa.Value]borrow.State // of the buffer being traced
	visited  map[visit]bool
	reported map[token.Pos]bool // positions already reported, one finding each

	loopsOf *ssa.Function  // the function whose loops fnLoops holds
	fnLoops []*ssacfg.Loop // memo for loops
}

func newChecker(pass *analysis.Pass, cfg *Config, sums *borrow.Summaries) *checker {
	return &checker{pass: pass, cfg: cfg, sums: sums, visited: map[visit]bool{}, reported: map[token.Pos]bool{}}
}

// A site is a sink found in the syntax: the expression that puts the piece
// there (nil if the source has none, as in a bare return), what holds it
// afterwards, and the name the message uses for the piece.
type site struct {
	expr      ast.Expr
	container ast.Expr
	piece     string
	pos       token.Pos
}

// report reports the places where pieces of root r outlive fn, as one
// finding: at the first, with the others as related positions and in its
// suggested fix.
func (c *checker) report(fn *ssa.Function, r *root, pieces []kept) {
	var first *site
	var firstKept kept
	var others []site
	for _, k := range pieces {
		at, ok := c.locate(fn, k.s)
		if !ok || c.reported[at.pos] {
			continue
		}
		c.reported[at.pos] = true
		if first == nil {
			first, firstKept = &at, k
			continue
		}
		others = append(others, at)
	}
	if first == nil {
		return
	}
	at, st, s := *first, firstKept.st, firstKept.s
	t := r.v.Type()
	if at.expr != nil {
		if et := c.pass.TypesInfo.TypeOf(at.expr); et != nil && (isString(et) || isSlice(et)) {
			t = et
		}
	}
	what := "slice"
	if isString(t) {
		what = "substring"
	}
	related := []analysis.RelatedInformation{{Pos: r.pos, Message: fmt.Sprintf("%s is %s here", r.name, r.verb)}}
	if st.From != nil && st.From.Pos().IsValid() && c.line(st.From.Pos()) != c.line(at.pos) {
		related = append(related, analysis.RelatedInformation{Pos: st.From.Pos(), Message: "the " + what + " is cut here"})
	}
	for _, o := range others {
		related = append(related, analysis.RelatedInformation{Pos: o.pos, End: end(o), Message: o.piece + " also keeps it alive here"})
	}
	c.pass.Report(analysis.Diagnostic{
		Pos:            at.pos,
		End:            end(at),
		Message:        c.message(fn, r, s.kind, at, what, t, len(others)),
		Related:        related,
		SuggestedFixes: c.cloneFix(append([]site{at}, others...)),
	})
}

// message says which piece of which buffer outlives fn, how, and what
// copies it:
//
//	tok stored in c.last keeps a slice of data (io.ReadAll at load.go:12, unbounded) alive after load returns; copy it with bytes.Clone
func (c *checker) message(fn *ssa.Function, r *root, kind sinkKind, at site, what string, t types.Type, more int) string {
	pkg, _ := cloner(t)
	if pkg == "" {
		pkg = "bytes"
	}
	var how string
	switch kind {
	case sent:
		how = " sent on " + exprText(at.container)
	case stored:
		how = " stored"
		if at.container != nil {
			how += " in " + exprText(at.container)
		}
	case appended:
		how = " appended to " + exprText(at.container)
	case captured:
		how = " captured by a closure"
	case passed:
		how = " passed to " + exprText(at.container) + ", which keeps it,"
	}
	posn := c.pass.Fset.Position(r.pos)
	also := ""
	switch {
	case more == 1:
		also = " (and 1 more piece of it)"
	case more > 1:
		also = fmt.Sprintf(" (and %d more pieces of it)", more)
	}
	return fmt.Sprintf("%s%s keeps a %s of %s (%s at %s:%d, %s)%s alive after %s returns; copy it with %s.Clone",
		at.piece, how, what, r.name, r.how, filepath.Base(posn.Filename), posn.Line, r.size, also, funcName(fn), pkg)
}

// locate finds sink s in the syntax.
func (c *checker) locate(fn *ssa.Function, s sink) (site, bool) {
	pos := s.instr.Pos()
	if s.pos.IsValid() {
		pos = s.pos
	}
	file := c.fileOf(pos)
	if file == nil || !pos.IsValid() {
		return site{}, false
	}
	path, _ := astutil.PathEnclosingInterval(file, pos, pos)
	var at site
	switch s.kind {
	case returned:
		ret, ok := enclosing[*ast.ReturnStmt](path)
		if !ok {
			return site{}, false
		}
		if len(ret.Results) == len(s.instr.(*ssa.Return).Results) {
			at.expr = ret.Results[s.index]
		} else if res := fn.Signature.Results(); s.index < res.Len() && res.At(s.index).Name() != "" {
			at.piece = res.At(s.index).Name() // a bare return of a named result
		}
		at.pos = ret.Pos()
	case sent:
		send, ok := enclosing[*ast.SendStmt](path)
		if !ok {
			return site{}, false
		}
		at.expr, at.container = send.Value, send.Chan
	case passed:
		call, ok := enclosing[*ast.CallExpr](path)
		if !ok {
			return site{}, false
		}
		i := s.index
		if isMethodCall(c.pass.TypesInfo, call) {
			i-- // a static method call's receiver is its first argument
		}
		if call.Ellipsis.IsValid() || i < 0 || i >= len(call.Args) {
			return site{}, false
		}
		at.expr, at.container = call.Args[i], call.Fun
	case appended:
		call, ok := enclosing[*ast.CallExpr](path)
		if !ok || call.Ellipsis.IsValid() || 1+s.index >= len(call.Args) {
			return site{}, false
		}
		at.expr, at.container = call.Args[1+s.index], call.Args[0]
	default: // stored, captured: an assignment, a declaration or a composite literal
		var lhs ast.Expr
		at.expr, lhs = assigned(path, pos, s.key)
		at.container = lhs
		if s.kind == captured && lhs != nil { // name the variable; the fix copies what is assigned to it
			at.piece = exprText(lhs)
		}
	}
	if at.expr != nil {
		at.pos = at.expr.Pos()
		if at.piece == "" {
			at.piece = exprText(at.expr)
		}
	}
	if at.piece == "" {
		at.piece = "a piece"
	}
	if !at.pos.IsValid() {
		at.pos = pos
	}
	return at, true
}

// assigned returns the expression stored at pos, the position of a
// store's destination (x.f's f, m[k]'s bracket, a variable, a composite
// literal's key or element), and what it is stored into. For a map
// update, key selects the key rather than the value.
func assigned(path []ast.Node, pos token.Pos, key bool) (value, into ast.Expr) {
	for i, n := range path {
		var child ast.Node
		if i > 0 {
			child = path[i-1]
		}
		switch n := n.(type) {
		case *ast.KeyValueExpr:
			if n.Colon == pos {
				lit, _ := enclosing[*ast.CompositeLit](path[i:])
				if key {
					return n.Key, lit
				}
				return n.Value, lit
			}
		case *ast.CompositeLit:
			return child.(ast.Expr), n
		case *ast.AssignStmt:
			for k, lhs := range n.Lhs {
				if lhs == child && len(n.Lhs) == len(n.Rhs) {
					if ix, ok := lhs.(*ast.IndexExpr); ok { // m[k] = v, s[i] = v
						if key {
							return ix.Index, ix.X
						}
						return n.Rhs[k], ix.X
					}
					return n.Rhs[k], lhs
				}
			}
			return nil, nil
		case *ast.ValueSpec:
			for k, name := range n.Names {
				if name == child && len(n.Names) == len(n.Values) {
					return n.Values[k], name
				}
			}
			return nil, nil
		case *ast.IncDecStmt: // counts[k]++
			if ix, ok := n.X.(*ast.IndexExpr); ok && key {
				return ix.Index, ix.X
			}
			return nil, nil
		case ast.Stmt, ast.Decl:
			return nil, nil
		}
	}
	return nil, nil
}

// enclosing returns the innermost node of type N in path.
func enclosing[N ast.Node](path []ast.Node) (N, bool) {
	for _, n := range path {
		if n, ok := n.(N); ok {
			return n, true
		}
	}
	var zero N
	return zero, false
}

// nameAt returns the name of what is made at pos: the variable it is
// assigned to, as written, or else the expression making it.
func (c *checker) nameAt(pos token.Pos, fallback string) string {
	path, made := c.madeAt(pos)
	for i, n := range path {
		switch n := n.(type) {
		case *ast.AssignStmt:
			return lhsOf(n.Lhs, n.Rhs, path[i-1], made, fallback)
		case *ast.ValueSpec:
			names := make([]ast.Expr, len(n.Names))
			for k, id := range n.Names {
				if id == path[i-1] { // var buf [N]byte
					return id.Name
				}
				names[k] = id
			}
			return lhsOf(names, n.Values, path[i-1], made, fallback)
		case ast.Stmt, ast.Decl:
			return textOr(made, fallback)
		}
	}
	return textOr(made, fallback)
}

// writtenAt returns the call or conversion whose parenthesis is at pos,
// as written (string(block[:n]), not the buffer's name), or fallback.
func (c *checker) writtenAt(pos token.Pos, fallback string) string {
	_, made := c.madeAt(pos)
	return textOr(made, fallback)
}

// madeAt returns the syntax enclosing pos, innermost first, and the call
// or conversion whose parenthesis is at pos, if there is one.
func (c *checker) madeAt(pos token.Pos) ([]ast.Node, ast.Expr) {
	file := c.fileOf(pos)
	if file == nil || !pos.IsValid() {
		return nil, nil
	}
	path, _ := astutil.PathEnclosingInterval(file, pos, pos)
	for _, n := range path {
		if call, ok := n.(*ast.CallExpr); ok && call.Lparen == pos {
			return path, call
		}
	}
	return path, nil
}

// textOr returns e as written, or fallback if e is nil.
func textOr(e ast.Expr, fallback string) string {
	if e == nil {
		return fallback
	}
	return exprText(e)
}

// lhsOf returns the text of the left-hand side receiving rhs child: the
// one at its index, or the first for a call returning several values.
func lhsOf(lhs, rhs []ast.Expr, child ast.Node, made ast.Expr, fallback string) string {
	for k, r := range rhs {
		if r != child {
			continue
		}
		var target ast.Expr
		switch {
		case len(lhs) == len(rhs):
			target = lhs[k]
		case len(rhs) == 1:
			target = lhs[0]
		}
		if id, ok := target.(*ast.Ident); ok && id.Name == "_" {
			target = nil
		}
		if target != nil && (made == nil || r == made) {
			return exprText(target)
		}
	}
	return textOr(made, fallback)
}

// exprText returns e as gofmt writes it or, if that is long, shortened
// by go/types' rules (T{…}, func(…){…}).
func exprText(e ast.Expr) string {
	if e == nil {
		return "?"
	}
	var b strings.Builder
	if err := printer.Fprint(&b, token.NewFileSet(), e); err == nil && b.Len() <= 40 && !strings.Contains(b.String(), "\n") {
		if _, lit := e.(*ast.CompositeLit); !lit {
			return b.String()
		}
	}
	return types.ExprString(e)
}

// funcName returns how the message names fn.
func funcName(fn *ssa.Function) string {
	if fn.Parent() != nil || fn.Object() == nil {
		return "the function literal"
	}
	return fn.Object().Name()
}

// line returns the line of pos.
func (c *checker) line(pos token.Pos) int { return c.pass.Fset.Position(pos).Line }

// end returns the end of the reported range.
func end(at site) token.Pos {
	if at.expr != nil {
		return at.expr.End()
	}
	return token.NoPos
}

// isByteSlice reports whether t's underlying type is []byte.
func isByteSlice(t types.Type) bool {
	s, ok := t.Underlying().(*types.Slice)
	if !ok {
		return false
	}
	b, ok := s.Elem().Underlying().(*types.Basic)
	return ok && b.Kind() == types.Byte
}

// isMethodCall reports whether call calls a method through a selector
// x.m (not a method expression T.m, whose receiver is an argument).
func isMethodCall(info *types.Info, call *ast.CallExpr) bool {
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return false
	}
	s, ok := info.Selections[sel]
	return ok && s.Kind() == types.MethodVal
}
