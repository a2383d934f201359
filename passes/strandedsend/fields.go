package strandedsend

import (
	"cmp"
	"fmt"
	"go/ast"
	"go/types"
	"slices"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/admitlint/admitlint/internal/spawn"
	"github.com/admitlint/admitlint/passes/strandedsend/internal/chanuse"
	"github.com/admitlint/admitlint/passes/strandedsend/internal/replyfields"
	"github.com/admitlint/admitlint/passes/strandedsend/internal/waitpath"
)

// checkFieldSends reports plain sends on a request's reply field, such
// as a worker's req.reply <- r, when some caller gives that field an
// unbuffered channel and can stop waiting on it (see package
// replyfields): in this package, or in the package declaring the field.
func (c *checker) checkFieldSends(res *replyfields.Result) {
	var fields []*types.Var
	sends := map[*types.Var][]*ast.SendStmt{}
	for _, send := range c.plain {
		field := c.fieldOf(send.Chan)
		if field == nil {
			continue
		}
		makers := c.makersInView(res.Makers[field])
		if len(makers) == 0 && res.Imported[field] == nil || c.neverInterrupts(send, makers) {
			continue
		}
		if sends[field] == nil {
			fields = append(fields, field)
		}
		sends[field] = append(sends[field], send)
	}
	for _, field := range fields { // one finding per field, at its first send
		first, others := sends[field][0], sends[field][1:]
		var related []analysis.RelatedInformation
		for _, o := range others {
			c.reported[o.Arrow] = true
			related = append(related, analysis.RelatedInformation{Pos: o.Arrow, End: o.End(), Message: "this send blocks too"})
		}
		if makers := c.makersInView(res.Makers[field]); len(makers) > 0 {
			c.reportLocalReply(first, field, makers, related)
			continue
		}
		fact := res.Imported[field]
		msg := fmt.Sprintf("send on unbuffered %s blocks forever once the receiver leaves (%s in package %s); the goroutine leaks — make %s buffered in %s.%s (%s)",
			types.ExprString(first.Chan), fact.Leave, field.Pkg().Name(), field.Name(), field.Pkg().Name(), fact.Func, fact.Made)
		c.reportAt(first.Arrow, first.Arrow, msg, nil, related...)
	}
	c.checkRemoteAnswers(res, sends)
	c.checkDoubleReplies(res)
}

// checkRemoteAnswers reports the makers of this package whose field a
// package it imports answers with a plain send (the worker's package is
// a dependency of the requester's): the send is out of view, so the
// finding is at the make, the channel to buffer. Fields some send of
// this package answers were reported at that send.
func (c *checker) checkRemoteAnswers(res *replyfields.Result, local map[*types.Var][]*ast.SendStmt) {
	type answered struct {
		field  *types.Var
		makers []*replyfields.Maker
	}
	var found []answered
	for field, answer := range res.Answered {
		if makers := c.makersInView(res.Makers[field]); answer != nil && len(local[field]) == 0 && len(makers) > 0 {
			found = append(found, answered{field, makers})
		}
	}
	slices.SortFunc(found, func(a, b answered) int { return cmp.Compare(a.makers[0].Make.Pos(), b.makers[0].Make.Pos()) })
	for _, f := range found {
		field, makers := f.field, f.makers
		first, answer := makers[0], res.Answered[field]
		where, _ := waitpath.Describe(c.pass.Fset, c.pass.Files, first.Leave)
		msg := fmt.Sprintf("%s's send on unbuffered %s (%s) blocks forever once the receiver leaves (%s); the goroutine leaks — make %s buffered",
			answer.Func, field.Name(), answer.At, where, field.Name())
		at := c.makePos(first.Make)
		c.reportAt(at, at, msg, c.bufferMakers(field, makers),
			analysis.RelatedInformation{Pos: first.LeavePos, Message: "the receiver can leave here"})
	}
}

// bufferMakers returns the fix that gives each of the makers' channels
// for field room for one reply; none unless each make can take it.
func (c *checker) bufferMakers(field *types.Var, makers []*replyfields.Maker) []analysis.SuggestedFix {
	var edits []analysis.TextEdit
	for _, m := range makers {
		if call := c.makes[m.Make.Pos()]; call != nil && len(call.Args) == 1 {
			edits = append(edits, analysis.TextEdit{Pos: call.Rparen, End: call.Rparen, NewText: []byte(", 1")})
		}
	}
	if len(edits) != len(makers) {
		return nil
	}
	return []analysis.SuggestedFix{{Message: fmt.Sprintf("Buffer %s with capacity 1", field.Name()), TextEdits: edits}}
}

