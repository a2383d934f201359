package strandedsend

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/astutil"
	"golang.org/x/tools/go/ssa"

	"github.com/admitlint/admitlint/passes/strandedsend/internal/waitpath"
)

// reportLeave reports the sends of the targets on channel i, which the
// receiver's leave strands: one finding for the channel, at its first
// send, the others related to it.
func (c *checker) reportLeave(ch *channel, i int, targets []*op, leave *waitpath.Leave, total waitpath.Count, starts []waitpath.Start, many bool) {
	leak := "the goroutine leaks"
	if many {
		leak = "goroutines leak"
	}
	where, leavePos := waitpath.Describe(c.pass.Fset, c.pass.Files, leave)
	made := c.madeName(ch.mk)
	o, others := targets[0], targets[1:]
	name := c.opText(o, i, made)
	// The values the message counts: those the senders started on the
	// leave's way set going, when fewer than all (a second goroutine
	// started after the leave). The fix still makes room for all.
	sent := total
	if p := leave.Pending; p.Constant() && total.Constant() && p.N > 0 && p.N < total.N {
		sent = p
	}
	var msg string
	var fixes []analysis.SuggestedFix
	switch {
	case leave.Stall:
		hint := "receive before waiting"
		if !leave.Pending.Stream && !leave.Pending.Many && leave.Pending.Expr == "" {
			hint += ", or make " + made + "'s capacity " + leave.Pending.String()
			fixes = c.capacityFix(ch, made, total, starts)
		}
		msg = fmt.Sprintf("send on %s%s blocks forever: %s waits for its senders (%s) before receiving what they send; they wait for each other — %s",
			unbuffered(ch.room), name, loopName(ch.mk.Parent(), c.pass.Pkg), where, hint)
	case leave.Pending.Stream:
		msg = fmt.Sprintf("send on %s blocks forever once the receiver stops receiving (%s); the goroutine leaks — select on ctx.Done() or a done channel as well",
			name, where)
	case sent == waitpath.One:
		or := ""
		if leave.IsDone() {
			or = " or select on ctx.Done()"
		}
		msg = fmt.Sprintf("send on %s%s blocks forever once the receiver leaves (%s); the goroutine leaks — make %s buffered%s",
			unbuffered(ch.room), name, where, made, or)
		fixes = c.capacityFix(ch, made, total, starts)
	default:
		hint := fmt.Sprintf("buffer %s for every sender", made)
		if n, ok := total.Source(); ok {
			hint = fmt.Sprintf("make %s's capacity %s", made, n)
		}
		got := fmt.Sprintf("after %d of", leave.Recvd)
		if leave.Recvd == 0 {
			got = "before any of"
		}
		msg = fmt.Sprintf("send on %s blocks forever once the receiver leaves (%s) %s %s values, with room for %d; %s — %s",
			name, where, got, sent, ch.room, leak, hint)
		fixes = c.capacityFix(ch, made, total, starts)
	}
	stop := "the receiver can leave here"
	if leave.Stall {
		stop = "the receiver waits for its senders here"
	}
	related := []analysis.RelatedInformation{{Pos: leavePos, Message: stop}, c.madeHere(ch, made)}
	if o.via != nil && o.via.Pos.IsValid() {
		related = append(related, analysis.RelatedInformation{Pos: o.via.Pos, Message: "the helper sends here"})
	}
	c.report(o, others, i, msg, fixes, related...)
}

// reportFuture reports the sends that feed a future fn returns, whose
// callers are not all in view.
func (c *checker) reportFuture(fn *ssa.Function, ch *channel, i int, targets []*op) {
	made := c.madeName(ch.mk)
	caller := "its caller"
	if fn.Parent() == nil {
		caller = "the caller of " + fn.Name()
	}
	o := targets[0]
	msg := fmt.Sprintf("send on unbuffered %s blocks forever if %s stops waiting for the result; the goroutine leaks — make %s buffered",
		c.opText(o, i, made), caller, made)
	c.report(o, targets[1:], i, msg, c.capacityFix(ch, made, waitpath.One, nil),
		analysis.RelatedInformation{Pos: c.makePos(ch.mk), Message: made + " is made here, unbuffered, and returned"})
}

