package lateacquire

import (
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/admitlint/admitlint/internal/ssacfg"
)

// A releaseSearch looks, on a goroutine's code, for the release that
// makes a channel operation the acquire of a channel semaphore.
type releaseSearch struct {
	c     *checker
	acq   ssa.Instruction // the acquiring send, receive or select
	ch    ssa.Value       // its channel
	chFr  *frame          // the frame of acq
	sends bool            // the acquire sends (the release receives)
	// deferredOnly: the channel's capacity is unknown, and only a
	// deferred release shows it to be a semaphore.
	deferredOnly bool

	// The goroutine frame being searched, and its instruction that is or
	// leads to the acquire: where a release must follow on every path.
	top    *frame
	anchor ssa.Instruction
}

// isChanAcquire reports whether the channel operation acq on ch, in frame
// fr, takes a permit of a channel semaphore: the goroutine gives it back
// on the same channel. After a send (sem <- struct{}{}), the release is a
// receive that discards the value (<-sem), deferred or later. After a
// receive (the token form, tok := <-tokens), the release is a send back
// on the same channel that is deferred or made on every path to a
// return; a send made only on some paths is how a job is requeued, not
// how a token is returned. An unbuffered channel is never a semaphore: its
// sends and receives are hand-offs between goroutines. For a channel made
// out of view, whose capacity is unknown, a release counts when it is
// deferred or the channel carries tokens (chan struct{}, chan bool): a
// send of a value followed later by a receive on the same channel may as
// well be a request and its acknowledgement.
//
// A send back of a value computed from the one received (off := <-next;
// next <- off + n) is no release: the channel holds a value each user
// changes, a lock around it (an offset, a counter), and the wait is for
// the others' updates, not for their work (validation set 40, an
// allocator of offsets in a shared file).
//
// The release is looked for in the function of fr and in each function
// of the goroutine that called it (an acquire wrapper's caller releases),
// with the closures they make and the package's functions they call.
func (c *checker) isChanAcquire(fr *frame, acq ssa.Instruction, ch ssa.Value, sends bool) bool {
	if _, ok := ch.Type().Underlying().(*types.Chan); !ok {
		return false
	}
	room, known := c.room(ch, fr)
	if known && !room {
		return false // unbuffered: a hand-off between goroutines, not a permit
	}
	s := &releaseSearch{c: c, acq: acq, ch: ch, chFr: fr, sends: sends, anchor: acq, deferredOnly: !known && !isTokenChan(ch.Type())}
	for f := fr; f != nil && f.goroutine; f = f.parent {
		s.top = f
		if s.in(f, nil, false, 0) {
			return true
		}
		s.anchor = f.via
	}
	return false
}

// in reports whether the function of frame f, or a closure it makes, or
// one of the package's functions it calls, releases the channel.
// deferred says that f runs as a deferred call; at is the block of s.top
// whose instruction led to f (nil when f is s.top).
func (s *releaseSearch) in(f *frame, at *ssa.BasicBlock, deferred bool, depth int) bool {
	for _, b := range f.fn.Blocks {
		blockAt := at
		if blockAt == nil {
			blockAt = b
		}
		for _, instr := range b.Instrs {
			if instr == s.acq {
				continue
			}
			switch x := instr.(type) {
			case *ssa.UnOp:
				if x.Op == token.ARROW && s.sends && len(*x.Referrers()) == 0 && s.same(x.X, f) && (deferred || !s.deferredOnly) {
					return true
				}
			case *ssa.Send:
				if !s.sends && s.same(x.Chan, f) && !s.updates(x.X, f) && (deferred || s.mustPass(blockAt)) {
					return true
				}
			case *ssa.Select:
				for _, st := range x.States {
					if (st.Dir == types.RecvOnly) == s.sends && s.same(st.Chan, f) && (s.sends || deferred) &&
						(s.sends || !s.updates(st.Send, f)) {
						return true
					}
				}
			case *ssa.MakeClosure:
				if depth < maxDepth {
					sub := &frame{fn: x.Fn.(*ssa.Function), bindings: x.Bindings, parent: f, goroutine: true}
					if s.in(sub, blockAt, deferred || isDeferred(x), depth+1) {
						return true
					}
				}
			case ssa.CallInstruction:
				g := x.Common().StaticCallee()
				if depth < maxDepth && g != nil && g.Pkg == f.fn.Pkg && len(g.FreeVars) == 0 && len(g.Blocks) > 0 {
					_, isDefer := x.(*ssa.Defer)
					sub := &frame{fn: g, args: x.Common().Args, parent: f, goroutine: true}
					if s.in(sub, blockAt, deferred || isDefer, depth+1) {
						return true
					}
				}
			}
		}
	}
	return false
}