// makersInView returns the makers the settings let count: test code's
// (see inTestCode) only with -strandedsend.tests. A maker whose channel
// the pass follows to every use (the request goes only to goroutines it
// starts, inside a struct: go work(&task{out: out})) is left to that
// count, which knows which sends it reaches: the field's other sends are
// not its own. So is one whose goroutines do more than send on it (they
// receive from it as well): the count declines those, and no send
// elsewhere in the package can be on its channel.
func (c *checker) makersInView(makers []*replyfields.Maker) []*replyfields.Maker {
	var kept []*replyfields.Maker
	for _, m := range makers {
		if !c.cfg.Tests && c.inTestCode(m.Make.Parent(), m.Make.Pos()) || c.followed(m.Make) {
			continue
		}
		kept = append(kept, m)
	}
	return kept
}

// followed reports whether the pass follows the channel mk makes to
// every use: into the goroutines its function starts, whatever they do
// with it there.
func (c *checker) followed(mk *ssa.MakeChan) bool {
	if ok, seen := c.follows[mk]; seen {
		return ok
	}
	fn := mk.Parent()
	sites := append(spawn.Sites(fn), spawn.Wrapped(fn)...)
	ok := false
	if len(sites) > 0 {
		ch := c.channelOf(mk, sites)
		ok = ch.ok || c.allInView(ch.uses, 0)
	}
	if c.follows == nil {
		c.follows = map[*ssa.MakeChan]bool{}
	}
	c.follows[mk] = ok
	return ok
}

// allInView reports whether every use of the channel, u and those in
// the goroutines and closures it is handed to (two hand-offs deep), is
// in view: nothing lets it escape, stores it in a field or returns it.
// A summarised helper only sends.
func (c *checker) allInView(u *chanuse.Uses, depth int) bool {
	if u.Escape != nil || len(u.FieldStore)+len(u.Returns) > 0 {
		return false
	}
	for _, h := range u.Handoffs {
		if h.Into == nil {
			continue // a function of another package, by its summary
		}
		if depth >= 2 || !c.allInView(chanuse.TraceHandoff(h, spawn.Sites(h.Fn), c.follow), depth+1) {
			return false
		}
	}
	return true
}

// fieldOf returns the struct field e selects, if e is x.f.
func (c *checker) fieldOf(e ast.Expr) *types.Var {
	return replyfields.FieldOf(c.pass.TypesInfo, e)
}

// reportLocalReply reports a send on a reply field that makers of this
// package abandon, with a fix that buffers each of their channels.
func (c *checker) reportLocalReply(send *ast.SendStmt, field *types.Var, makers []*replyfields.Maker, related []analysis.RelatedInformation) {
	first := makers[0]
	where, _ := waitpath.Describe(c.pass.Fset, c.pass.Files, first.Leave)
	msg := fmt.Sprintf("send on unbuffered %s blocks forever once the receiver leaves (%s); the goroutine leaks — make %s buffered in %s",
		types.ExprString(send.Chan), where, field.Name(), first.Abandoned.Func)
	c.reportAt(send.Arrow, send.Arrow, msg, c.bufferMakers(field, makers), append([]analysis.RelatedInformation{
		{Pos: first.LeavePos, Message: "the receiver can leave here"},
		{Pos: c.makePos(first.Make), Message: field.Name() + " is made here, unbuffered"},
	}, related...)...)
}

// neverInterrupts reports whether every maker of the field strands its
// takers only through the request's interrupt (Maker.Interrupt), and the
// function holding send never selects that field nor hands the request
// to a call: a taker that does not interrupt is always received from.
func (c *checker) neverInterrupts(send *ast.SendStmt, makers []*replyfields.Maker) bool {
	if len(makers) == 0 {
		return false
	}
	for _, m := range makers {
		if m.Interrupt == nil {
			return false
		}
	}
	var decl ast.Node
	for _, n := range c.pathTo(send) {
		if fd, ok := n.(*ast.FuncDecl); ok {
			decl = fd
		}
	}
	if decl == nil {
		return false
	}
	// The request the send answers: req in req.reply <- v. Handed to a
	// call, it may be interrupted there.
	var req types.Object
	if sel, ok := ast.Unparen(send.Chan).(*ast.SelectorExpr); ok {
		if id, ok := ast.Unparen(sel.X).(*ast.Ident); ok {
			req = c.pass.TypesInfo.Uses[id]
		}
	}
	if req == nil {
		return false
	}
	uses := false
	ast.Inspect(decl, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.SelectorExpr:
			for _, m := range makers {
				uses = uses || c.pass.TypesInfo.Uses[n.Sel] == m.Interrupt
			}
		case *ast.CallExpr:
			for _, arg := range n.Args {
				if u, ok := ast.Unparen(arg).(*ast.UnaryExpr); ok {
					arg = u.X
				}
				if id, ok := ast.Unparen(arg).(*ast.Ident); ok && c.pass.TypesInfo.Uses[id] == req {
					uses = true
				}
			}
		}
		return !uses
	})
	return !uses
}
