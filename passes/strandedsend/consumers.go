package strandedsend

import (
	"fmt"
	"go/token"
	"slices"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/admitlint/admitlint/internal/match"
	"github.com/admitlint/admitlint/internal/spawn"
	"github.com/admitlint/admitlint/internal/ssacfg"
	"github.com/admitlint/admitlint/passes/strandedsend/internal/chanuse"
	"github.com/admitlint/admitlint/passes/strandedsend/internal/waitpath"
)

// checkConsumers reports the other direction of a stranded send: the
// function is the sender, streaming values to the goroutines it starts,
// and every one of those receivers can stop receiving before the channel
// is closed (it returns on an error, breaks out of its loop, or leaves on
// ctx.Done()). Once they all have, the function's next plain send blocks
// forever, and with it the function:
//
//	g := new(errgroup.Group)
//	for range workers {
//		g.Go(func() error {
//			for p := range paths {
//				if err := upload(p); err != nil {
//					return err // this receiver stops early
//				}
//			}
//			return nil
//		})
//	}
//	for _, p := range all {
//		paths <- p // blocks forever once every receiver has returned
//	}
//
// It needs the channel's every use in view: the function only sends on
// it (plain sends, at least one in a loop after the receivers are
// started: a stream, which no buffer holds), and each goroutine it hands
// the channel to only receives. A receiver stops early only on a failure
// (a return or break on a non-nil error) or on a cancellation signal
// (ctx.Done(), a timer): a receiver that stops after a set number of
// values, or on a signal the function gives itself (a done channel it
// makes, closed once it has sent everything), follows a protocol the
// function keeps.
func (c *checker) checkConsumers(fn *ssa.Function, ch *channel) {
	u := ch.uses
	if u.Escape != nil || len(u.Sends) == 0 || len(u.Recvs)+len(u.RecvCases)+len(u.Returns)+len(u.FieldStore)+len(u.Calls) > 0 {
		return
	}
	send := streamSend(fn, ch.mk, u.Sends, u.Handoffs)
	if send == nil {
		return
	}
	var stops []token.Pos
	for _, h := range u.Handoffs {
		if h.Site == nil || h.Into == nil {
			return
		}
		in := chanuse.TraceHandoff(h, spawn.Sites(h.Fn), nil)
		if in.Escape != nil || len(in.Recvs)+len(in.RecvCases) == 0 ||
			len(in.Sends)+len(in.SendCases)+len(in.Closes)+len(in.Handoffs)+len(in.Returns)+len(in.FieldStore)+len(in.Calls) > 0 {
			return
		}
		stop := stopsEarly(h.Fn, in)
		if !stop.IsValid() {
			return // this receiver takes every value until the close
		}
		stops = append(stops, stop)
	}
	c.reportConsumers(fn, ch, send, stops[0])
}

// streamSend returns the first of sends that lies on a loop of fn that
// does not also make the channel (mk), and can run after one of the
// spawns (the handoffs) has started a receiver: the function sends a
// stream of values to running receivers. It returns nil if there is
// none: values sent before any receiver runs are the buffer's business,
// and a loop that makes a channel per trip sends each one value.
func streamSend(fn *ssa.Function, mk *ssa.MakeChan, sends []*ssa.Send, spawns []chanuse.Handoff) *ssa.Send {
	loops := ssacfg.Loops(fn)
	var first *ssa.Send
	for _, s := range sends {
		if first != nil && s.Pos() >= first.Pos() || !slices.ContainsFunc(loops, func(l *ssacfg.Loop) bool {
			return l.Has(s.Block()) && !l.Has(mk.Block())
		}) {
			continue
		}
		for _, h := range spawns {
			if h.Site != nil && reaches(h.Instr, s) {
				first = s
				break
			}
		}
	}
	return first
}

