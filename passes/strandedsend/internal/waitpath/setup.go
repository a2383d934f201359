package waitpath

import (
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/admitlint/admitlint/internal/ssacfg"

	"github.com/admitlint/admitlint/passes/strandedsend/internal/chanuse"
)

type search struct {
	q         *Query
	made      *ssa.BasicBlock
	loops     []*ssacfg.Loop
	kind      map[*ssacfg.Loop]uint8   // recvInOtherLoop or recvInKnownLoop, for loops that receive
	trips     map[*ssacfg.Loop]Count   // trip counts of loops that receive on every iteration (Many: not counted)
	control   map[*ssa.If]*ssacfg.Loop // ifs whose one edge stays in a receiving loop and the other leaves it normally
	dispatch  map[*ssa.If]chanuse.Case
	bodies    map[chanuse.Case]*ssa.BasicBlock
	closed    map[*ssa.If]bool // false edge: the channel was closed
	startAt   map[ssa.Instruction]uint64
	startCase map[chanuse.Case]uint64
	bools     map[*ssa.Phi]int // boolean phis tracked along paths, by bit

	best   map[key]int
	queue  []state
	states int
	leaves []*Leave
}

// newSearch prepares the search for q: the loops of the function, the
// cases each select dispatches, the edges that mean the channel was
// closed, how each receiving loop counts, and the flags to track. It
// returns nil when a start is not what its Case says.
func newSearch(q *Query) *search {
	s := &search{
		q:         q,
		made:      q.Made.Block(),
		loops:     ssacfg.Loops(q.Fn),
		kind:      map[*ssacfg.Loop]uint8{},
		trips:     map[*ssacfg.Loop]Count{},
		control:   map[*ssa.If]*ssacfg.Loop{},
		dispatch:  map[*ssa.If]chanuse.Case{},
		bodies:    map[chanuse.Case]*ssa.BasicBlock{},
		closed:    map[*ssa.If]bool{},
		startAt:   map[ssa.Instruction]uint64{},
		startCase: map[chanuse.Case]uint64{},
		bools:     map[*ssa.Phi]int{},
		best:      map[key]int{},
	}
	for i, st := range q.Starts {
		if st.Case >= 0 {
			sel, ok := st.Instr.(*ssa.Select)
			if !ok {
				return nil
			}
			s.startCase[chanuse.Case{Select: sel, Index: st.Case}] |= 1 << i
		} else {
			s.startAt[st.Instr] |= 1 << i
		}
	}
	s.decodeSelects()
	s.findClosedEdges()
	s.classifyLoops()
	s.findFlags()
	return s
}

// findFlags picks the boolean phis the search tracks: the flags of loops
// like for !done { select { case <-ch: done = true; default: } }, which
// end only on paths that received.
func (s *search) findFlags() {
	for _, b := range s.q.Fn.Blocks {
		for _, instr := range b.Instrs {
			phi, ok := instr.(*ssa.Phi)
			if !ok {
				break // phis come first
			}
			if t, ok := phi.Type().Underlying().(*types.Basic); ok && t.Kind() == types.Bool && len(s.bools) < 16 {
				s.bools[phi] = len(s.bools)
			}
		}
	}
}

// decodeSelects maps each if of a select's dispatch chain (idx == k) to
// the case it dispatches, and each case to its body block.
//
//	t0 = select blocking [<-ch, <-done]
//	t1 = extract t0 #0
//	t2 = t1 == 0:int
//	if t2 goto 1 else 2      ← case 0; block 1 is its body
func (s *search) decodeSelects() {
	for _, b := range s.q.Fn.Blocks {
		for _, instr := range b.Instrs {
			sel, ok := instr.(*ssa.Select)
			if !ok {
				continue
			}
			for _, ref := range *sel.Referrers() {
				idx, ok := ref.(*ssa.Extract)
				if !ok || idx.Index != 0 {
					continue
				}
				for _, ref := range *idx.Referrers() {
					eq, ok := ref.(*ssa.BinOp)
					if !ok || eq.Op != token.EQL {
						continue
					}
					k, ok := eq.Y.(*ssa.Const)
					if !ok || k.Value == nil {
						continue
					}
					for _, ref := range *eq.Referrers() {
						if cond, ok := ref.(*ssa.If); ok {
							c := chanuse.Case{Select: sel, Index: int(k.Int64())}
							s.dispatch[cond] = c
							s.bodies[c] = cond.Block().Succs[0]
						}
					}
				}
			}
		}
	}
}

// findClosedEdges finds the ifs that test the comma-ok result of a
// receive on the channel: their false edge means it was closed.
//
//	t3 = <-ch,ok          (or a select case v, ok := <-ch)
//	t4 = extract t3 #1
//	if t4 goto body else done
func (s *search) findClosedEdges() {
	for _, b := range s.q.Fn.Blocks {
		cond, ok := b.Instrs[len(b.Instrs)-1].(*ssa.If)
		if !ok {
			continue
		}
		ok2, ok := cond.Cond.(*ssa.Extract)
		if !ok || ok2.Index != 1 {
			continue
		}
		switch x := ok2.Tuple.(type) {
		case *ssa.UnOp:
			s.closed[cond] = x.Op == token.ARROW && s.q.Chans[x.X]
		case *ssa.Select:
			for k, st := range x.States {
				body := s.bodies[chanuse.Case{Select: x, Index: k}]
				if st.Dir == types.RecvOnly && s.q.Chans[st.Chan] && body != nil && body.Dominates(b) {
					s.closed[cond] = true
				}
			}
		}
	}
}
