package strandedsend

import (
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"

	"github.com/admitlint/admitlint/internal/match"
	"github.com/admitlint/admitlint/passes/strandedsend/internal/waitpath"
)

// markSourced records the select cases of the receiver that wait for the
// end of a context every sender on group g is bound to: each of its sends
// hands on, with no call between, a value it has just received from a
// source opened with that context (a watch, a subscription: a channel
// that a call given the context returned, directly or through the value
// it returned). By the contract of a call that takes a context, the
// source closes once the context is done; the loop over it ends and the
// sender returns without sending. Receiving from that ctx.Done() then
// leaves nothing pending, as a channel the senders close instead of
// sending does; another case of the same select (a timer) still strands
// them (validation set 35, a pod watch's first event handed on). Only a
// value in flight at the instant of cancellation is left out of the
// model.
//
//	w, _ := client.Watch(ctx, sel)
//	go func() {
//		for ev := range w.ResultChan() {
//			if p, ok := ev.Object.(*Pod); ok {
//				done <- p.Name // ends with the watch when ctx is done
//				return
//			}
//		}
//	}()
//	select {
//	case <-ctx.Done(): // strands nothing
//	case <-time.After(d): // strands the send once a pod shows up
//	case name := <-done:
//	}
func markSourced(q *waitpath.Query, sc *scope, g []int) {
	bound := map[ssa.Value]bool{} // by context: are the senders bound to it
	for _, b := range sc.fn.Blocks {
		for _, instr := range b.Instrs {
			sel, ok := instr.(*ssa.Select)
			if !ok {
				continue
			}
			for _, st := range sel.States {
				ctx := waitpath.DoneOf(st.Chan)
				if st.Dir != types.RecvOnly || ctx == nil || q.Chans[st.Chan] {
					continue
				}
				ok, seen := bound[ctx]
				if !seen {
					ok = sourcedBy(sc, g, ctx)
					bound[ctx] = ok
				}
				if ok {
					q.Done[st.Chan] = true
				}
			}
		}
	}
}

// sourcedBy reports whether every send of the senders on group g hands
// on a value just received from a source bound to ctx, a context of sc.fn.
func sourcedBy(sc *scope, g []int, ctx ssa.Value) bool {
	found := false
	for _, s := range sc.senders {
		if !s.touchesAny(g) {
			continue
		}
		if s.site.Fn == nil {
			return false
		}
		for _, o := range s.ops {
			if !o.touchesAny(g) {
				continue
			}
			send, ok := o.instr.(*ssa.Send)
			if !ok || o.anchor != nil || o.via != nil || send.Parent() != s.site.Fn {
				return false
			}
			src := receivedJustBefore(send)
			if src == nil {
				src = succeededJustBefore(send)
			}
			if src == nil || !(binder{s}).boundTo(src, ctx, 3) {
				return false
			}
			found = true
		}
	}
	return found
}

// receivedJustBefore returns the channel of the receive that every path
// to send passes through last, with no call, send, select or other
// receive between them (a type assertion, a field, a comparison may be
// there), the receive dominating the send and the send made only when it
// got a value. Nil if there is none.
func receivedJustBefore(send *ssa.Send) ssa.Value {
	recv, clean := lastRecv(send.Block(), send)
	if !clean {
		return nil
	}
	if recv == nil {
		recv = lastRecvOnEveryPath(send.Block())
	}
	if recv == nil || !recv.Block().Dominates(send.Block()) || !received(recv, send.Block()) {
		return nil
	}
	return recv.X
}

// lastRecvOnEveryPath walks back from block to through its predecessors
// and returns the one receive that ends every walk, or nil when a walk
// meets blocking work, reaches the entry, or ends at another receive.
func lastRecvOnEveryPath(to *ssa.BasicBlock) *ssa.UnOp {
	var recv *ssa.UnOp
	seen := map[*ssa.BasicBlock]bool{to: true}
	work := slices.Clone(to.Preds)
	for len(work) > 0 {
		b := work[len(work)-1]
		work = work[:len(work)-1]
		if seen[b] {
			continue
		}
		seen[b] = true
		r, clean := lastRecv(b, nil)
		switch {
		case r != nil:
			if recv != nil && recv != r {
				return nil
			}
			recv = r
		case !clean || len(b.Preds) == 0:
			return nil
		default:
			work = append(work, b.Preds...)
		}
	}
	return recv
}

