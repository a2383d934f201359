package lateacquire

import (
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/admitlint/admitlint/internal/match"
	"github.com/admitlint/admitlint/internal/spawn"
)

// waitsForGoroutine reports whether the spawner, once it has started the
// goroutine of frame g, waits for that goroutine to finish (or gives up
// with it) on every path before it can start another or return:
//
//	done := make(chan struct{})
//	go func() {
//		defer close(done)
//		<-r.scanSema // the goroutine is a detachable helper…
//		…
//	}()
//	select { // …of a caller that waits for it
//	case <-ctx.Done():
//	case <-done:
//	}
//
// Such a goroutine queues no more than its caller does: there is at most
// one per waiting caller, so its acquire is not the producer's missing
// admission. The wait is a receive from a channel the goroutine closes or
// sends on, or a Wait on a WaitGroup (or errgroup) the goroutine is
// counted in, before the next spawn: a Wait after the loop that spawned
// them all does not count.
func (c *checker) waitsForGoroutine(site spawn.Site, g *frame) bool {
	signals := c.signalsOf(g, 0)
	if site.Group != nil {
		signals = append(signals, c.resolve(site.Group, g.parent).place)
	}
	if len(signals) == 0 {
		return false
	}
	spawner := g.parent
	signalled := func(v ssa.Value) bool {
		p := c.resolve(v, spawner).place
		for _, s := range signals {
			if p.root != nil && p == s {
				return true
			}
		}
		return false
	}
	return allPathsWait(site.Instr, func(instr ssa.Instruction) bool { return waitsOn(instr, signalled) })
}

// signalsOf returns the places the goroutine of frame f (and the closures
// it makes) signals its end on: channels it closes or sends on, and
// WaitGroups it calls Done on.
func (c *checker) signalsOf(f *frame, depth int) []place {
	var signals []place
	for _, b := range f.fn.Blocks {
		for _, instr := range b.Instrs {
			switch x := instr.(type) {
			case *ssa.Send:
				signals = append(signals, c.resolve(x.Chan, f).place)
			case ssa.CallInstruction:
				common := x.Common()
				if b, ok := common.Value.(*ssa.Builtin); ok && b.Name() == "close" && len(common.Args) == 1 {
					signals = append(signals, c.resolve(common.Args[0], f).place)
				} else if match.IsMethod(match.Callee(x), "sync", "WaitGroup", "Done") && len(common.Args) == 1 {
					signals = append(signals, c.resolve(common.Args[0], f).place)
				}
			case *ssa.MakeClosure:
				if depth < maxDepth {
					sub := &frame{fn: x.Fn.(*ssa.Function), bindings: x.Bindings, parent: f, goroutine: true}
					signals = append(signals, c.signalsOf(sub, depth+1)...)
				}
			}
		}
	}
	return signals
}

// allPathsWait reports whether every path from instruction start to a
// return of its function, or back to start, passes an instruction for
// which isWait holds.
func allPathsWait(start ssa.Instruction, isWait func(ssa.Instruction) bool) bool {
	b0 := start.Block()
	after := false
	for _, instr := range b0.Instrs {
		if after {
			if isWait(instr) {
				return true
			}
			if _, ok := instr.(*ssa.Return); ok {
				return false
			}
		}
		after = after || instr == start
	}
	seen := make([]bool, len(b0.Parent().Blocks))
	stack := append([]*ssa.BasicBlock(nil), b0.Succs...)
	for len(stack) > 0 {
		b := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if b == b0 {
			return false // round the loop to the next spawn without waiting
		}
		if seen[b.Index] {
			continue
		}
		seen[b.Index] = true
		waited := false
		for _, instr := range b.Instrs {
			if isWait(instr) {
				waited = true
				break
			}
			if _, ok := instr.(*ssa.Return); ok {
				return false
			}
		}
		if !waited {
			stack = append(stack, b.Succs...)
		}
	}
	return true
}

// waitsOn reports whether instr waits on something signalled says the
// goroutine signals: a receive, a blocking select receiving from it, or
// a Wait on its WaitGroup or errgroup.
func waitsOn(instr ssa.Instruction, signalled func(ssa.Value) bool) bool {
	switch x := instr.(type) {
	case *ssa.UnOp:
		return x.Op == token.ARROW && signalled(x.X)
	case *ssa.Select:
		for _, st := range x.States {
			if st.Dir == types.RecvOnly && signalled(st.Chan) {
				return x.Blocking
			}
		}
	case *ssa.Call:
		fn := match.Callee(x)
		if match.IsMethod(fn, "sync", "WaitGroup", "Wait") || match.IsMethod(fn, match.ErrgroupPkg, "Group", "Wait") {
			return signalled(x.Call.Args[0])
		}
	}
	return false
}
