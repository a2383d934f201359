package lateacquire

import (
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/admitlint/admitlint/internal/match"
	"github.com/admitlint/admitlint/internal/spawn"
	"github.com/admitlint/admitlint/internal/ssacfg"
)

// An act is an acquire (or, with try set, a non-blocking try) that a
// goroutine can reach before doing anything else that waits or works.
type act struct {
	instr   ssa.Instruction // *ssa.Send, *ssa.UnOp (<-), *ssa.Select or *ssa.Call
	state   int             // for a select, the index of the acquiring state
	sem     ssa.Value       // the semaphore operand; nil for a package-level one
	fr      *frame          // the frame instr is in
	sel     bool            // a select that can also give up on other channels
	try     bool
	wrapper bool // a call of a function that acquires for its caller
}

// maxDepth bounds how deep firstActs follows calls of the package's own
// functions made before the first act.
const maxDepth = 2

// firstActs returns the acquires that are the first blocking act of the
// function of fr on some path from its entry: reached without a channel
// operation, a wait, a call that may work or wait, or a loop before it.
// A loop stops the walk because an acquire inside one is pacing (a worker
// taking a permit per iteration), and one after it follows real work.
//
// Calls of the package's own functions are followed (up to maxDepth):
// the goroutine of go func() { s.process(x) }() whose process begins by
// acquiring waits just as if the acquire were written in place.
func (c *checker) firstActs(fr *frame, depth int) []act {
	acts, _ := c.walk(fr, depth)
	return acts
}

// walk is firstActs, also reporting whether the function is transparent:
// it returns on every path without any act, work or loop, so a walk of
// its caller continues past the call.
func (c *checker) walk(fr *frame, depth int) (acts []act, transparent bool) {
	fn := fr.fn
	if len(fn.Blocks) == 0 {
		return nil, false
	}
	onCycle := c.onCycle(fn)
	transparent = true
	seen := make([]bool, len(fn.Blocks))
	queue := []*ssa.BasicBlock{fn.Blocks[0]}
	seen[0] = true
	for len(queue) > 0 {
		b := queue[0]
		queue = queue[1:]
		if onCycle[b.Index] {
			transparent = false
			continue
		}
		stopped := false
		for _, instr := range b.Instrs {
			found, next := c.step(fr, instr, depth)
			acts = append(acts, found...)
			if next == stop {
				stopped = true
				transparent = false
				break
			}
		}
		if stopped {
			continue
		}
		for _, s := range b.Succs {
			if !seen[s.Index] {
				seen[s.Index] = true
				queue = append(queue, s)
			}
		}
	}
	return acts, transparent
}

type next int

const (
	proceed next = iota // the instruction neither waits nor works
	stop                // the path ends here: an act, work, or a wait
)

// step classifies one instruction of a walk.
func (c *checker) step(fr *frame, instr ssa.Instruction, depth int) ([]act, next) {
	switch x := instr.(type) {
	case *ssa.Send:
		if c.isChanAcquire(fr, x, x.Chan, true) {
			return []act{{instr: x, sem: x.Chan, fr: fr}}, stop
		}
		return nil, stop
	case *ssa.UnOp:
		if x.Op != token.ARROW {
			return nil, proceed
		}
		if c.isChanAcquire(fr, x, x.X, false) {
			return []act{{instr: x, sem: x.X, fr: fr}}, stop
		}
		return nil, stop
	case *ssa.Select:
		// A select with a default does not wait: the walk goes on, into
		// its default branch too, where a blocking acquire may follow
		// (try first, then wait).
		if !x.Blocking {
			return c.selectAct(fr, x), proceed
		}
		return c.selectAct(fr, x), stop
	case *ssa.Call:
		return c.callAct(fr, x, depth)
	case *ssa.Go, *ssa.Panic:
		return nil, stop
	}
	return nil, proceed
}

