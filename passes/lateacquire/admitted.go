package lateacquire

import (
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/admitlint/admitlint/internal/match"
	"github.com/admitlint/admitlint/internal/spawn"
)

// admitted reports whether the spawn is already admitted by a semaphore
// other than the one a acquires: on every path to the go statement the spawner has taken a
// permit of a channel semaphore (a send on it, plain or as a select case)
// or of a semaphore.Weighted (Acquire, TryAcquire), and the goroutine
// gives that permit back (a receive on the channel, a Release). The
// goroutines parked at the acquire inside are then no more than the
// first semaphore admits: its capacity, not the burst, sizes them.
func (c *checker) admitted(sp *spawner, site spawn.Site, g *frame, a act) bool {
	var taken []ssa.Value
	for _, t := range c.takenBefore(sp.frame, site.Instr) {
		if a.sem == nil || !c.samePlace(t, sp.frame, a.sem, a.fr) {
			taken = append(taken, t)
		}
	}
	if len(taken) == 0 {
		return false
	}
	for _, fr := range goroutineFrames(g) {
		for _, b := range fr.fn.Blocks {
			for _, instr := range b.Instrs {
				v := released(instr)
				if v == nil {
					continue
				}
				for _, t := range taken {
					if c.samePlace(t, sp.frame, v, fr) {
						return true
					}
				}
			}
		}
	}
	return false
}

// takenBefore returns the semaphores whose permits fr's function takes in
// the blocks that dominate at: sent on (a plain send, or a send case of
// a select), or acquired from a semaphore.Weighted.
func (c *checker) takenBefore(fr *frame, at ssa.Instruction) []ssa.Value {
	var taken []ssa.Value
	for _, b := range fr.fn.Blocks {
		if !b.Dominates(at.Block()) {
			continue
		}
		for _, instr := range b.Instrs {
			if instr == at {
				break
			}
			switch x := instr.(type) {
			case *ssa.Send:
				taken = append(taken, x.Chan)
			case *ssa.Select:
				for _, st := range x.States {
					if st.Dir == types.SendOnly {
						taken = append(taken, st.Chan)
					}
				}
			case *ssa.Call:
				if isWeighted(x, "Acquire", "TryAcquire") {
					taken = append(taken, x.Call.Args[0])
				}
			}
		}
	}
	return taken
}

// released returns the semaphore instr gives a permit back to: the
// channel of a receive, or the semaphore.Weighted of a Release.
func released(instr ssa.Instruction) ssa.Value {
	switch x := instr.(type) {
	case *ssa.UnOp:
		if x.Op == token.ARROW {
			return x.X
		}
	case *ssa.Call:
		if isWeighted(x, "Release") {
			return x.Call.Args[0]
		}
	case *ssa.Defer:
		if isWeighted(x, "Release") {
			return x.Call.Args[0]
		}
	}
	return nil
}

// isWeighted reports whether call is a static call of one of the named
// methods of semaphore.Weighted.
func isWeighted(call ssa.CallInstruction, names ...string) bool {
	fn := match.Callee(call)
	return fn != nil && !call.Common().IsInvoke() && match.IsMethod(fn, "golang.org/x/sync/semaphore", "Weighted", names...)
}

// goroutineFrames returns g and the frames of the closures g's function
// makes (a deferred func() { <-sem }()), bound to g.
func goroutineFrames(g *frame) []*frame {
	frames := []*frame{g}
	for _, b := range g.fn.Blocks {
		for _, instr := range b.Instrs {
			if mc, ok := instr.(*ssa.MakeClosure); ok {
				frames = append(frames, &frame{fn: mc.Fn.(*ssa.Function), bindings: mc.Bindings, parent: g, via: mc, goroutine: true})
			}
		}
	}
	return frames
}