// report reports the send operation o on channel i, once per
// operation and package, with the other operations the same cause
// strands as related positions (a select reports one of its cases).
func (c *checker) report(o *op, others []*op, i int, msg string, fixes []analysis.SuggestedFix, related ...analysis.RelatedInformation) {
	if c.reported[o.instr.Pos()] {
		return
	}
	for _, x := range others {
		if !c.reported[x.instr.Pos()] {
			c.reported[x.instr.Pos()] = true
			related = append(related, analysis.RelatedInformation{Pos: x.pos[i], End: c.sendEnd(x.pos[i]), Message: "this send blocks too"})
		}
	}
	c.reportAt(o.instr.Pos(), o.pos[i], msg, fixes, related...)
}

// sendEnd returns the end of the send statement at pos, if it is one.
func (c *checker) sendEnd(pos token.Pos) token.Pos {
	if send := c.sends[pos]; send != nil {
		return send.End()
	}
	return token.NoPos
}

// reportAt reports at pos, once per key (the operation's position) and
// package.
func (c *checker) reportAt(key, pos token.Pos, msg string, fixes []analysis.SuggestedFix, related ...analysis.RelatedInformation) {
	if c.reported[key] {
		return
	}
	c.reported[key] = true
	c.pass.Report(analysis.Diagnostic{Pos: pos, End: c.sendEnd(pos), Message: msg, SuggestedFixes: fixes, Related: related})
}

func unbuffered(room int64) string {
	if room == 0 {
		return "unbuffered "
	}
	return ""
}

// madeHere is the related position of the make.
func (c *checker) madeHere(ch *channel, made string) analysis.RelatedInformation {
	how := "unbuffered"
	if ch.room > 0 {
		how = fmt.Sprintf("with capacity %d", ch.room)
	}
	return analysis.RelatedInformation{Pos: c.makePos(ch.mk), Message: fmt.Sprintf("%s is made here, %s", made, how)}
}

// makePos returns the position of the make call of mk.
func (c *checker) makePos(mk *ssa.MakeChan) token.Pos {
	if call := c.makes[mk.Pos()]; call != nil {
		return call.Pos()
	}
	return mk.Pos()
}

// opText names the channel operation o sends on as channel i: the
// channel operand of its send as written, or, for a helper that sends
// on the channel passed to it, the channel with the helper and where
// it sends ("results in produce at walk.go:31").
func (c *checker) opText(o *op, i int, made string) string {
	if o.via == nil {
		return c.chanText(o.pos[i], made)
	}
	callee := o.instr.(ssa.CallInstruction).Common().StaticCallee()
	return fmt.Sprintf("%s in %s at %s", made, calleeName(callee, c.pass.Pkg), o.via.At)
}

// calleeName returns how code in pkg refers to fn: produce, (*Pool).run,
// worker.Produce.
func calleeName(fn *ssa.Function, pkg *types.Package) string {
	if fn.Origin() != nil {
		fn = fn.Origin()
	}
	if fn.Pkg != nil && fn.Pkg.Pkg != pkg {
		return fn.Pkg.Pkg.Name() + "." + fn.RelString(fn.Pkg.Pkg)
	}
	return fn.RelString(pkg)
}

// chanText returns the channel operand of the send at pos as written.
func (c *checker) chanText(pos token.Pos, fallback string) string {
	if send := c.sends[pos]; send != nil {
		return types.ExprString(send.Chan)
	}
	return fallback
}