// stopsEarly returns where the receiving goroutine fn (whose uses of the
// channel are u) can stop receiving while the channel is open: a way out
// of its loop of receives other than the one a closed channel takes, from
// which it returns without receiving again. It returns NoPos if there is
// none, or if fn does not receive in a loop.
func stopsEarly(fn *ssa.Function, u *chanuse.Uses) token.Pos {
	recvBlocks := map[*ssa.BasicBlock]bool{}
	for _, r := range u.Recvs {
		recvBlocks[r.Block()] = true
	}
	for _, rc := range u.RecvCases {
		recvBlocks[rc.Select.Block()] = true
	}
	loops := ssacfg.Loops(fn)
	for _, r := range recvInstrs(u) { // in order: the first stop found is the one named
		for _, l := range loops {
			if l.Has(r.Block()) {
				if pos := loopExit(fn, l, u, recvBlocks); pos.IsValid() {
					return pos
				}
			}
		}
	}
	return token.NoPos
}

// recvInstrs returns the receives of u, and the selects receiving, in
// instruction order.
func recvInstrs(u *chanuse.Uses) []ssa.Instruction {
	var all []ssa.Instruction
	for _, r := range u.Recvs {
		all = append(all, r)
	}
	for _, rc := range u.RecvCases {
		all = append(all, rc.Select)
	}
	slices.SortFunc(all, func(a, b ssa.Instruction) int { return int(a.Pos() - b.Pos()) })
	return all
}

// loopExit returns the position of a return reached by leaving loop l
// other than on the channel's close, without receiving again.
func loopExit(fn *ssa.Function, l *ssacfg.Loop, u *chanuse.Uses, recvBlocks map[*ssa.BasicBlock]bool) token.Pos {
	for _, b := range fn.Blocks {
		if !l.Has(b) {
			continue
		}
		for _, s := range b.Succs {
			if l.Has(s) || isClosedExit(b, s, u) {
				continue
			}
			if pos := returnWithoutRecv(fn, b, s, recvBlocks); pos.IsValid() {
				return pos
			}
		}
	}
	return token.NoPos
}

// isFailureOrCancel reports whether the edge from b to s is taken on a
// failure or a cancellation: b ends in a test of an error against nil
// (if err != nil), taken on its non-nil side, or s is the body of a
// select case on a cancellation signal (ctx.Done(), a timer).
func isFailureOrCancel(b, s *ssa.BasicBlock) bool {
	br, ok := b.Instrs[len(b.Instrs)-1].(*ssa.If)
	if !ok {
		return false
	}
	if x, isNil := waitpath.NilCompared(br.Cond); x != nil && match.IsError(x.Type()) {
		nonNil := b.Succs[0]
		if isNil {
			nonNil = b.Succs[1]
		}
		return s == nonNil
	}
	for i := range b.Succs {
		if b.Succs[i] != s || i != 0 {
			continue
		}
		if sel, index := selectCaseOf(br); sel != nil && index >= 0 && match.IsCancelSignal(sel.States[index].Chan) {
			return true
		}
	}
	return false
}

// selectCaseOf returns the select and the case index that br dispatches
// on (if index == i, the case body), or nil.
func selectCaseOf(br *ssa.If) (*ssa.Select, int) {
	cmp, ok := br.Cond.(*ssa.BinOp)
	if !ok || cmp.Op != token.EQL {
		return nil, -1
	}
	ex, ok := cmp.X.(*ssa.Extract)
	k, isConst := cmp.Y.(*ssa.Const)
	if !ok || !isConst || ex.Index != 0 {
		return nil, -1
	}
	sel, ok := ex.Tuple.(*ssa.Select)
	if !ok {
		return nil, -1
	}
	return sel, int(k.Int64())
}

