package waitpath

import (
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/admitlint/admitlint/internal/match"
	"github.com/admitlint/admitlint/internal/ssacfg"
)

// A counter is how a loop of receives knows it is done: a variable that
// starts at zero, grows by one after each value received and is compared
// with bound in the loop's test. own says it counts the channel's own
// values; otherwise those of a channel of Query.Last.
type counter struct {
	bound ssa.Value
	own   bool
}

// counterOf returns the counter of loop l, when its header's test
// compares one with a bound:
//
//	for done < total {
//		select {
//		case <-doneCh:
//			done++
//		case err := <-errCh:
//			…
//		}
//	}
func (s *search) counterOf(l *ssacfg.Loop) (counter, bool) {
	cond, ok := l.Header.Instrs[len(l.Header.Instrs)-1].(*ssa.If)
	if !ok || s.control[cond] != l {
		return counter{}, false
	}
	cmp, ok := cond.Cond.(*ssa.BinOp)
	if !ok || !isOrdering(cmp) && cmp.Op != token.NEQ {
		return counter{}, false
	}
	for _, pair := range [][2]ssa.Value{{cmp.X, cmp.Y}, {cmp.Y, cmp.X}} {
		k, ok := pair[0].(*ssa.Phi)
		if !ok || k.Block() != l.Header {
			continue
		}
		if own, ok := s.countsRecvs(l, k); ok {
			return counter{bound: pair[1], own: own}, true
		}
	}
	return counter{}, false
}

// countsRecvs reports whether phi k, in l's header, starts at zero and
// grows only by one, each time after a receive in l of the channel (own)
// or of channels of Query.Last (not own).
func (s *search) countsRecvs(l *ssacfg.Loop, k *ssa.Phi) (own, ok bool) {
	var adds []*ssa.BinOp
	for j, e := range k.Edges {
		if !l.Has(l.Header.Preds[j]) {
			if n, ok := match.ConstInt(e); !ok || n != 0 {
				return false, false
			}
			continue
		}
		if !grows(e, k, l, &adds, map[ssa.Value]bool{}) {
			return false, false
		}
	}
	if len(adds) == 0 {
		return false, false
	}
	own = true
	for _, add := range adds {
		kind := s.recvBefore(l, add.Block())
		if kind == 0 {
			return false, false
		}
		own = own && kind == ownRecv
	}
	return own, true
}

// grows reports whether v, a value k takes round loop l, is k itself or
// k+1 along every path, collecting the increments in adds.
func grows(v ssa.Value, k *ssa.Phi, l *ssacfg.Loop, adds *[]*ssa.BinOp, seen map[ssa.Value]bool) bool {
	if v == k || seen[v] {
		return true
	}
	seen[v] = true
	switch v := v.(type) {
	case *ssa.BinOp:
		one := func(x ssa.Value) bool { n, ok := match.ConstInt(x); return ok && n == 1 }
		if v.Op == token.ADD && (v.X == k && one(v.Y) || v.Y == k && one(v.X)) {
			*adds = append(*adds, v)
			return true
		}
	case *ssa.Phi:
		if l.Has(v.Block()) {
			for _, e := range v.Edges {
				if !grows(e, k, l, adds, seen) {
					return false
				}
			}
			return true
		}
	}
	return false
}

// What a receive takes, as recvBefore and recvKind rank it.
const (
	lastRecv = 1 + iota // a value of a channel of Query.Last
	ownRecv             // a value of the channel
)

// recvBefore says what is received, inside loop l, on every path to
// block b: ownRecv, lastRecv or 0 for neither.
func (s *search) recvBefore(l *ssacfg.Loop, b *ssa.BasicBlock) int {
	kind := 0
	for _, blk := range s.q.Fn.Blocks {
		if !l.Has(blk) {
			continue
		}
		for _, instr := range blk.Instrs {
			switch x := instr.(type) {
			case *ssa.UnOp:
				if x.Op == token.ARROW && blk.Dominates(b) {
					kind = max(kind, s.recvKind(x.X))
				}
			case *ssa.Select:
				for i, st := range x.States {
					if st.Dir != types.RecvOnly {
						continue
					}
					if body := ssacfg.CaseBody(x, i); body != nil && l.Has(body) && body.Dominates(b) {
						kind = max(kind, s.recvKind(st.Chan))
					}
				}
			}
		}
	}
	return kind
}

// recvKind ranks a received channel: ownRecv, lastRecv or 0 for another.
func (s *search) recvKind(ch ssa.Value) int {
	switch {
	case s.q.Chans[ch]:
		return ownRecv
	case s.q.Last[ch]:
		return lastRecv
	}
	return 0
}
