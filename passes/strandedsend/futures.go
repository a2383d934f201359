package strandedsend

import (
	"golang.org/x/tools/go/ssa"

	"github.com/admitlint/admitlint/internal/spawn"
	"github.com/admitlint/admitlint/passes/strandedsend/internal/chanuse"
	"github.com/admitlint/admitlint/passes/strandedsend/internal/waitpath"
)

// checkFuture reports the sends feeding a future that fn returns: at once
// when fn's callers are not all in view (fn is exported, or used as a
// value), else when one of them can stop waiting for it; a future all of
// whose callers wait is fine as it is.
func (c *checker) checkFuture(fn *ssa.Function, ch *channel, i int, targets []*op) {
	calls, visible := c.callersOf(fn)
	k := resultIndex(ch)
	if !visible || k < 0 {
		c.reportFuture(fn, ch, i, targets)
		return
	}
	for _, call := range calls {
		v := resultOf(call, k)
		if v == nil {
			c.reportFuture(fn, ch, i, targets) // the caller drops it
			return
		}
		uses := chanuse.Trace(call.Parent(), []ssa.Value{v}, spawn.Sites(call.Parent()))
		if uses.Escape != nil || len(uses.Returns)+len(uses.Handoffs)+len(uses.FieldStore)+len(uses.Sends)+len(uses.SendCases)+len(uses.Closes) > 0 {
			c.reportFuture(fn, ch, i, targets) // the caller passes it on
			return
		}
		q := &waitpath.Query{
			Fn:     call.Parent(),
			Info:   c.pass.TypesInfo,
			Made:   call,
			Chans:  uses.Values,
			Starts: []waitpath.Start{{Instr: call, Case: -1, Sends: waitpath.One}},
			Room:   ch.room,
			Ends:   isTestFailure,
			Stops:  endsProcess,
		}
		if leave := waitpath.Find(q); leave != nil {
			c.reportLeave(ch, i, targets, leave, waitpath.One, nil, false)
			return
		}
	}
}

// resultIndex returns the index among fn's results of the channel it
// returns, or -1.
func resultIndex(ch *channel) int {
	for _, ret := range ch.uses.Returns {
		for k, r := range ret.Results {
			if ch.uses.Values[r] {
				return k
			}
		}
	}
	return -1
}

// resultOf returns the value of result k of call, or nil if the caller
// drops it. A call of one result is its value, used or not: a dropped
// future is then a receiver that leaves at once.
func resultOf(call *ssa.Call, k int) ssa.Value {
	if call.Call.Signature().Results().Len() == 1 {
		return call
	}
	for _, ref := range *call.Referrers() {
		if x, ok := ref.(*ssa.Extract); ok && x.Index == k {
			return x
		}
	}
	return nil
}

// A callIndex holds, for the package, the static calls of each function
// and the functions used as values (whose callers are not all in view).
type callIndex struct {
	calls map[*ssa.Function][]*ssa.Call
	taken map[*ssa.Function]bool
}

// callersOf returns the calls of fn in the package and whether they are
// all of its calls: fn is not exported, not a method (interfaces call
// those out of view), and never used as a value.
func (c *checker) callersOf(fn *ssa.Function) ([]*ssa.Call, bool) {
	if c.index == nil {
		c.index = indexCalls(c.funcs)
	}
	if fn.Signature.Recv() != nil || c.index.taken[fn] {
		return nil, false
	}
	if obj := fn.Object(); obj != nil && obj.Exported() {
		return nil, false
	}
	calls := c.index.calls[fn]
	return calls, len(calls) > 0
}

// indexCalls scans every instruction of the package's functions.
func indexCalls(funcs []*ssa.Function) *callIndex {
	idx := &callIndex{calls: map[*ssa.Function][]*ssa.Call{}, taken: map[*ssa.Function]bool{}}
	var ops []*ssa.Value
	for _, fn := range funcs {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				var callee ssa.Value
				if call, ok := instr.(*ssa.Call); ok && !call.Call.IsInvoke() {
					if f := call.Call.StaticCallee(); f != nil {
						idx.calls[f] = append(idx.calls[f], call)
						callee = call.Call.Value
					}
				}
				if mc, ok := instr.(*ssa.MakeClosure); ok {
					for _, ref := range *mc.Referrers() {
						if call, ok := ref.(*ssa.Call); !ok || call.Call.Value != mc {
							idx.taken[mc.Fn.(*ssa.Function)] = true
						}
					}
					continue
				}
				for _, op := range instr.Operands(ops[:0]) {
					if f, ok := (*op).(*ssa.Function); ok && *op != callee {
						idx.taken[f] = true
					}
				}
			}
		}
	}
	return idx
}
