package strandedsend

import (
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"

	"github.com/admitlint/admitlint/internal/match"
	"github.com/admitlint/admitlint/passes/strandedsend/internal/waitpath"
)

// What the callers of a function do decides two ways out of its
// receiver: a return whose error every caller turns into the end of the
// process strands nothing, and a context that every caller passes down
// from context.Background() is never done. Both need every call of the
// function in view (callersOf), and follow callers a few levels up.

// maxCallerDepth bounds how many levels of callers the rules follow.
const maxCallerDepth = 4

// exitsOnReturn reports whether ret, a return of the receiver's
// function, ends the process: it returns an error that is never nil (a
// fresh error of fmt.Errorf or errors.New, directly or through a named
// result the function's defers cannot change), and every caller of the
// function exits when the error is not nil (validation set 24, yarpc's
// service-test: do returns "timed out", main calls log.Fatal).
func (c *checker) exitsOnReturn(ret *ssa.Return) bool {
	exits, seen := c.exits[ret]
	if !seen {
		exits = c.returnExits(ret)
		if c.exits == nil {
			c.exits = map[*ssa.Return]bool{}
		}
		c.exits[ret] = exits
	}
	return exits
}

// returnExits computes exitsOnReturn; the search asks once per path.
func (c *checker) returnExits(ret *ssa.Return) bool {
	fn := ret.Parent()
	if c.endsAfterCalls(fn, 0) {
		return true
	}
	n := len(ret.Results)
	if n == 0 || !match.IsError(fn.Signature.Results().At(n-1).Type()) {
		return false
	}
	if nonNil, known := waitpath.Nilness(returned(ret, ret.Results[n-1])); !known || !nonNil {
		return false
	}
	return c.exitsOnError(fn, 0)
}

// endsAfterCalls reports whether every call of fn ends the process as
// soon as fn returns, whatever it returns: main's os.Exit(run()), or a
// call right after which its function returns, when the same holds of
// that function (validation set 29, driftctl: the returns of run that
// skip the receive hand their exit code to os.Exit).
func (c *checker) endsAfterCalls(fn *ssa.Function, depth int) bool {
	return c.everyCall(fn, depth, func(call *ssa.Call) bool {
		return c.endsAfter(call, depth)
	})
}

// everyCall reports whether fn has calls, all of them in view, and ok
// holds of each; depth counts the callers already climbed.
func (c *checker) everyCall(fn *ssa.Function, depth int, ok func(*ssa.Call) bool) bool {
	if depth > maxCallerDepth {
		return false
	}
	calls, all := c.callersOf(fn)
	if !all || len(calls) == 0 {
		return false
	}
	for _, call := range calls {
		if !ok(call) {
			return false
		}
	}
	return true
}

// endsAfter reports whether the process ends right after call returns:
// the first call, return or wait that follows it (in its block and the
// blocks it alone leads to) is a call ending the process, or a return
// from a function whose calls all end it.
func (c *checker) endsAfter(call *ssa.Call, depth int) bool {
	b := call.Block()
	rest := b.Instrs[slices.Index(b.Instrs, ssa.Instruction(call))+1:]
	for range maxCallerDepth {
		for _, instr := range rest {
			switch instr := instr.(type) {
			case ssa.CallInstruction:
				return endsProcess(instr)
			case *ssa.Return:
				return c.endsAfterCalls(b.Parent(), depth+1)
			case *ssa.Send, *ssa.Select, *ssa.Panic, *ssa.RunDefers:
				return false
			case *ssa.UnOp:
				if instr.Op == token.ARROW {
					return false
				}
			}
		}
		if len(b.Succs) != 1 {
			return false
		}
		b = b.Succs[0]
		rest = b.Instrs
	}
	return false
}

