package strandedsend

import (
	"go/token"
	"go/types"
	"maps"
	"slices"

	"golang.org/x/tools/go/ssa"

	"github.com/admitlint/admitlint/internal/spawn"
	"github.com/admitlint/admitlint/internal/ssacfg"
	"github.com/admitlint/admitlint/passes/strandedsend/internal/chanuse"
	"github.com/admitlint/admitlint/passes/strandedsend/internal/waitpath"
)

// checkFuture reports the sends feeding a future that fn returns, when
// one of its callers in view can stop waiting for it (drops it, passes it
// on, or leaves before it receives). A future whose callers are not all
// in view (fn is reachable from another package, or used as a value) is
// judged by the calls the package makes itself outside its tests: the
// package's own use is the contract its other callers read. With no such
// call there is nothing to judge by, and it is reported at once, unless
// its sender waits for its caller's signal before its send (see
// livesOn). A caller that only returns it onward is a future function in
// turn, judged by its own callers; one that returns another channel on
// other paths makes it one source of a stream, judged where that stream
// is read.
func (c *checker) checkFuture(fn *ssa.Function, ch *channel, i int, targets []*op) {
	strands, leave := c.futureFate(fn, resultIndex(ch), ch.room, targets, map[*ssa.Function]bool{fn: true})
	switch {
	case leave != nil:
		c.reportLeave([]*stranding{c.stranding(ch, i, []int{i}, targets, nil, leave, waitpath.One, nil, false)})
	case strands:
		c.reportFuture(fn, ch, i, targets)
	}
}

// trailsStream reports whether channel i of sc, a future by its own
// sends, is returned beside a stream: another channel of sc returned by
// the same return, on which a goroutine sending on i sends in a loop (a
// stream of chunks and their error). Its reader reads the stream to its
// end and the trailer with it, one protocol, judged where the stream is
// read (validation set 14, an image source's GetBlobAt).
func trailsStream(sc *scope, i int) bool {
	for j, other := range sc.chans {
		if j == i || !returnedTogether(sc.chans[i].uses, other.uses) {
			continue
		}
		for _, s := range sc.senders {
			if !slices.ContainsFunc(s.ops, func(o *op) bool { return o.touches(i) }) {
				continue
			}
			if n, _, _ := s.sends([]int{j}); n.Stream {
				return true
			}
		}
	}
	return false
}

// forwardsOther reports whether the function of sc returns, at the
// result where it returns channel i, on another path, a channel it does
// not make: another producer's, from a call, a field or a parameter. The
// future is then the error branch of a function that otherwise forwards
// that producer's channel, a stream as far as it knows; its readers read
// it as they read that stream, judged where the stream is read, as when
// a caller returns a future on one path and a stream on another
// (validation set 31, opencode: an unsupported provider's one error
// event, or the child provider's stream of events).
func forwardsOther(sc *scope, i int) bool {
	k := resultIndex(sc.chans[i])
	if k < 0 {
		return false
	}
	made := map[ssa.Value]bool{}
	for _, ch := range sc.chans {
		maps.Copy(made, ch.uses.Values)
	}
	return otherResults(sc.fn, k, made)
}

// returnedTogether reports whether a return of the function returns a
// value of a with a value of b.
func returnedTogether(a, b *chanuse.Uses) bool {
	for _, ret := range a.Returns {
		if slices.ContainsFunc(ret.Results, func(r ssa.Value) bool { return b.Values[r] }) {
			return true
		}
	}
	return false
}

// maxForwards is how many functions returning a future onward
// futureFate follows.
const maxForwards = 3

