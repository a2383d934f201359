package waitpath

import (
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"

	"github.com/admitlint/admitlint/internal/ssacfg"
)

// classifyLoops sorts the loops that receive (and do not contain the
// make) into counted or draining loops and the others, records the trip
// count of those that receive on every iteration, and finds the ifs that
// end each normally. Inner loops go first: a pass through an inner loop
// that receives on every iteration counts as a receive of the outer one.
func (s *search) classifyLoops() {
	loops := slices.Clone(s.loops)
	slices.SortStableFunc(loops, func(a, b *ssacfg.Loop) int { return a.Size - b.Size })
	for _, l := range loops {
		if l.Has(s.made) {
			continue
		}
		pos, depth := s.recvPos(l)
		if !pos.IsValid() {
			continue
		}
		s.kind[l] = recvInOtherLoop
		if s.drains(l) {
			s.kind[l] = recvInKnownLoop
			continue
		}
		trip, stmt, counted := LoopTrip(s.q.Fn, s.q.Info, pos, depth)
		counted = counted && !(stmt.Pos() <= s.q.Made.Pos() && s.q.Made.Pos() < stmt.End())
		if counted {
			s.kind[l] = recvInKnownLoop
		} else {
			trip = Count{Many: true}
		}
		if counted && trip.Constant() && !trip.Many {
			s.constTrips[l] = trip.N
		}
		switch {
		case s.everyIterationReceives(l):
			s.trips[l] = trip
		case counted && trip.Expr != "" && s.everyIteration(l, s.waitsIn):
			s.waits[l] = trip
		}
		s.findControl(l)
		if c, ok := s.counterOf(l); ok {
			s.counters[l] = c
		}
	}
}

// recvPos returns the position of a receive in loop l, and how many
// loops inside l enclose it.
func (s *search) recvPos(l *ssacfg.Loop) (token.Pos, int) {
	for _, b := range s.q.Fn.Blocks {
		if !l.Has(b) {
			continue
		}
		for _, instr := range b.Instrs {
			var pos token.Pos
			switch instr := instr.(type) {
			case *ssa.UnOp:
				if instr.Op == token.ARROW && s.q.Chans[instr.X] {
					pos = instr.Pos()
				}
			case *ssa.Select:
				for _, st := range instr.States {
					if st.Dir == types.RecvOnly && s.q.Chans[st.Chan] {
						pos = st.Pos
					}
				}
			}
			if pos.IsValid() {
				depth := 0
				for _, inner := range s.loops {
					if inner != l && inner.Has(b) && inner.Size < l.Size && l.Has(inner.Header) {
						depth++
					}
				}
				return pos, depth
			}
		}
	}
	return token.NoPos, 0
}

// findControl records the ifs that end loop l normally: an if with one
// edge in the loop and one out of it, in its header or testing an
// ordering (i < n; range loops also test 0 < n before entering). Other
// exits (a break on err != nil, a return) leave early.
func (s *search) findControl(l *ssacfg.Loop) {
	for _, b := range s.q.Fn.Blocks {
		cond, ok := b.Instrs[len(b.Instrs)-1].(*ssa.If)
		if !ok || l.Has(b.Succs[0]) == l.Has(b.Succs[1]) || s.control[cond] != nil {
			continue // not an exit, or an inner loop's
		}
		if _, isCase := s.dispatch[cond]; isCase || s.closed[cond] {
			continue // a select case or a closed channel, not the loop's test
		}
		if b == l.Header || isOrdering(cond.Cond) {
			s.control[cond] = l
		}
	}
}

// isOrdering reports whether v is an ordered comparison (<, >, <=, >=)
// or the ok of a range iteration step.
func isOrdering(v ssa.Value) bool {
	switch v := v.(type) {
	case *ssa.BinOp:
		return v.Op == token.LSS || v.Op == token.GTR || v.Op == token.LEQ || v.Op == token.GEQ
	case *ssa.Extract:
		_, next := v.Tuple.(*ssa.Next)
		return next && v.Index == 0
	}
	return false
}