// isClosedExit reports whether the edge from b to s is taken when a
// receive from the channel found it closed: b ends in if ok (or if !ok)
// on the comma-ok result of such a receive.
//
//	t1 = <-ch,ok
//	t2 = extract t1 #1
//	if t2 goto 2 else 3   // 3: the channel is closed
func isClosedExit(b, s *ssa.BasicBlock, u *chanuse.Uses) bool {
	br, ok := b.Instrs[len(b.Instrs)-1].(*ssa.If)
	if !ok {
		return false
	}
	cond, negated := br.Cond, false
	if not, ok := cond.(*ssa.UnOp); ok && not.Op == token.NOT {
		cond, negated = not.X, true
	}
	if load, ok := cond.(*ssa.UnOp); ok && load.Op == token.MUL {
		cond = storedOK(load)
	}
	ex, ok := cond.(*ssa.Extract)
	if !ok || ex.Index != 1 || !isRecvOn(ex.Tuple, u) {
		return false
	}
	closed := br.Block().Succs[1]
	if negated {
		closed = br.Block().Succs[0]
	}
	return s == closed
}

// storedOK returns the value stored in the variable load reads, when it
// is stored once: the ok of v, ok := <-ch kept in a local variable.
func storedOK(load *ssa.UnOp) ssa.Value {
	var val ssa.Value
	for _, ref := range *load.X.Referrers() {
		if st, ok := ref.(*ssa.Store); ok && st.Addr == load.X {
			if val != nil {
				return nil
			}
			val = st.Val
		}
	}
	return val
}

// isRecvOn reports whether t is a comma-ok receive from the channel, or
// a select receiving from it (whose ok is that case's, in its body).
func isRecvOn(t ssa.Value, u *chanuse.Uses) bool {
	switch t := t.(type) {
	case *ssa.UnOp:
		return t.Op == token.ARROW && u.Values[t.X]
	case *ssa.Select:
		for _, st := range t.States {
			if u.Values[st.Chan] {
				return true
			}
		}
	}
	return false
}

// returnWithoutRecv returns the position of a return of fn reachable
// through the edge from b to s without passing a block that receives
// from the channel, on a path that took a failure or a cancellation (see
// isFailureOrCancel); or NoPos. A receiver that breaks out of its loop
// and then drains the channel (for range ch {}) does not stop early.
func returnWithoutRecv(fn *ssa.Function, b, s *ssa.BasicBlock, recvBlocks map[*ssa.BasicBlock]bool) token.Pos {
	type step struct {
		b      *ssa.BasicBlock
		failed bool
	}
	seen := map[step]bool{}
	stack := []step{{s, isFailureOrCancel(b, s)}}
	for len(stack) > 0 {
		x := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if seen[x] || recvBlocks[x.b] {
			continue
		}
		seen[x] = true
		if ret, ok := x.b.Instrs[len(x.b.Instrs)-1].(*ssa.Return); ok {
			if !x.failed {
				continue
			}
			if ret.Pos().IsValid() {
				return ret.Pos()
			}
			return fnEnd(fn)
		}
		for _, succ := range x.b.Succs {
			stack = append(stack, step{succ, x.failed || isFailureOrCancel(x.b, succ)})
		}
	}
	return token.NoPos
}

// fnEnd returns the closing brace of fn: its implicit return.
func fnEnd(fn *ssa.Function) token.Pos {
	if syn := fn.Syntax(); syn != nil {
		return syn.End() - 1
	}
	return fn.Pos()
}

// reportConsumers reports the function's stream send on a channel whose
// receivers can all stop early.
func (c *checker) reportConsumers(fn *ssa.Function, ch *channel, send *ssa.Send, stop token.Pos) {
	made := c.madeName(ch.mk)
	msg := fmt.Sprintf("send on %s blocks forever once every goroutine receiving from it has stopped (return at %s); %s leaks — select on ctx.Done() or a done channel as well",
		c.chanText(send.Pos(), made), waitpath.Where(c.pass.Fset, stop), loopName(fn, c.pass.Pkg))
	related := []analysis.RelatedInformation{
		{Pos: stop, Message: "a receiver can stop here"},
		c.madeHere(ch, made),
	}
	c.reportAt(send.Pos(), send.Pos(), msg, nil, related...)
}