// futureFate decides whether a caller of fn, which returns a future as
// its result k, can stop waiting for it: with the leave that shows it
// when one is found in view, or strands alone when the callers decide it
// out of view (dropped, passed on, or no caller to judge by).
func (c *checker) futureFate(fn *ssa.Function, k int, room int64, targets []*op, seen map[*ssa.Function]bool) (strands bool, leave *waitpath.Leave) {
	calls, all := c.callersOf(fn)
	if !all {
		calls = c.outsideTests(calls)
	}
	if k < 0 {
		return true, nil
	}
	switch {
	case len(calls) == 0 && all:
		// Every call is in view, and there is none: no caller can stop
		// waiting (validation set 29, cri-dockerd's watchErrorStream,
		// copied without its callers).
		return false, nil
	case len(calls) == 0:
		return !livesOn(targets) && !completesAll(targets), nil
	}
	for _, call := range calls {
		v := resultOf(call, k)
		if v == nil {
			return true, nil // the caller drops it
		}
		uses := chanuse.TraceFollowing(call.Parent(), []ssa.Value{v}, spawn.Sites(call.Parent()), chanuse.Local{})
		if j, mixed, ok := returnedOnward(v, uses); ok {
			outer := call.Parent()
			switch {
			case mixed:
				continue // one source of several: read as a stream
			case seen[outer] || len(seen) > maxForwards:
				return true, nil
			default:
				seen[outer] = true
				if strands, leave := c.futureFate(outer, j, room, targets, seen); strands || leave != nil {
					return strands, leave
				}
				continue
			}
		}
		if waitsInHandoffs(uses) {
			continue // a goroutine it starts waits in its stead
		}
		if uses.Escape != nil || len(uses.Returns)+len(uses.Handoffs)+len(uses.FieldStore)+len(uses.Sends)+len(uses.SendCases)+len(uses.Closes) > 0 {
			return true, nil // the caller passes it on
		}
		if leave := c.leaveFromCall(call, uses, room); leave != nil {
			return false, leave
		}
	}
	return false, nil
}

// leaveFromCall returns how the function making call can stop waiting
// for the one value the goroutine call starts sends on its result (the
// channel whose uses in the function are uses, with room in its
// buffer), or nil.
func (c *checker) leaveFromCall(call *ssa.Call, uses *chanuse.Uses, room int64) *waitpath.Leave {
	q := &waitpath.Query{
		Fn:     call.Parent(),
		Info:   c.pass.TypesInfo,
		Made:   call,
		Chans:  uses.Values,
		Kept:   uses.Kept,
		Starts: []waitpath.Start{{Instr: call, Case: -1, Sends: waitpath.One}},
		Room:   room,
		Never:  map[ssa.Value]bool{},
		Ends:   isTestFailure,
		Stops:  endsProcess,
	}
	c.markSilent(q, call.Parent())
	return waitpath.Find(q)
}

// returnedOnward reports whether the caller whose uses of the future v
// are u only returns it, at which result j, and whether it returns
// another channel there on other paths (mixed): a nil channel on an
// error path does not count. A function with deferred calls returns
// through a result slot, stored on each path and loaded at the end.
func returnedOnward(v ssa.Value, u *chanuse.Uses) (j int, mixed, ok bool) {
	if slot := resultSlot(v); slot != nil {
		j, mixed = slotResult(slot, v)
		return j, mixed, j >= 0
	}
	if u.Escape != nil || len(u.Returns) == 0 ||
		len(u.Recvs)+len(u.RecvCases)+len(u.Handoffs)+len(u.FieldStore)+len(u.Sends)+len(u.SendCases)+len(u.Closes)+len(u.Calls) > 0 {
		return -1, false, false
	}
	j = -1
	for _, ret := range u.Returns {
		for k, r := range ret.Results {
			if u.Values[r] {
				j = k
			}
		}
	}
	return j, j >= 0 && otherResults(u.Fn, j, u.Values), j >= 0
}

// otherResults reports whether fn returns at result j, on some path, a
// value that is neither one of values nor a nil constant.
func otherResults(fn *ssa.Function, j int, values map[ssa.Value]bool) bool {
	for _, b := range fn.Blocks {
		ret, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return)
		if ok && j < len(ret.Results) && !values[ret.Results[j]] && !waitpath.IsNilConst(ret.Results[j]) {
			return true
		}
	}
	return false
}

