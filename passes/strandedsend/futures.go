package strandedsend

import (
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/admitlint/admitlint/internal/spawn"
	"github.com/admitlint/admitlint/passes/strandedsend/internal/chanuse"
	"github.com/admitlint/admitlint/passes/strandedsend/internal/waitpath"
)

// checkFuture reports the sends feeding a future that fn returns, when
// one of its callers in view can stop waiting for it (drops it, passes it
// on, or leaves before it receives). A future whose callers are not all
// in view (fn is reachable from another package, or used as a value) is
// judged by the calls the package makes itself outside its tests: the
// package's own use is the contract its other callers read. With no such
// call there is nothing to judge by, and it is reported at once.
func (c *checker) checkFuture(fn *ssa.Function, ch *channel, i int, targets []*op) {
	calls, all := c.callersOf(fn)
	if !all {
		calls = c.outsideTests(calls)
	}
	k := resultIndex(ch)
	if len(calls) == 0 || k < 0 {
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

// outsideTests returns the calls made outside the package's tests.
func (c *checker) outsideTests(calls []*ssa.Call) []*ssa.Call {
	var out []*ssa.Call
	for _, call := range calls {
		if !c.inTestCode(call.Parent(), call.Pos()) {
			out = append(out, call)
		}
	}
	return out
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
	calls  map[*ssa.Function][]*ssa.Call
	taken  map[*ssa.Function]bool
	boxed  map[*types.TypeName]bool // types converted to an interface or embedded
	valued map[types.Object]bool    // methods taken as values (bound, or by expression)
}

// callersOf returns the static calls of fn in the package and whether
// they are all of its calls: fn is never used as a value, and no other
// package can call it. Another package can call an exported function or
// method of a package other than main (a method of an unexported type
// too: an exported function may return one), and any method of a type
// the package converts to an interface or embeds in another.
func (c *checker) callersOf(fn *ssa.Function) ([]*ssa.Call, bool) {
	if c.index == nil {
		c.index = indexCalls(c.funcs)
		c.index.embedded(c.pass.Pkg)
	}
	calls := c.index.calls[fn]
	obj := fn.Object()
	if c.index.taken[fn] || obj != nil && c.index.valued[obj] {
		return calls, false
	}
	return calls, !c.reachable(fn)
}

// reachable reports whether code outside the package can call fn.
func (c *checker) reachable(fn *ssa.Function) bool {
	obj := fn.Object()
	if obj == nil {
		return false
	}
	if obj.Exported() && c.pass.Pkg.Name() != "main" {
		return true
	}
	recv := fn.Signature.Recv()
	if recv == nil {
		return false
	}
	named := recvNamed(recv.Type())
	return named == nil || c.index.boxed[named.Obj()]
}

// embedded marks as boxed the types embedded in the package's structs:
// their methods are promoted to whatever the outer type reaches.
func (idx *callIndex) embedded(pkg *types.Package) {
	scope := pkg.Scope()
	for _, name := range scope.Names() {
		st, ok := scope.Lookup(name).Type().Underlying().(*types.Struct)
		if !ok {
			continue
		}
		for i := range st.NumFields() {
			if f := st.Field(i); f.Embedded() {
				if named := recvNamed(f.Type()); named != nil {
					idx.boxed[named.Obj()] = true
				}
			}
		}
	}
}

// recvNamed returns the named type of a receiver, T or *T.
func recvNamed(t types.Type) *types.Named {
	if p, ok := types.Unalias(t).(*types.Pointer); ok {
		t = p.Elem()
	}
	named, _ := types.Unalias(t).(*types.Named)
	return named
}

// indexCalls scans every instruction of the package's functions.
func indexCalls(funcs []*ssa.Function) *callIndex {
	idx := &callIndex{calls: map[*ssa.Function][]*ssa.Call{}, taken: map[*ssa.Function]bool{}, boxed: map[*types.TypeName]bool{}, valued: map[types.Object]bool{}}
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
				if mi, ok := instr.(*ssa.MakeInterface); ok {
					if named := recvNamed(mi.X.Type()); named != nil {
						idx.boxed[named.Obj()] = true
					}
				}
				if mc, ok := instr.(*ssa.MakeClosure); ok {
					for _, ref := range *mc.Referrers() {
						if call, ok := ref.(*ssa.Call); !ok || call.Call.Value != mc {
							idx.taken[mc.Fn.(*ssa.Function)] = true
						}
					}
					if f := mc.Fn.(*ssa.Function); f.Synthetic != "" && f.Object() != nil {
						idx.valued[f.Object()] = true // a bound method
					}
					continue
				}
				for _, op := range instr.Operands(ops[:0]) {
					if f, ok := (*op).(*ssa.Function); ok && *op != callee {
						idx.taken[f] = true
						if f.Synthetic != "" && f.Object() != nil {
							idx.valued[f.Object()] = true // a method expression
						}
					}
				}
			}
		}
	}
	return idx
}