// madeName returns the name the make's result is given: the variable
// or field it is assigned to, or "the channel".
func (c *checker) madeName(mk *ssa.MakeChan) string {
	call := c.makes[mk.Pos()]
	if call == nil {
		return "the channel"
	}
	path := c.pathTo(call)
	if len(path) < 2 {
		return "the channel"
	}
	switch parent := path[1].(type) {
	case *ast.AssignStmt:
		for i, rhs := range parent.Rhs {
			if rhs == call && i < len(parent.Lhs) {
				return types.ExprString(parent.Lhs[i])
			}
		}
	case *ast.ValueSpec:
		for i, v := range parent.Values {
			if v == call && i < len(parent.Names) {
				return parent.Names[i].Name
			}
		}
	case *ast.KeyValueExpr:
		return types.ExprString(parent.Key)
	}
	return "the channel"
}

// pathTo returns the path from node n up to its file.
func (c *checker) pathTo(n ast.Node) []ast.Node {
	for _, f := range c.pass.Files {
		if f.Pos() <= n.Pos() && n.End() <= f.End() {
			path, _ := astutil.PathEnclosingInterval(f, n.Pos(), n.End())
			return path
		}
	}
	return nil
}

// capacityFix returns the fix that gives the channel made by ch.mk room
// for all n values, when n can be written at the make.
func (c *checker) capacityFix(ch *channel, made string, n waitpath.Count, starts []waitpath.Start) []analysis.SuggestedFix {
	call := c.makes[ch.mk.Pos()]
	text, ok := n.Source()
	if call == nil || !ok || len(call.Args) > 2 {
		return nil
	}
	if n.Expr != "" && !c.sameAt(text, ch.mk.Pos(), starts) {
		return nil
	}
	edit := analysis.TextEdit{Pos: call.Rparen, End: call.Rparen, NewText: []byte(", " + text)}
	if len(call.Args) == 2 {
		edit = analysis.TextEdit{Pos: call.Args[1].Pos(), End: call.Args[1].End(), NewText: []byte(text)}
	}
	return []analysis.SuggestedFix{{
		Message:   fmt.Sprintf("Buffer %s with capacity %s", made, text),
		TextEdits: []analysis.TextEdit{edit},
	}}
}

// sameAt reports whether the expression text, which counts the values of
// the start that set going a run-time number of senders, means the same
// thing at the make (pos) as at that start: every name in it denotes the
// same object in both places.
func (c *checker) sameAt(text string, pos token.Pos, starts []waitpath.Start) bool {
	at := token.NoPos
	for _, s := range starts {
		if s.Sends.Expr != "" {
			at = s.Instr.Pos()
		}
	}
	e, err := parser.ParseExpr(text)
	if err != nil || !at.IsValid() {
		return false
	}
	same := true
	ast.Inspect(e, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.SelectorExpr:
			ast.Inspect(n.X, func(n ast.Node) bool { // n.Sel is a field or method
				if id, ok := n.(*ast.Ident); ok && !c.denotesSame(id.Name, pos, at) {
					same = false
				}
				return true
			})
			return false
		case *ast.Ident:
			if !c.denotesSame(n.Name, pos, at) {
				same = false
			}
		}
		return true
	})
	return same
}

// denotesSame reports whether name denotes the same object at a and b.
func (c *checker) denotesSame(name string, a, b token.Pos) bool {
	lookup := func(pos token.Pos) types.Object {
		scope := c.pass.Pkg.Scope().Innermost(pos)
		if scope == nil {
			return nil
		}
		_, obj := scope.LookupParent(name, pos)
		return obj
	}
	x := lookup(a)
	return x != nil && x == lookup(b)
}

// loopName names the function a user wrote fn in: the method or
// function itself, or the one a literal is declared in.
func loopName(fn *ssa.Function, pkg *types.Package) string {
	return outermost(fn).RelString(pkg)
}

// outermost returns fn, or the function its literal is declared in.
func outermost(fn *ssa.Function) *ssa.Function {
	for fn.Parent() != nil {
		fn = fn.Parent()
	}
	return fn
}