// resultSlot returns the local that v is only stored in, when that local
// is only loaded to be returned: a result slot. Nil otherwise.
func resultSlot(v ssa.Value) *ssa.Alloc {
	var slot *ssa.Alloc
	for _, ref := range *v.Referrers() {
		switch ref := ref.(type) {
		case *ssa.Store:
			a, ok := ref.Addr.(*ssa.Alloc)
			if !ok || ref.Val != v || slot != nil && a != slot {
				return nil
			}
			slot = a
		case *ssa.DebugRef:
		default:
			return nil
		}
	}
	if slot == nil {
		return nil
	}
	for _, ref := range *slot.Referrers() {
		switch ref := ref.(type) {
		case *ssa.Store:
		case *ssa.UnOp:
			if ref.Op != token.MUL || !onlyReturns(ref) {
				return nil
			}
		case *ssa.DebugRef:
		default:
			return nil
		}
	}
	return slot
}

// slotResult returns the result index at which the loads of slot are
// returned, and whether the slot also holds values other than v and nil.
func slotResult(slot *ssa.Alloc, v ssa.Value) (j int, mixed bool) {
	j = -1
	for _, ref := range *slot.Referrers() {
		switch ref := ref.(type) {
		case *ssa.Store:
			if ref.Val != v && !waitpath.IsNilConst(ref.Val) {
				mixed = true
			}
		case *ssa.UnOp:
			for _, r := range *ref.Referrers() {
				if ret, ok := r.(*ssa.Return); ok {
					j = slices.Index(ret.Results, ssa.Value(ref))
				}
			}
		}
	}
	return j, mixed
}

// onlyReturns reports whether v is used only by return statements.
func onlyReturns(v ssa.Value) bool {
	for _, ref := range *v.Referrers() {
		switch ref.(type) {
		case *ssa.Return, *ssa.DebugRef:
		default:
			return false
		}
	}
	return true
}

// livesOn reports whether every goroutine feeding the future can reach
// its send only once its caller has signalled (see waitsForCaller): it
// keeps a protocol with that consumer (signal, then read), and callers
// out of view are left to keep it (validation set 13, a collector whose
// caller closes its input, then reads its one result). A sender that
// waits for its caller's cancel only after its send is no such case: a
// caller that cancels before reading strands it at the send (moby's
// discovery watcher, bench/realbugs docker-42193), whatever the API
// promises about draining.
func livesOn(targets []*op) bool {
	for _, o := range targets {
		if !waitsForCaller(o.instr) {
			return false
		}
	}
	return len(targets) > 0
}

// waitsForCaller reports whether the goroutine sending at instr, a
// closure of the future's function, waits on every path to instr for a
// signal only its caller can give: it receives (or calls a function of
// the package that receives on every path, a range over its parameter)
// from a channel the future's function makes and hands its caller,
// returned as it is or closed by a closure it returns (a done func).
func waitsForCaller(instr ssa.Instruction) bool {
	g := instr.Parent()
	mc := closureMade(g)
	if mc == nil {
		return false
	}
	for _, b := range g.Blocks {
		if !b.Dominates(instr.Block()) {
			continue
		}
		for _, in := range b.Instrs {
			if in == instr {
				break
			}
			for _, ch := range waitedOn(in) {
				if ct, ok := ch.(*ssa.ChangeType); ok {
					ch = ct.X // a chan T passed as <-chan T
				}
				if alloc := boundAlloc(mc, ch); alloc != nil && callerSignals(alloc) {
					return true
				}
			}
		}
	}
	return false
}

// completesAll reports whether every goroutine feeding the future fills,
// on its way to the send, a variable of the future's function whose
// address the function returns beside the future (see completes).
func completesAll(targets []*op) bool {
	return len(targets) > 0 && !slices.ContainsFunc(targets, func(o *op) bool { return !completes(o.instr) })
}

