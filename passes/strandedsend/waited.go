package strandedsend

import (
	"go/constant"
	"slices"

	"golang.org/x/tools/go/ssa"

	"github.com/admitlint/admitlint/internal/match"
	"github.com/admitlint/admitlint/internal/ssacfg"
)

// waitedBefore reports whether the sender's function waits for the
// goroutine that runs y (started by the go statement y.anchor) before it
// runs x: every path from the go statement to x passes a Wait on a
// sync.WaitGroup that goroutine marks Done. A Wait under a flag that is
// true whenever such a goroutine has been started (if started {
// wg.Wait() }, the flag set beside each spawn) counts: its false branch
// is taken only when there is nothing to wait for (validation set 13,
// an OpenAPI rolodex's workers).
func waitedBefore(y, x *op) bool {
	g, ok := y.anchor.(*ssa.Go)
	if !ok || g.Parent() != x.instr.Parent() {
		return false
	}
	waits := map[ssa.Instruction]bool{}
	for _, b := range g.Parent().Blocks {
		for _, instr := range b.Instrs {
			if wg := waitGroupWaited(instr); wg != nil && marksDone(g, wg) {
				waits[instr] = true
			}
		}
	}
	if len(waits) == 0 {
		return false
	}
	return !reachesPast(g, x.instr, waits)
}

// reachesPast reports whether a path from go statement g reaches
// target without passing a barrier, following only the true branch of
// an if whose condition is true once g has run.
func reachesPast(g *ssa.Go, target ssa.Instruction, barriers map[ssa.Instruction]bool) bool {
	onceRun := func(b *ssa.BasicBlock) []*ssa.BasicBlock {
		if cond, ok := b.Instrs[len(b.Instrs)-1].(*ssa.If); ok && trueOnceRun(cond.Cond, g, map[*ssa.Phi]bool{}) {
			return b.Succs[:1]
		}
		return b.Succs
	}
	return reachesAlong(g.Block(), slices.Index(g.Block().Instrs, ssa.Instruction(g))+1, map[ssa.Instruction]bool{target: true}, barriers, onceRun)
}

// trueOnceRun reports whether v is true whenever go statement g has run
// before it: the constant true, or a phi each of whose incoming values
// is such a value, or comes from a block no path from g reaches. The
// phis met on the way are assumed to be so (a flag carried round a
// loop).
func trueOnceRun(v ssa.Value, g *ssa.Go, assumed map[*ssa.Phi]bool) bool {
	switch v := v.(type) {
	case *ssa.Const:
		return v.Value != nil && v.Value.Kind() == constant.Bool && constant.BoolVal(v.Value)
	case *ssa.Phi:
		if assumed[v] {
			return true
		}
		assumed[v] = true
		for i, e := range v.Edges {
			pred := v.Block().Preds[i]
			if !trueOnceRun(e, g, assumed) && reachesBlock(g, pred) {
				return false
			}
		}
		return true
	}
	return false
}

// reachesBlock reports whether a path from go statement g reaches the
// end of block b.
func reachesBlock(g *ssa.Go, b *ssa.BasicBlock) bool {
	return reachesUnbarred(g.Block(), slices.Index(g.Block().Instrs, ssa.Instruction(g))+1, map[ssa.Instruction]bool{b.Instrs[len(b.Instrs)-1]: true}, nil)
}

// waitGroupWaited returns the WaitGroup instr waits on, if it is a call
// of sync.WaitGroup's Wait.
func waitGroupWaited(instr ssa.Instruction) ssa.Value {
	call, ok := instr.(*ssa.Call)
	if !ok || call.Call.IsInvoke() || len(call.Call.Args) != 1 {
		return nil
	}
	if !match.IsMethod(match.Callee(call), "sync", "WaitGroup", "Wait") {
		return nil
	}
	return call.Call.Args[0]
}