// received reports whether block b runs only when the comma-ok receive
// recv got a value: b is dominated by the branch on its ok being true. A
// plain receive from a closed source gives the zero value, which is then
// sent all the same.
func received(recv *ssa.UnOp, b *ssa.BasicBlock) bool {
	if !recv.CommaOk {
		return false
	}
	for _, ref := range *recv.Referrers() {
		ok, isExtract := ref.(*ssa.Extract)
		if !isExtract || ok.Index != 1 {
			continue
		}
		for _, use := range *ok.Referrers() {
			if br, isIf := use.(*ssa.If); isIf && br.Block().Succs[0].Dominates(b) && len(br.Block().Succs[0].Preds) == 1 {
				return true
			}
		}
	}
	return false
}

// lastRecv scans block b backwards from instruction stop (from its end
// when stop is nil) and returns the first receive met, or, when none is,
// whether no call, send or select was met either.
func lastRecv(b *ssa.BasicBlock, stop ssa.Instruction) (*ssa.UnOp, bool) {
	end := len(b.Instrs)
	if stop != nil {
		end = slices.Index(b.Instrs, stop)
	}
	for i := end - 1; i >= 0; i-- {
		switch instr := b.Instrs[i].(type) {
		case *ssa.UnOp:
			if instr.Op == token.ARROW {
				return instr, true
			}
		case ssa.CallInstruction, *ssa.Send, *ssa.Select:
			return nil, false
		}
	}
	return nil, true
}

// succeededJustBefore returns the call whose success send depends on:
// send runs only on the branch where the call's error result is nil,
// what it sends is made of the call's results, the sender's own
// variables and constants, with no call making it, and nothing between
// that branch and the send can wait (a send, a select, a receive, a call
// given a context, a channel or a function). Nil if there is none.
//
//	resp, err := p.Answer(ctx, slot)
//	if err != nil {
//		return // no send when the call fails
//	}
//	log.Printf("answered")
//	ch <- resp.Data
func succeededJustBefore(send *ssa.Send) ssa.Value {
	for b := send.Block(); b != nil; b = b.Idom() {
		if len(b.Preds) != 1 {
			continue
		}
		call := succeededOn(b.Preds[0], b)
		if call == nil {
			continue
		}
		if quietBetween(b, send) && madeOf(send.X, call, 4) {
			return call
		}
		return nil
	}
	return nil
}

// succeededOn returns the call whose error result the branch at the end
// of block from tests, when to is the branch taken on a nil error.
func succeededOn(from, to *ssa.BasicBlock) *ssa.Call {
	br, ok := from.Instrs[len(from.Instrs)-1].(*ssa.If)
	if !ok {
		return nil
	}
	cmp, ok := br.Cond.(*ssa.BinOp)
	if !ok || cmp.Op != token.EQL && cmp.Op != token.NEQ {
		return nil
	}
	errv := cmp.X
	if c, isConst := errv.(*ssa.Const); isConst && c.IsNil() {
		errv = cmp.Y
	} else if c, isConst := cmp.Y.(*ssa.Const); !isConst || !c.IsNil() {
		return nil
	}
	ext, ok := errv.(*ssa.Extract)
	if !ok || !match.IsError(ext.Type()) {
		return nil
	}
	call, ok := ext.Tuple.(*ssa.Call)
	if !ok || ext.Index != call.Type().(*types.Tuple).Len()-1 {
		return nil
	}
	nilBranch := from.Succs[0] // err == nil
	if cmp.Op == token.NEQ {
		nilBranch = from.Succs[1]
	}
	if nilBranch != to {
		return nil
	}
	return call
}

// quietBetween reports whether nothing on the way from the start of
// block from (which dominates send) to send can wait.
func quietBetween(from *ssa.BasicBlock, send *ssa.Send) bool {
	seen := map[*ssa.BasicBlock]bool{}
	work := []*ssa.BasicBlock{send.Block()}
	for len(work) > 0 {
		b := work[len(work)-1]
		work = work[:len(work)-1]
		if seen[b] {
			continue
		}
		seen[b] = true
		var stop ssa.Instruction
		if b == send.Block() {
			stop = send
		}
		if mayWait(b, stop) {
			return false
		}
		if b != from {
			work = append(work, b.Preds...)
		}
	}
	return true
}

// mayWait reports whether block b, up to instruction stop (all of it when
// stop is nil), holds a send, a select, a receive, or a call given a
// context, a channel or a function: something that can wait for another
// goroutine.
func mayWait(b *ssa.BasicBlock, stop ssa.Instruction) bool {
	for _, instr := range b.Instrs {
		if instr == stop {
			return false
		}
		switch instr := instr.(type) {
		case *ssa.Send, *ssa.Select, *ssa.Go, *ssa.Defer:
			return true
		case *ssa.UnOp:
			if instr.Op == token.ARROW {
				return true
			}
		case *ssa.Call:
			for _, a := range callOperands(instr.Common()) {
				if couldSignal(a.Type()) {
					return true
				}
			}
		}
	}
	return false
}

