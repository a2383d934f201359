package waitpath

import (
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/admitlint/admitlint/internal/match"
)

// onReceived reports whether the condition v is decided by a value
// received from the channel: a field of it, a comparison, a test of its
// text or error (strings.Contains, errors.Is), or the variable it was
// stored in.
func (s *search) onReceived(v ssa.Value) bool {
	return s.fromRecv(v, map[ssa.Value]bool{})
}

func (s *search) fromRecv(v ssa.Value, seen map[ssa.Value]bool) bool {
	if v == nil || seen[v] || len(seen) > 64 {
		return false
	}
	seen[v] = true
	switch v := v.(type) {
	case *ssa.UnOp:
		if v.Op == token.ARROW {
			return s.q.Chans[v.X]
		}
		return s.fromRecv(v.X, seen)
	case *ssa.Extract:
		if sel, ok := v.Tuple.(*ssa.Select); ok {
			return s.selectReceived(sel, v.Index)
		}
		return s.fromRecv(v.Tuple, seen)
	case *ssa.Field:
		return s.fromRecv(v.X, seen)
	case *ssa.FieldAddr:
		return s.fromRecv(v.X, seen)
	case *ssa.Index:
		return s.fromRecv(v.X, seen)
	case *ssa.IndexAddr:
		return s.fromRecv(v.X, seen)
	case *ssa.Slice:
		return s.fromRecv(v.X, seen)
	case *ssa.Convert:
		return s.fromRecv(v.X, seen)
	case *ssa.ChangeType:
		return s.fromRecv(v.X, seen)
	case *ssa.MakeInterface:
		return s.fromRecv(v.X, seen)
	case *ssa.TypeAssert:
		return s.fromRecv(v.X, seen)
	case *ssa.BinOp:
		return s.fromRecv(v.X, seen) || s.fromRecv(v.Y, seen)
	case *ssa.Call:
		if !match.IsTest(v) {
			return false
		}
		for _, arg := range v.Call.Args {
			if s.fromRecv(arg, seen) {
				return true
			}
		}
	case *ssa.Alloc:
		for _, ref := range *v.Referrers() {
			if st, ok := ref.(*ssa.Store); ok && st.Addr == v && s.fromRecv(st.Val, seen) {
				return true
			}
		}
	}
	return false
}

// selectReceived reports whether component i of the tuple sel yields is
// a value received from the channel: the tuple is the chosen index, the
// ok flag, then one value per receiving case in order.
func (s *search) selectReceived(sel *ssa.Select, i int) bool {
	k := 2
	for _, st := range sel.States {
		if st.Dir != types.RecvOnly {
			continue
		}
		if k == i {
			return s.q.Chans[st.Chan]
		}
		k++
	}
	return false
}

// leavesOnMark reports whether the edge from b to succ leaves the loop
// of receives around b on a test of a received value, when the senders
// mark their last value (Query.EndMarked): the receiver stops on the mark,
// and nothing is left to send.
func (s *search) leavesOnMark(b, succ *ssa.BasicBlock, cond ssa.Value) bool {
	if !s.q.EndMarked {
		return false
	}
	l := innermost(s.loops, b, s.made)
	return l != nil && !l.Has(succ) && s.onReceived(cond)
}

// tookLast reports whether successor i of a branch on cond is the way
// on which a received value's Query.LastNil field is nil: the value was
// the sender's last.
func (s *search) tookLast(cond ssa.Value, i int) bool {
	if s.q.LastNil == nil {
		return false
	}
	cmp, ok := cond.(*ssa.BinOp)
	if !ok || cmp.Op != token.EQL && cmp.Op != token.NEQ {
		return false
	}
	x := cmp.X
	if IsNilConst(x) {
		x = cmp.Y
	} else if !IsNilConst(cmp.Y) {
		return false
	}
	isNil := (cmp.Op == token.EQL) == (i == 0)
	return isNil && s.fieldOfReceived(x, s.q.LastNil)
}

// fieldOfReceived reports whether v is field f of a received value: a
// Field of it, or a load of a FieldAddr of it.
func (s *search) fieldOfReceived(v ssa.Value, f *types.Var) bool {
	var base ssa.Value
	var st *types.Struct
	var idx int
	switch v := v.(type) {
	case *ssa.Field:
		base, idx = v.X, v.Field
		st, _ = v.X.Type().Underlying().(*types.Struct)
	case *ssa.UnOp:
		fa, ok := v.X.(*ssa.FieldAddr)
		if v.Op != token.MUL || !ok {
			return false
		}
		base, idx = fa.X, fa.Field
		if p, ok := fa.X.Type().Underlying().(*types.Pointer); ok {
			st, _ = p.Elem().Underlying().(*types.Struct)
		}
	default:
		return false
	}
	return st != nil && st.Field(idx) == f && s.onReceived(base)
}
