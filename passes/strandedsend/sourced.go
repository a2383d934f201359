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
