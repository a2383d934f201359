package waitpath

import (
	"go/constant"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/admitlint/admitlint/internal/match"
	"github.com/admitlint/admitlint/internal/ssacfg"
)

// findFixedTrips records the counted loops with a constant trip count
// that take one value on every trip from the channel or from the
// bounded others (Query.Bounded), or leave: their selects have no
// default, and every case that stays in the loop receives from one of
// them. Such a loop has, when it ends normally, taken all its trips'
// values from the channel but those the others delivered.
//
//	for i := 0; i < 2; i++ {
//		select {
//		case n1 = <-doneSend: // the channel
//		case n2 = <-doneRecv: // one value, sent by the other copier
//		}
//	}
func (s *search) findFixedTrips() {
	if s.q.Delivered == 0 {
		return
	}
	for l, n := range s.constTrips {
		if _, every := s.trips[l]; every || !s.everyIteration(l, s.waitsIn) || !s.takesOneATrip(l) {
			continue
		}
		s.fixedTrips[l] = n
	}
}

// takesOneATrip reports whether every select of loop l that receives
// from the channel blocks, and each of its cases that stays in the loop
// receives from the channel or a bounded other.
func (s *search) takesOneATrip(l *ssacfg.Loop) bool {
	for c := range s.bodies {
		sel := c.Select
		if !l.Has(sel.Block()) || !s.waitsIn(sel.Block()) {
			continue
		}
		if !sel.Blocking {
			return false
		}
		st := sel.States[c.Index]
		if s.staysIn[c] && (st.Dir != types.RecvOnly || !s.q.Chans[st.Chan] && !s.q.Bounded[st.Chan]) {
			return false
		}
	}
	return true
}

// findFirstTrips records the loops whose test holds when the loop is
// entered: it compares a variable of the loop, which enters with a
// constant, with a constant (for i := 0; i < 2; i++, for n := 2; n > 0;).
// The path cannot leave such a loop through its test before its first
// trip.
func (s *search) findFirstTrips() {
	for _, l := range s.loops {
		h := l.Header
		cond, ok := h.Instrs[len(h.Instrs)-1].(*ssa.If)
		if !ok || l.Has(h.Succs[0]) == l.Has(h.Succs[1]) {
			continue
		}
		holds, known := entryValue(cond.Cond, l)
		if known && holds == l.Has(h.Succs[0]) {
			s.firstTrip[cond] = l
			s.headers[h] = l
		}
	}
}

// entryValue evaluates v, a comparison in loop l's header, on the
// loop's entry: the value of each of its phis on the edges from outside
// the loop, when every one of them is the same constant.
func entryValue(v ssa.Value, l *ssacfg.Loop) (value, known bool) {
	cmp, ok := v.(*ssa.BinOp)
	if !ok {
		return false, false
	}
	switch cmp.Op {
	case token.LSS, token.GTR, token.LEQ, token.GEQ, token.EQL, token.NEQ:
	default:
		return false, false
	}
	x, okx := entryConst(cmp.X, l)
	y, oky := entryConst(cmp.Y, l)
	if !okx || !oky {
		return false, false
	}
	return constant.Compare(x, cmp.Op, y), true
}

// entryConst returns the constant v holds on entry to loop l: v itself,
// or, for a phi of l's header, the one constant of its edges from
// outside l.
func entryConst(v ssa.Value, l *ssacfg.Loop) (constant.Value, bool) {
	if n, ok := match.ConstInt(v); ok {
		return constant.MakeInt64(n), true
	}
	phi, ok := v.(*ssa.Phi)
	if !ok || phi.Block() != l.Header {
		return nil, false
	}
	var val constant.Value
	for j, e := range phi.Edges {
		if l.Has(l.Header.Preds[j]) {
			continue
		}
		n, ok := match.ConstInt(e)
		if !ok || val != nil && constant.Compare(val, token.NEQ, constant.MakeInt64(n)) {
			return nil, false
		}
		val = constant.MakeInt64(n)
	}
	return val, val != nil
}