// returned returns the value ret returns as v: v itself, or, when v
// loads a named result, the value last stored to it in ret's block,
// provided nothing else (a deferred closure) can write the result.
func returned(ret *ssa.Return, v ssa.Value) ssa.Value {
	load, ok := v.(*ssa.UnOp)
	if !ok || load.Op != token.MUL {
		return v
	}
	alloc, ok := load.X.(*ssa.Alloc)
	if !ok {
		return v
	}
	for _, ref := range *alloc.Referrers() {
		switch ref := ref.(type) {
		case *ssa.Store:
			if ref.Addr != alloc {
				return v // its address stored somewhere
			}
		case *ssa.UnOp, *ssa.DebugRef:
		default:
			return v // captured or handed on: a defer may set it
		}
	}
	var last ssa.Value = v
	for _, instr := range ret.Block().Instrs {
		if st, ok := instr.(*ssa.Store); ok && st.Addr == alloc {
			last = st.Val
		}
	}
	return last
}

// exitsOnError reports whether every call of fn ends the process when
// the error fn returns (its last result) is not nil: each call tests it
// against nil and, on the non-nil way, exits (log.Fatal, os.Exit), fails
// the test, or returns it from a function of which the same holds.
func (c *checker) exitsOnError(fn *ssa.Function, depth int) bool {
	return c.everyCall(fn, depth, func(call *ssa.Call) bool {
		err := errorResult(call)
		return err != nil && (c.exitsIfNotNil(err, depth) || c.passesUp(err, depth))
	})
}

// passesUp reports whether err, the error a call returns, goes
// straight to the returns of the caller as its own error (return
// o.run(ctx)) and nowhere else, and every call of the caller exits on
// it (validation set 32, ziti's quickstart: join returns what run
// returns, and the commands calling either exit on any error).
func (c *checker) passesUp(err ssa.Value, depth int) bool {
	up := false
	for _, ref := range *err.Referrers() {
		switch ref := ref.(type) {
		case *ssa.Return:
			n := len(ref.Results)
			if n == 0 || slices.Index(ref.Results, err) != n-1 {
				return false
			}
			up = true
		case *ssa.DebugRef:
		default:
			return false
		}
	}
	return up && c.exitsOnError(err.(ssa.Instruction).Parent(), depth+1)
}

// errorResult returns the value of call's last result, an error, or nil.
func errorResult(call *ssa.Call) ssa.Value {
	res := call.Call.Signature().Results()
	if res.Len() == 0 || !match.IsError(res.At(res.Len()-1).Type()) {
		return nil
	}
	if res.Len() == 1 {
		return call
	}
	for _, ref := range *call.Referrers() {
		if x, ok := ref.(*ssa.Extract); ok && x.Index == res.Len()-1 {
			return x
		}
	}
	return nil
}

// exitsIfNotNil reports whether err's function tests err against nil
// right where it gets it and, when it is not nil, goes on only to the
// end of the process.
func (c *checker) exitsIfNotNil(err ssa.Value, depth int) bool {
	b := err.(ssa.Instruction).Block()
	cond, ok := b.Instrs[len(b.Instrs)-1].(*ssa.If)
	if !ok {
		return false
	}
	x, isNil := waitpath.NilCompared(cond.Cond)
	if x != err {
		return false
	}
	notNil := b.Succs[0]
	if isNil {
		notNil = b.Succs[1]
	}
	return c.onlyExits(notNil, err, depth, 8)
}

// onlyExits reports whether every path from b ends the process or the
// test before it returns, or returns err from a function whose callers
// exit on it; budget bounds the blocks looked at.
func (c *checker) onlyExits(b *ssa.BasicBlock, err ssa.Value, depth, budget int) bool {
	if budget == 0 {
		return false
	}
	for _, instr := range b.Instrs {
		switch instr := instr.(type) {
		case ssa.CallInstruction:
			if endsProcess(instr) || isTestFailure(instr) {
				return true
			}
		case *ssa.Return:
			n := len(instr.Results)
			return n > 0 && instr.Results[n-1] == err && c.exitsOnError(b.Parent(), depth+1)
		case *ssa.Panic:
			return false // recoverable: the caller may go on
		}
	}
	if len(b.Succs) == 0 {
		return false
	}
	for _, succ := range b.Succs {
		if !c.onlyExits(succ, err, depth, budget-1) {
			return false
		}
	}
	return true
}

