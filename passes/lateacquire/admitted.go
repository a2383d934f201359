package lateacquire

import (
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/admitlint/admitlint/internal/match"
	"github.com/admitlint/admitlint/internal/spawn"
	"github.com/admitlint/admitlint/internal/ssacfg"
)

// admitted reports whether the spawn is already admitted by a semaphore
// other than the one a acquires, whose permit is taken on every path to
// a's wait and given back by the goroutine: taken by the spawner before
// the go statement (a send, a select case that sends, an Acquire or
// TryAcquire), or by the goroutine itself before it waits (a select
// that sends, whose other ways out return). The goroutines parked at the
// acquire inside are then no more than the first semaphore admits: its
// capacity, not the burst, sizes them.
func (c *checker) admitted(sp *spawner, site spawn.Site, g *frame, a act) bool {
	type takenAt struct {
		v  ssa.Value
		fr *frame
	}
	var taken []takenAt
	add := func(fr *frame, at ssa.Instruction) {
		for _, t := range c.takenBefore(fr, at) {
			if a.sem == nil || !c.samePlace(t, fr, a.sem, a.fr) {
				taken = append(taken, takenAt{t, fr})
			}
		}
	}
	add(sp.frame, site.Instr)
	frames := goroutineFrames(g)
	for f := a.fr; f != nil && f.goroutine; f = f.parent {
		at := a.instr
		if f != a.fr {
			at = nil
		}
		if f.parent == g || f == g {
			if f == g {
				add(g, at)
			} else {
				add(g, f.via)
				frames = append(frames, f)
			}
			break
		}
		frames = append(frames, f)
	}
	if len(taken) == 0 {
		return false
	}
	for _, fr := range frames {
		for _, b := range fr.fn.Blocks {
			for _, instr := range b.Instrs {
				v := released(instr)
				if v == nil {
					continue
				}
				for _, t := range taken {
					if c.samePlace(t.v, t.fr, v, fr) {
						return true
					}
				}
			}
		}
	}
	return false
}

// takenBefore returns the semaphores whose permits fr's function has
// taken on every path to at: sent on by a plain send, or by a select
// whose case that sends leads to at (its other ways out do not), or
// acquired from a semaphore.Weighted.
func (c *checker) takenBefore(fr *frame, at ssa.Instruction) []ssa.Value {
	if at == nil || at.Block() == nil {
		return nil
	}
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
				for k, st := range x.States {
					if st.Dir == types.SendOnly && caseLeadsOnlyTo(x, k, at) {
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

// caseLeadsOnlyTo reports whether at is reached only when select sel
// chose its case k: a blocking select of that one case, or the body of
// case k dominates at.
func caseLeadsOnlyTo(sel *ssa.Select, k int, at ssa.Instruction) bool {
	if sel.Blocking && len(sel.States) == 1 {
		return true
	}
	body := ssacfg.CaseBody(sel, k)
	return body != nil && body.Dominates(at.Block())
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

// refilled reports whether the spawner itself gives a's permit back on
// every path to the go statement, never taking one: it empties the
// channel the goroutine will send on (a receive, or a select case that
// receives, blocking or not), or adds the token the goroutine will take.
// The goroutine's acquire then finds room the spawner left, not an
// earlier goroutine's release, so no spawn waits on another: the channel
// is a mailbox holding the latest goroutine's token (a stop channel to
// close when the next one starts), not a bound on how many run. A
// spawner that also acquires (a recursive walk releasing its own permit
// before it spawns) is no such mailbox.
func (c *checker) refilled(sp *spawner, site spawn.Site, a act) bool {
	sends, ok := acquireSends(a)
	if !ok || a.sem == nil {
		return false
	}
	fr, at := sp.frame, site.Instr
	gives := false
	for _, b := range fr.fn.Blocks {
		for _, instr := range b.Instrs {
			for _, ch := range chanOps(instr, !sends) {
				if c.samePlace(ch, fr, a.sem, a.fr) {
					return false // the spawner acquires too
				}
			}
			if gives || !b.Dominates(at.Block()) || (b == at.Block() && !before(instr, at)) {
				continue
			}
			for _, ch := range chanOps(instr, sends) {
				gives = gives || c.samePlace(ch, fr, a.sem, a.fr)
			}
		}
	}
	return gives
}

// before reports whether instr comes before at in their common block.
func before(instr, at ssa.Instruction) bool {
	for _, x := range instr.Block().Instrs {
		switch x {
		case instr:
			return true
		case at:
			return false
		}
	}
	return false
}

// acquireSends reports whether channel acquire a sends (the release then
// receives) or receives (a token, sent back when done); ok is false when
// a is not a channel operation.
func acquireSends(a act) (sends, ok bool) {
	switch x := a.instr.(type) {
	case *ssa.Send:
		return true, true
	case *ssa.UnOp:
		return false, true
	case *ssa.Select:
		return x.States[a.state].Dir == types.SendOnly, true
	}
	return false, false
}

// chanOps returns the channels instr receives from (recv) or sends on
// (!recv): a plain receive or send, or the matching cases of a select.
func chanOps(instr ssa.Instruction, recv bool) []ssa.Value {
	switch x := instr.(type) {
	case *ssa.UnOp:
		if recv && x.Op == token.ARROW {
			return []ssa.Value{x.X}
		}
	case *ssa.Send:
		if !recv {
			return []ssa.Value{x.Chan}
		}
	case *ssa.Select:
		var chans []ssa.Value
		for _, st := range x.States {
			if (st.Dir == types.RecvOnly) == recv {
				chans = append(chans, st.Chan)
			}
		}
		return chans
	}
	return nil
}