// marksDone reports whether the goroutine g starts calls Done on
// WaitGroup wg (reached through a free variable or a parameter of the
// function it runs), directly or deferred.
func marksDone(g *ssa.Go, wg ssa.Value) bool {
	fn, bindings := goFunc(g)
	if fn == nil {
		return false
	}
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			call, ok := instr.(ssa.CallInstruction)
			if !ok || call.Common().IsInvoke() || len(call.Common().Args) != 1 {
				continue
			}
			if !match.IsMethod(match.Callee(call), "sync", "WaitGroup", "Done") {
				continue
			}
			if sameWaitGroup(call.Common().Args[0], fn, g, bindings, wg) {
				return true
			}
		}
	}
	return false
}

// goFunc returns the function go statement g runs and the values bound
// to its free variables.
func goFunc(g *ssa.Go) (*ssa.Function, []ssa.Value) {
	switch v := g.Call.Value.(type) {
	case *ssa.Function:
		return v, nil
	case *ssa.MakeClosure:
		fn, _ := v.Fn.(*ssa.Function)
		return fn, v.Bindings
	}
	return nil, nil
}

// sameWaitGroup reports whether v, a value of fn, which go statement g
// runs with bindings for its free variables, addresses WaitGroup wg of
// the function starting it: through a free variable's binding or a
// parameter's argument, itself or the same field of such a value.
func sameWaitGroup(v ssa.Value, fn *ssa.Function, g *ssa.Go, bindings []ssa.Value, wg ssa.Value) bool {
	switch v := v.(type) {
	case *ssa.FieldAddr:
		f, ok := wg.(*ssa.FieldAddr)
		return ok && f.Field == v.Field && sameWaitGroup(v.X, fn, g, bindings, f.X)
	case *ssa.FreeVar:
		i := slices.Index(fn.FreeVars, v)
		return i >= 0 && i < len(bindings) && bindings[i] == wg
	case *ssa.Parameter:
		i := slices.Index(fn.Params, v)
		return i >= 0 && i < len(g.Call.Args) && g.Call.Args[i] == wg
	}
	return false
}

// waitedFor reports whether channel d is sent on only by one goroutine
// that, before each of its sends on d, waits for every sender on group
// g to have made its sends (see waitedGroups): receiving from d then
// means none of them has a send left. A select that takes either the
// first error or the waiter's signal leaves through the signal only
// when nothing is pending (validation set 22, karmada's resource
// versions):
//
//	go func() {
//		wg.Wait() // each sender: defer wg.Done()
//		done <- struct{}{}
//	}()
//	select {
//	case <-done: // every sender has returned
//	case err = <-errc: // the others may still send: reported here
//	}
func (c *checker) waitedFor(sc *scope, d int, g []int) bool {
	ch := sc.chans[d]
	if !ch.ok || slices.Contains(g, d) || ch.closed() {
		return false // closed, in a goroutine maybe before the wait
	}
	var waiter *sender
	for _, s := range sc.senders {
		if !s.touchesAny([]int{d}) {
			continue
		}
		if waiter != nil || s.touchesAny(g) || s.site.Fn == nil {
			return false // several senders on d, or one that sends on g too
		}
		waiter = s
	}
	if waiter == nil {
		return false
	}
	groups := waitedGroups(sc, g)
	if len(groups) == 0 {
		return false
	}
	waits := map[ssacfg.SyncKey][]ssa.Instruction{}
	for _, b := range waiter.site.Fn.Blocks {
		for _, instr := range b.Instrs {
			wg := waitGroupWaited(instr)
			if wg == nil {
				continue
			}
			if k, ok := outerKey(waiter.site, wg); ok && groups[k] {
				waits[k] = append(waits[k], instr)
			}
		}
	}
	for _, x := range waiter.ops {
		if !x.touches(d) {
			continue
		}
		if x.anchor != nil || x.via != nil || len(x.chans) != 1 || x.instr.Parent() != waiter.site.Fn {
			return false
		}
		for k := range groups {
			if !slices.ContainsFunc(waits[k], func(w ssa.Instruction) bool { return beforeAll(w, []*op{x}) }) {
				return false
			}
		}
	}
	return true
}