// markUncancelled records in q the select cases of q.Fn on ctx.Done()
// of a context that is never done: context.Background() or TODO(),
// made in the function or passed down to it, at every call in view, as
// a parameter (validation set 24, copilot-cli: a credentials helper
// three calls below context.Background() selects on its ctx.Done()).
// Such a case is no way out for the receiver.
func (c *checker) markUncancelled(q *waitpath.Query) {
	for _, b := range q.Fn.Blocks {
		for _, instr := range b.Instrs {
			sel, ok := instr.(*ssa.Select)
			if !ok {
				continue
			}
			for _, st := range sel.States {
				if st.Dir == types.RecvOnly && !q.Chans[st.Chan] && c.neverDone(st.Chan) {
					q.Never[st.Chan] = true
				}
			}
		}
	}
}

// neverDone reports whether ch is ctx.Done() of a context that is never
// done.
func (c *checker) neverDone(ch ssa.Value) bool {
	ctx := waitpath.DoneOf(ch)
	return ctx != nil && c.uncancelled(ctx, 0)
}

// uncancelled reports whether the context ctx is never done: a call of
// context.Background or context.TODO, a parameter of a function every
// call of which passes such a context, or a closure's capture of one
// (by value, or of the variable that keeps it).
func (c *checker) uncancelled(ctx ssa.Value, depth int) bool {
	if depth > maxCallerDepth {
		return false
	}
	switch ctx := ctx.(type) {
	case *ssa.Call:
		fn := match.Callee(ctx)
		return match.IsFunc(fn, "context", "Background", "TODO")
	case *ssa.Parameter:
		fn := ctx.Parent()
		i := slices.Index(fn.Params, ctx) // the receiver first, as static calls pass it
		calls, all := c.callersOf(fn)
		if i < 0 || !all || len(calls) == 0 {
			return false
		}
		for _, call := range calls {
			if i >= len(call.Call.Args) || !c.uncancelled(call.Call.Args[i], depth+1) {
				return false
			}
		}
		return true
	case *ssa.FreeVar:
		return c.everyBinding(ctx, depth, c.uncancelled)
	case *ssa.UnOp:
		if ctx.Op == token.MUL {
			return c.uncancelledAt(ctx.X, depth)
		}
	}
	return false
}

// uncancelledAt reports whether the variable at addr holds a context
// that is never done: a parameter kept where closures capture it and
// never reassigned (waitpath.SpilledParam), reached through the
// closures' free variables.
func (c *checker) uncancelledAt(addr ssa.Value, depth int) bool {
	switch addr := addr.(type) {
	case *ssa.Alloc:
		p := waitpath.SpilledParam(addr)
		return p != nil && c.uncancelled(p, depth)
	case *ssa.FreeVar:
		return c.everyBinding(addr, depth, c.uncancelledAt)
	}
	return false
}

// everyBinding reports whether ok holds for the value every closure of
// fv's function binds to fv, and there is at least one.
func (c *checker) everyBinding(fv *ssa.FreeVar, depth int, ok func(ssa.Value, int) bool) bool {
	fn := fv.Parent()
	i := slices.Index(fn.FreeVars, fv)
	if i < 0 || fn.Parent() == nil || depth > maxCallerDepth {
		return false
	}
	bound := false
	for _, b := range fn.Parent().Blocks {
		for _, instr := range b.Instrs {
			mc, isClosure := instr.(*ssa.MakeClosure)
			if !isClosure || mc.Fn != fn {
				continue
			}
			if !ok(mc.Bindings[i], depth+1) {
				return false
			}
			bound = true
		}
	}
	return bound
}
