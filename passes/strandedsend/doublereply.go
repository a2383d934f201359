package strandedsend

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/admitlint/admitlint/passes/strandedsend/internal/replyfields"
	"github.com/admitlint/admitlint/passes/strandedsend/internal/waitpath"
)

// checkDoubleReplies reports a replier that may answer one request twice
// when every requester takes exactly one reply (replyfields.Taker): a
// send on a request's reply field that ends an if with no else and falls
// through, with nothing in between that can branch away, to another send
// on the same field of the same request (an error reply without the
// continue or return that should follow it):
//
//	if err != nil {
//		req.reply <- result{err: err}
//	}
//	req.reply <- result{val: v} // blocks forever: the requester has gone
//
// The channel is unbuffered wherever it is made, so the second send
// finds no one. The finding is at the first send, where the fix goes.
func (c *checker) checkDoubleReplies(res *replyfields.Result) {
	if len(res.Takers) == 0 {
		return // no field every requester takes one reply from
	}
	for _, send := range c.plain {
		if c.reported[send.Arrow] || !c.cfg.Tests && c.inTest(send.Pos()) {
			continue
		}
		field := c.fieldOf(send.Chan)
		if field == nil {
			continue
		}
		takers := c.takersInView(res.Takers[field])
		if len(takers) == 0 {
			continue
		}
		second, path := c.fallsThroughTo(send)
		if second == nil {
			continue
		}
		t := takers[0]
		fix, verb := c.branchAfter(send, path)
		msg := fmt.Sprintf("send on unbuffered %s falls through to a second send on it for the same request (%s), but its requester %s takes one reply: the second blocks forever; the goroutine leaks — %s after this send",
			types.ExprString(send.Chan), waitpath.Where(c.pass.Fset, second.Arrow), t.Func, verb)
		c.reportAt(send.Arrow, send.Arrow, msg, fix,
			analysis.RelatedInformation{Pos: second.Arrow, End: second.End(), Message: "this second reply blocks forever"},
			analysis.RelatedInformation{Pos: t.Recv, Message: t.Func + " takes one reply here"},
			analysis.RelatedInformation{Pos: t.Make, Message: field.Name() + " is made here, unbuffered"})
		c.reported[second.Arrow] = true
	}
}

// takersInView returns the takers the settings let count: test code's
// only with -strandedsend.tests.
func (c *checker) takersInView(takers []*replyfields.Taker) []*replyfields.Taker {
	var kept []*replyfields.Taker
	for _, t := range takers {
		if c.cfg.Tests || !c.inTest(t.Make) {
			kept = append(kept, t)
		}
	}
	return kept
}

// fallsThroughTo returns the send on the same channel that send falls
// through to, with send's path: send is the last statement of an if's
// body that has no else, and a later statement of the block holding the
// if is such a send, every statement before it straight-line code (see
// straight). Nil if there is none.
func (c *checker) fallsThroughTo(send *ast.SendStmt) (*ast.SendStmt, []ast.Node) {
	path := c.pathTo(send)
	if len(path) < 4 {
		return nil, nil
	}
	body, ok := path[1].(*ast.BlockStmt)
	iff, isIf := path[2].(*ast.IfStmt)
	outer, inBlock := path[3].(*ast.BlockStmt)
	if !ok || !isIf || !inBlock || iff.Else != nil || body.List[len(body.List)-1] != send {
		return nil, nil
	}
	after := false
	for _, st := range outer.List {
		if st == iff {
			after = true
			continue
		}
		if !after {
			continue
		}
		if later, ok := st.(*ast.SendStmt); ok && sameChan(c.pass.TypesInfo, later.Chan, send.Chan) {
			return later, path
		}
		if !straight(st) {
			return nil, nil
		}
	}
	return nil, nil
}

// straight reports whether st runs to its end whenever it starts: no
// branch, return, panic, select, send or receive, and no function
// literal that could hide one. A call of anything else is taken to
// return.
func straight(st ast.Stmt) bool {
	ok := true
	ast.Inspect(st, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.BranchStmt, *ast.ReturnStmt, *ast.SelectStmt, *ast.SendStmt, *ast.FuncLit, *ast.GoStmt, *ast.DeferStmt, *ast.LabeledStmt:
			ok = false
		case *ast.UnaryExpr:
			if n.Op == token.ARROW {
				ok = false
			}
		case *ast.CallExpr:
			if id, isIdent := ast.Unparen(n.Fun).(*ast.Ident); isIdent && id.Name == "panic" {
				ok = false
			}
		}
		return ok
	})
	return ok
}

// branchAfter returns the fix that ends send's branch and the word for
// it: a continue when a loop of send's function encloses it, a return
// when the function has no results, nothing otherwise.
func (c *checker) branchAfter(send *ast.SendStmt, path []ast.Node) ([]analysis.SuggestedFix, string) {
	word := ""
	for _, n := range path {
		switch n := n.(type) {
		case *ast.ForStmt, *ast.RangeStmt:
			word = "continue"
		case *ast.FuncLit:
			if word == "" && n.Type.Results.NumFields() == 0 {
				word = "return"
			}
		case *ast.FuncDecl:
			if word == "" && n.Type.Results.NumFields() == 0 {
				word = "return"
			}
		}
		if word != "" {
			break
		}
	}
	if word == "" {
		return nil, "return"
	}
	edit, ok := c.lineAfter(send, word)
	if !ok {
		return nil, word
	}
	return []analysis.SuggestedFix{{Message: fmt.Sprintf("%s after sending on %s", strings.ToUpper(word[:1])+word[1:], types.ExprString(send.Chan)), TextEdits: []analysis.TextEdit{edit}}}, word
}