// completes reports whether the goroutine sending at instr, a closure of
// the future's function, stores, on a path to instr, into a variable of
// that function whose address the function returns: results filled in
// the background, which a caller can read only once it has received, or
// it races with their writer. The future is then the signal that what
// was returned beside it is complete, and callers out of view wait for
// it, as every caller that uses those results must (validation set 41,
// dupl's BuildTree: the node slice it returns by address is complete on
// done). A variable written only after the send, or not returned, makes
// no such signal.
func completes(instr ssa.Instruction) bool {
	g := instr.Parent()
	mc := closureMade(g)
	if mc == nil {
		return false
	}
	for i, fv := range g.FreeVars {
		if alloc, ok := mc.Bindings[i].(*ssa.Alloc); !ok || !isReturned(alloc) {
			continue
		}
		for _, ref := range *fv.Referrers() {
			if st, ok := ref.(*ssa.Store); ok && st.Addr == fv && reaches(st, instr) {
				return true
			}
		}
	}
	return false
}

// isReturned reports whether a return of v's function has v among its
// results.
func isReturned(v ssa.Value) bool {
	return slices.ContainsFunc(*v.Referrers(), func(ref ssa.Instruction) bool {
		_, ok := ref.(*ssa.Return)
		return ok
	})
}

// closureMade returns the MakeClosure of anonymous function g in its
// parent, when there is exactly one.
func closureMade(g *ssa.Function) *ssa.MakeClosure {
	if g.Parent() == nil {
		return nil
	}
	var made *ssa.MakeClosure
	for _, b := range g.Parent().Blocks {
		for _, in := range b.Instrs {
			if mc, ok := in.(*ssa.MakeClosure); ok && mc.Fn == g {
				if made != nil {
					return nil
				}
				made = mc
			}
		}
	}
	return made
}

// waitedOn returns the channels instr waits to receive from before it
// completes: the channel of a blocking receive, the channels of a
// blocking select of receives, or the argument a static call of the
// package's code passes where the callee receives on every path to its
// return.
func waitedOn(in ssa.Instruction) []ssa.Value {
	switch x := in.(type) {
	case *ssa.UnOp:
		if x.Op == token.ARROW {
			return []ssa.Value{x.X}
		}
	case *ssa.Select:
		if blockingRecv(x) {
			var chans []ssa.Value
			for _, st := range x.States {
				chans = append(chans, st.Chan)
			}
			return chans
		}
	case *ssa.Call:
		callee := x.Call.StaticCallee()
		if callee == nil || callee.Pkg != in.Parent().Pkg || len(callee.Blocks) == 0 {
			return nil
		}
		var chans []ssa.Value
		for i, p := range callee.Params {
			if receivesBeforeReturn(callee, p) {
				chans = append(chans, x.Call.Args[i])
			}
		}
		return chans
	}
	return nil
}

// waitsInHandoffs reports whether a caller whose uses of a future are u
// only hands it to functions (goroutines it starts, closures it runs)
// that each receive from it with a plain receive before every return: the
// waiting is theirs, and they never stop (validation set 18, cilium's
// forwarding goroutines, whose first act is <-ew). A goroutine that
// selects on the future against ctx.Done() can give up, and is a caller
// passing the future on.
func waitsInHandoffs(u *chanuse.Uses) bool {
	if u.Escape != nil || len(u.Handoffs) == 0 || len(u.Returns)+len(u.FieldStore)+len(u.Sends)+len(u.SendCases)+len(u.Closes) > 0 {
		return false
	}
	for _, h := range u.Handoffs {
		if h.Fn == nil || h.Into == nil || !receivesBeforeReturn(h.Fn, h.Into) {
			return false
		}
	}
	return true
}

