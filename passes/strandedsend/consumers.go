package strandedsend

import (
	"fmt"
	"go/token"
	"slices"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

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
// it (plain sends, at least one in a loop: a stream, which no buffer
// holds), and each goroutine it hands the channel to only receives.
func (c *checker) checkConsumers(fn *ssa.Function, ch *channel) {
	u := ch.uses
	if u.Escape != nil || len(u.Sends) == 0 || len(u.Recvs)+len(u.RecvCases)+len(u.Returns)+len(u.FieldStore)+len(u.Calls) > 0 {
		return
	}
	send := streamSend(fn, u.Sends)
	if send == nil || len(u.Handoffs) == 0 {
		return
	}
	var stops []token.Pos
	for _, h := range u.Handoffs {
		if h.Site == nil || h.Into == nil {
			return
		}
		in := chanuse.Trace(h.Fn, []ssa.Value{h.Into}, spawn.Sites(h.Fn))
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

// streamSend returns the first of sends that lies on a loop of fn: the
// function sends a stream of values, or nil.
func streamSend(fn *ssa.Function, sends []*ssa.Send) *ssa.Send {
	cycle := ssacfg.OnCycle(fn)
	var first *ssa.Send
	for _, s := range sends {
		if cycle[s.Block().Index] && (first == nil || s.Pos() < first.Pos()) {
			first = s
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
			if pos := returnWithoutRecv(fn, s, recvBlocks); pos.IsValid() {
				return pos
			}
		}
	}
	return token.NoPos
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

// returnWithoutRecv returns the position of a return of fn reachable from
// b without passing a block that receives from the channel, or NoPos. A
// receiver that breaks out of its loop and then drains the channel
// (for range ch {}) does not stop early.
func returnWithoutRecv(fn *ssa.Function, b *ssa.BasicBlock, recvBlocks map[*ssa.BasicBlock]bool) token.Pos {
	seen := map[*ssa.BasicBlock]bool{}
	stack := []*ssa.BasicBlock{b}
	for len(stack) > 0 {
		x := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if seen[x] || recvBlocks[x] {
			continue
		}
		seen[x] = true
		if ret, ok := x.Instrs[len(x.Instrs)-1].(*ssa.Return); ok {
			if ret.Pos().IsValid() {
				return ret.Pos()
			}
			return fnEnd(fn)
		}
		stack = append(stack, x.Succs...)
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