// same reports whether v, of frame f, is the acquired channel.
func (s *releaseSearch) same(v ssa.Value, f *frame) bool {
	return s.c.samePlace(v, f, s.ch, s.chFr)
}

// isDeferred reports whether the closure mc is called by a defer.
func isDeferred(mc *ssa.MakeClosure) bool {
	for _, ref := range *mc.Referrers() {
		if d, ok := ref.(*ssa.Defer); ok && d.Call.Value == mc {
			return true
		}
	}
	return false
}

// mustPass reports whether every path from the anchor (the acquire, or
// the call leading to it) to a return of s.top's function passes through
// block rel of that function.
func (s *releaseSearch) mustPass(rel *ssa.BasicBlock) bool {
	from := s.anchor.Block()
	if from == rel {
		return true // the release follows the acquire in the same block
	}
	seen := make([]bool, len(s.top.fn.Blocks))
	stack := []*ssa.BasicBlock{from}
	seen[from.Index] = true
	for len(stack) > 0 {
		b := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if _, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return); ok {
			return false
		}
		for _, succ := range b.Succs {
			if succ != rel && !seen[succ.Index] {
				seen[succ.Index] = true
				stack = append(stack, succ)
			}
		}
	}
	return true
}

// isTokenChan reports whether t is a channel of values that carry no
// data: struct{} or bool, what channel semaphores hold.
func isTokenChan(t types.Type) bool {
	ch, ok := t.Underlying().(*types.Chan)
	if !ok {
		return false
	}
	switch e := ch.Elem().Underlying().(type) {
	case *types.Struct:
		return e.NumFields() == 0
	case *types.Basic:
		return e.Kind() == types.Bool
	}
	return false
}

// updates reports whether v, sent back on the channel in frame f, is
// computed from the value the token-form acquire received: arithmetic
// on it, through conversions, phis, parameters and captured values. The
// received value sent back as it is, converted or not, is a token.
func (s *releaseSearch) updates(v ssa.Value, f *frame) bool {
	return s.fromReceived(v, f, false, 0)
}

// fromReceived reports whether v, of frame f, reaches the received value
// with at least one arithmetic step on the way (changed says one was
// already taken).
func (s *releaseSearch) fromReceived(v ssa.Value, f *frame, changed bool, depth int) bool {
	if depth > maxUpdateSteps || v == nil {
		return false
	}
	if s.received(v) {
		return changed
	}
	switch x := v.(type) {
	case *ssa.UnOp:
		switch x.Op {
		case token.SUB, token.XOR:
			return s.fromReceived(x.X, f, true, depth+1)
		case token.MUL:
			// A variable a closure captures, set once: its value.
			addr, af := x.X, f
			for _, ok := addr.(*ssa.FreeVar); ok; _, ok = addr.(*ssa.FreeVar) {
				if addr, af = af.outer(addr); addr == nil {
					return false
				}
			}
			if alloc, ok := addr.(*ssa.Alloc); ok {
				if kept := ssacfg.KeptValue(alloc); kept != nil {
					return s.fromReceived(kept, af, changed, depth+1)
				}
			}
		}
	case *ssa.BinOp:
		return s.fromReceived(x.X, f, true, depth+1) || s.fromReceived(x.Y, f, true, depth+1)
	case *ssa.Convert:
		return s.fromReceived(x.X, f, changed, depth+1)
	case *ssa.ChangeType:
		return s.fromReceived(x.X, f, changed, depth+1)
	case *ssa.Phi:
		for _, e := range x.Edges {
			if s.fromReceived(e, f, changed, depth+1) {
				return true
			}
		}
	case *ssa.Parameter, *ssa.FreeVar:
		if w, wf := f.outer(x); w != nil {
			return s.fromReceived(w, wf, changed, depth+1)
		}
	}
	return false
}

// received reports whether v is the value the token-form acquire (a
// receive) took: the receive, or the value of its comma-ok form.
func (s *releaseSearch) received(v ssa.Value) bool {
	recv, ok := s.acq.(*ssa.UnOp)
	if !ok {
		return false
	}
	if x, ok := v.(*ssa.Extract); ok && recv.CommaOk {
		return x.Tuple == recv && x.Index == 0
	}
	return v == ssa.Value(recv)
}

// maxUpdateSteps bounds the values fromReceived looks through.
const maxUpdateSteps = 10