// selectAct returns the act of a select whose one acquiring state is a
// permit and whose other states only receive (ctx.Done(), a quit
// channel): blocking, it is an acquire that can give up; with a default,
// a try.
func (c *checker) selectAct(fr *frame, sel *ssa.Select) []act {
	found := -1
	for i, st := range sel.States {
		if c.isChanAcquire(fr, sel, st.Chan, st.Dir == types.SendOnly) {
			if found >= 0 {
				return nil
			}
			found = i
		} else if st.Dir == types.SendOnly {
			return nil // another send: not a plain acquire
		}
	}
	if found < 0 {
		return nil
	}
	return []act{{instr: sel, state: found, sem: sel.States[found].Chan, fr: fr,
		sel: len(sel.States) > 1, try: !sel.Blocking}}
}

// callAct classifies a call: an acquire, a try, bookkeeping, a call of
// the package's own code to follow, or work.
func (c *checker) callAct(fr *frame, call *ssa.Call, depth int) ([]act, next) {
	common := call.Common()
	if _, ok := common.Value.(*ssa.Builtin); ok {
		return nil, proceed
	}
	callee := match.Callee(call)
	switch {
	case callee == nil:
		// A call of a function value: a closure called in place is the
		// package's own code; anything else is unknown work.
		if mc, ok := common.Value.(*ssa.MakeClosure); ok {
			return c.follow(fr, call, mc.Fn.(*ssa.Function), mc.Bindings, depth)
		}
		return nil, stop
	case match.IsMethod(callee, match.SemaphorePkg, "Weighted", "Acquire"):
		return []act{{instr: call, sem: common.Args[0], fr: fr}}, stop
	case match.IsMethod(callee, match.SemaphorePkg, "Weighted", "TryAcquire"):
		return []act{{instr: call, sem: common.Args[0], fr: fr, try: true}}, stop
	case match.IsMethod(callee, match.RatePkg, "Limiter", "Wait", "WaitN"):
		return []act{{instr: call, sem: common.Args[0], fr: fr}}, stop
	case match.IsMethod(callee, match.RatePkg, "Limiter", "Allow", "AllowN"):
		return []act{{instr: call, sem: common.Args[0], fr: fr, try: true}}, stop
	}
	if f, ok := c.summary.Of(callee); ok && !common.IsInvoke() {
		var sem ssa.Value
		if f.On >= 0 {
			if f.On >= len(common.Args) {
				return nil, stop
			}
			sem = common.Args[f.On]
		}
		return []act{{instr: call, sem: sem, fr: fr, sel: f.Select, wrapper: true}}, stop
	}
	if match.IsBookkeeping(callee) {
		return nil, proceed
	}
	if g := common.StaticCallee(); g != nil {
		// An instance of a generic function runs its origin's code.
		if g = spawn.Body(g); g.Pkg == fr.fn.Pkg {
			return c.follow(fr, call, g, nil, depth)
		}
	}
	return nil, stop
}

// follow walks the package's own function g, called by call in frame fr,
// for the acts it reaches first; the walk of fr continues past the call
// only if g is transparent.
func (c *checker) follow(fr *frame, call *ssa.Call, g *ssa.Function, bindings []ssa.Value, depth int) ([]act, next) {
	if depth >= maxDepth || g.Origin() != nil || fr.entered(g) {
		return nil, stop
	}
	sub := &frame{fn: g, bindings: bindings, args: call.Call.Args, parent: fr, via: call, goroutine: true}
	acts, transparent := c.walk(sub, depth+1)
	switch {
	case len(acts) > 0:
		return acts, stop
	case transparent:
		return nil, proceed
	}
	return nil, stop
}

// entered reports whether g is already on the chain of frames ending at
// fr, so following it again would recurse.
func (fr *frame) entered(g *ssa.Function) bool {
	for f := fr; f != nil && f.goroutine; f = f.parent {
		if f.fn == g {
			return true
		}
	}
	return false
}

// onCycle returns, for each block of fn, whether it lies on a cycle of the
// control-flow graph, memoised per function.
func (c *checker) onCycle(fn *ssa.Function) []bool {
	if r, ok := c.cycles[fn]; ok {
		return r
	}
	if c.cycles == nil {
		c.cycles = map[*ssa.Function][]bool{}
	}
	c.cycles[fn] = ssacfg.OnCycle(fn)
	return c.cycles[fn]
}