// drains reports whether l leaves when a receive finds the channel closed.
func (s *search) drains(l *ssacfg.Loop) bool {
	for cond, closed := range s.closed {
		if closed && l.Has(cond.Block()) && !l.Has(cond.Block().Succs[1]) {
			return true
		}
	}
	return false
}

// everyIterationReceives reports whether every path around l, from its
// header back to it, receives from the channel.
func (s *search) everyIterationReceives(l *ssacfg.Loop) bool {
	return s.everyIteration(l, s.receivesIn)
}

// everyIteration reports whether every path around l, from its header
// back to it, passes a block of which in holds, or receives from the
// channel in a select case.
func (s *search) everyIteration(l *ssacfg.Loop, in func(*ssa.BasicBlock) bool) bool {
	if in(l.Header) {
		return true
	}
	seen := make([]bool, len(s.q.Fn.Blocks))
	stack := []*ssa.BasicBlock{l.Header}
	for len(stack) > 0 {
		b := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for i, succ := range b.Succs {
			if !l.Has(succ) || s.isRecvEdge(b, i) || s.isDeadEdge(b, i) || s.isInnerExit(l, b, i) {
				continue
			}
			if succ == l.Header {
				return false
			}
			if !seen[succ.Index] && !in(succ) {
				seen[succ.Index] = true
				stack = append(stack, succ)
			}
		}
	}
	return true
}

// receivesIn reports whether block b receives from the channel.
func (s *search) receivesIn(b *ssa.BasicBlock) bool {
	for _, instr := range b.Instrs {
		if u, ok := instr.(*ssa.UnOp); ok && u.Op == token.ARROW && s.q.Chans[u.X] {
			return true
		}
	}
	return false
}

// waitsIn reports whether block b waits for the channel: it receives
// from it, or selects with a case receiving from it.
func (s *search) waitsIn(b *ssa.BasicBlock) bool {
	if s.receivesIn(b) {
		return true
	}
	for _, instr := range b.Instrs {
		if sel, ok := instr.(*ssa.Select); ok && slices.ContainsFunc(sel.States, func(st *ssa.SelectState) bool {
			return st.Dir == types.RecvOnly && s.q.Chans[st.Chan]
		}) {
			return true
		}
	}
	return false
}

// isDeadEdge reports whether successor i of b is the body of a select
// case that never fires.
func (s *search) isDeadEdge(b *ssa.BasicBlock, i int) bool {
	ch, ok := s.recvCase(b, i)
	return ok && s.q.Never[ch]
}

// isRecvEdge reports whether successor i of b is the body of a select
// case receiving from the channel.
func (s *search) isRecvEdge(b *ssa.BasicBlock, i int) bool {
	ch, ok := s.recvCase(b, i)
	return ok && s.q.Chans[ch]
}

// recvCase returns the channel of the select case whose body is successor
// i of b, when that case receives: go/ssa dispatches a select's cases
// through a chain of ifs, each taking its true edge into one case body.
func (s *search) recvCase(b *ssa.BasicBlock, i int) (ssa.Value, bool) {
	cond, ok := b.Instrs[len(b.Instrs)-1].(*ssa.If)
	if !ok || i != 0 {
		return nil, false
	}
	c, ok := s.dispatch[cond]
	if !ok {
		return nil, false
	}
	st := c.Select.States[c.Index]
	return st.Chan, st.Dir == types.RecvOnly
}

// isInnerExit reports whether successor i of b ends a loop inside l that
// receives on every iteration: having run, it has received.
func (s *search) isInnerExit(l *ssacfg.Loop, b *ssa.BasicBlock, i int) bool {
	cond, ok := b.Instrs[len(b.Instrs)-1].(*ssa.If)
	if !ok {
		return false
	}
	inner := s.control[cond]
	if inner == nil || inner == l || inner.Has(b.Succs[i]) {
		return false
	}
	_, every := s.trips[inner]
	return every
}