// receivesBeforeReturn reports whether fn receives from p, its parameter
// or free variable (captured as a cell, which it loads), in a block that dominates every return (a range over
// p ends only through its loop's head).
func receivesBeforeReturn(fn *ssa.Function, p ssa.Value) bool {
	for _, b := range fn.Blocks {
		for _, in := range b.Instrs {
			recv, ok := in.(*ssa.UnOp)
			if !ok || recv.Op != token.ARROW || recv.X != p && !loadOf(recv.X, p) {
				continue
			}
			all := true
			for _, r := range fn.Blocks {
				if _, ret := r.Instrs[len(r.Instrs)-1].(*ssa.Return); ret && r != fn.Recover && !b.Dominates(r) {
					all = false
				}
			}
			if all {
				return true
			}
		}
	}
	return false
}

// loadOf reports whether v is a load of the cell p.
func loadOf(v, p ssa.Value) bool {
	ld, ok := v.(*ssa.UnOp)
	return ok && ld.Op == token.MUL && ld.X == p
}

// callerSignals reports whether the channel held in variable alloc, made
// by alloc's function, reaches its caller as a way to signal: the
// function returns the channel, or returns a closure that closes it.
func callerSignals(alloc *ssa.Alloc) bool {
	fn := alloc.Parent()
	vals := ssacfg.Stores(alloc)
	if len(vals) != 1 {
		return false // set more than once: not one channel
	}
	ch, ok := vals[0].(*ssa.MakeChan)
	if !ok {
		return false
	}
	for _, b := range fn.Blocks {
		ret, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return)
		if !ok {
			continue
		}
		for _, r := range ret.Results {
			if ct, ok := r.(*ssa.ChangeType); ok {
				r = ct.X
			}
			if r == ssa.Value(ch) {
				return true
			}
			if mc, ok := r.(*ssa.MakeClosure); ok && closesBound(mc, alloc) {
				return true
			}
		}
	}
	return false
}

// closesBound reports whether the closure mc closes the channel held in
// variable alloc, one of its bindings.
func closesBound(mc *ssa.MakeClosure, alloc *ssa.Alloc) bool {
	for _, b := range mc.Fn.(*ssa.Function).Blocks {
		for _, in := range b.Instrs {
			call, ok := in.(*ssa.Call)
			if !ok || len(call.Call.Args) != 1 {
				continue
			}
			if bi, ok := call.Call.Value.(*ssa.Builtin); ok && bi.Name() == "close" && boundAlloc(mc, call.Call.Args[0]) == alloc {
				return true
			}
		}
	}
	return false
}

// blockingRecv reports whether instr waits to receive: <-ch, or a
// blocking select of receives only.
func blockingRecv(instr ssa.Instruction) bool {
	switch in := instr.(type) {
	case *ssa.UnOp:
		return in.Op == token.ARROW
	case *ssa.Select:
		if !in.Blocking {
			return false
		}
		for _, st := range in.States {
			if st.Dir != types.RecvOnly {
				return false
			}
		}
		return true
	}
	return false
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
	// invoked holds the names of the methods the package calls through
	// an interface.
	invoked map[string]bool
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
	if !obj.Exported() && !c.index.invoked[obj.Name()] {
		// An unexported method is called through an interface only by an
		// interface of its own package declaring it: by an invoke here.
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
	idx := &callIndex{calls: map[*ssa.Function][]*ssa.Call{}, taken: map[*ssa.Function]bool{}, boxed: map[*types.TypeName]bool{}, valued: map[types.Object]bool{}, invoked: map[string]bool{}}
	var ops []*ssa.Value
	for _, fn := range funcs {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				var callee ssa.Value
				if call, ok := instr.(ssa.CallInstruction); ok && call.Common().IsInvoke() {
					idx.invoked[call.Common().Method.Name()] = true
				}
				if call, ok := instr.(*ssa.Call); ok && !call.Call.IsInvoke() {
					f := call.Call.StaticCallee()
					if f == nil {
						f = ssacfg.ClosureOf(call.Call.Value) // a closure kept in a variable
					}
					if f != nil {
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
					if !ssacfg.OnlyCalled(mc) {
						// Handed on other than to closures that only call
						// it (validation set 31, athens: a future made by
						// one closure and awaited in another).
						idx.taken[mc.Fn.(*ssa.Function)] = true
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