// madeOf reports whether v is made of call's results and values the
// goroutine had before it (parameters, captures, constants), through
// fields, elements, conversions and struct literals, with no call.
func madeOf(v ssa.Value, call *ssa.Call, depth int) bool {
	if depth == 0 {
		return false
	}
	switch v := v.(type) {
	case *ssa.Extract:
		return v.Tuple == call
	case *ssa.Parameter, *ssa.FreeVar, *ssa.Const, *ssa.Global:
		return true
	case *ssa.Field:
		return madeOf(v.X, call, depth)
	case *ssa.FieldAddr:
		return madeOf(v.X, call, depth)
	case *ssa.Index:
		return madeOf(v.X, call, depth)
	case *ssa.IndexAddr:
		return madeOf(v.X, call, depth)
	case *ssa.ChangeType:
		return madeOf(v.X, call, depth)
	case *ssa.MakeInterface:
		return madeOf(v.X, call, depth)
	case *ssa.UnOp:
		return v.Op == token.MUL && madeOf(v.X, call, depth)
	case *ssa.Alloc:
		// A struct literal: what is stored into its fields.
		for _, ref := range *v.Referrers() {
			fa, ok := ref.(*ssa.FieldAddr)
			if !ok {
				continue
			}
			for _, use := range *fa.Referrers() {
				if st, ok := use.(*ssa.Store); ok && st.Addr == fa && !madeOf(st.Val, call, depth-1) {
					return false
				}
			}
		}
		return true
	}
	return false
}

// A binder reads values of a goroutine's function as the values of the
// spawning function they stand for: a free variable as its binding, a
// parameter as the go statement's argument.
type binder struct{ s *sender }

func (b binder) outside(v ssa.Value) ssa.Value {
	if o := outerValue(b.s.site, v); o != nil {
		return o
	}
	return v
}

// root returns the variable a load reads (seen from the spawning
// function), or the value itself.
func (b binder) root(v ssa.Value) ssa.Value {
	if u, ok := v.(*ssa.UnOp); ok && u.Op == token.MUL {
		return b.root(b.outside(u.X))
	}
	return b.outside(v)
}

// boundTo reports whether v comes from a call given ctx, a context of
// the spawning function, or a value bound to it, within depth calls: the
// call's result, an element of it, or what a method of it returns.
func (b binder) boundTo(v, ctx ssa.Value, depth int) bool {
	v = b.outside(v)
	if b.root(v) == b.root(ctx) {
		return true
	}
	if depth == 0 {
		return false
	}
	switch v := v.(type) {
	case *ssa.Extract:
		return b.boundTo(v.Tuple, ctx, depth)
	case *ssa.UnOp:
		if v.Op == token.MUL {
			return b.storedBound(b.outside(v.X), ctx, depth)
		}
	case *ssa.ChangeType:
		return b.boundTo(v.X, ctx, depth)
	case *ssa.ChangeInterface:
		return b.boundTo(v.X, ctx, depth)
	case *ssa.MakeInterface:
		return b.boundTo(v.X, ctx, depth)
	case *ssa.Call:
		if match.Callee(v) == nil {
			return false // a call of a function value: nothing known of it
		}
		for _, a := range callOperands(v.Common()) {
			if b.boundTo(a, ctx, depth-1) {
				return true
			}
		}
	}
	return false
}

// storedBound reports whether addr is a local variable of the spawning
// function every value stored to which is bound to ctx, and that no
// closure capturing it assigns.
func (b binder) storedBound(addr, ctx ssa.Value, depth int) bool {
	alloc, ok := addr.(*ssa.Alloc)
	if !ok {
		return false
	}
	stored := false
	for _, ref := range *alloc.Referrers() {
		switch ref := ref.(type) {
		case *ssa.Store:
			if ref.Addr != alloc {
				return false // the variable's address stored elsewhere
			}
			if !b.boundTo(ref.Val, ctx, depth) {
				return false
			}
			stored = true
		case *ssa.MakeClosure:
			fn := ref.Fn.(*ssa.Function)
			for i, v := range ref.Bindings {
				if v == alloc && isAssigned(fn.FreeVars[i]) {
					return false
				}
			}
		case *ssa.UnOp, *ssa.DebugRef:
		default:
			return false // passed on: someone else may assign it
		}
	}
	return stored
}

// callOperands returns the receiver and arguments of a call.
func callOperands(call *ssa.CallCommon) []ssa.Value {
	if call.IsInvoke() {
		return append([]ssa.Value{call.Value}, call.Args...)
	}
	return call.Args
}
