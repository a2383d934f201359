// Package chanuse classifies, in SSA, what one function does with one
// channel: where it receives from it, sends on it or closes it, which
// goroutines and in-place closures it hands it to, where it stores it in a
// struct field or returns it, and whether any other use lets code out of
// view reach it.
//
// A channel reaches a function as a value (the make, a parameter) or as a
// cell: go/ssa heap-allocates every variable a closure captures, so a
// closure's free variable, and the local variable it refers to, is a
// *chan T whose loads are the channel. Trace follows both.
//
// It may also reach it held in a struct: in a field of a struct value,
// of the struct a pointer points to, or of one a cell holds. A trace
// that follows calls (TraceFollowing, with a Follow) follows the struct
// a function makes and stores its channel in, into the goroutines,
// closures and summarised helpers it is handed to, where loads of that
// field are the channel; TraceHandoff starts from a struct so handed.
package chanuse

import (
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"

	"github.com/admitlint/admitlint/internal/ssacfg"

	"github.com/admitlint/admitlint/internal/spawn"
)

// A Case is one case of a select statement.
type Case struct {
	Select *ssa.Select
	Index  int // index in Select.States
}

// A Handoff is a place where the channel passes into another function:
// the goroutine a spawn site starts, or a closure the function runs in
// place: called (immediately or deferred), or handed as a callback to a
// function that calls it in place (a walker, a range-over-func loop
// body). Into is the callee's parameter or free variable that receives
// it (a cell for a free variable); it is nil for a goroutine running a
// function of another package, which the Follow of the trace vouches
// for (see Follow.Call). For a method value run in place (f := t.m;
// f()), Fn is the method, not its synthetic wrapper, and Into its
// receiver.
type Handoff struct {
	Site  *spawn.Site     // nil for a closure run in place
	Instr ssa.Instruction // the spawn, or the call or defer that runs the closure
	Fn    *ssa.Function
	Into  ssa.Value
	Runs  Runs // for a closure run in place: how many times
	// Holding says whether Into is the channel (or its cell), or holds
	// it in a struct's field; From is the value handed over.
	Holding
	From ssa.Value
}

// A Holding says how a value carries the channel: as itself, or cell
// (the zero Holding), or Held in field Field of a struct: the value is
// the struct, a pointer to it, or a cell holding either.
type Holding struct {
	Held  bool
	Field int // the field's index in the struct, when Held
}

// Runs says how many times a closure run in place runs per run of the
// instruction that hands it over.
type Runs int

const (
	Once       Runs = iota // called or deferred: exactly once
	AtMostOnce             // a callback run once at most (sync.Once's Do)
	Many                   // a callback run any number of times (a walker, a loop body)
)

// A Call is a call that passes the channel, as argument Arg, to a
// function the Follow of the trace vouches for: one whose summary says
// what it does with the channel.
type Call struct {
	Instr ssa.CallInstruction
	Arg   int // index in Instr.Common().Args
	Holding
}

// Follow says which calls a trace may look through instead of treating
// them as uses out of view. A nil Follow follows none.
type Follow interface {
	// Call reports whether the channel, passed as argument arg of call
	// (itself, or held as how says), is summarised there (see
	// Uses.Calls). The call may be a go statement running a function of
	// another package.
	Call(call ssa.CallInstruction, arg int, how Holding) bool
	// Callback reports whether the function value passed as argument
	// arg of call is run in place, in the caller's goroutine, and how
	// many times; ok is false if it may be kept or run elsewhere.
	Callback(call ssa.CallInstruction, arg int) (runs Runs, ok bool)
}

// Local is the Follow that looks through no call: a trace with it
// follows the channel into structs, and maps of them, that the function
// makes and keeps to itself, where a trace without a Follow stops at the
// struct. It answers whether the function passes the channel on (a
// future's caller), not how many values it sends: reading the struct's
// other fields is no use of the channel.
type Local struct{}

func (Local) Call(ssa.CallInstruction, int, Holding) bool    { return false }
func (Local) Callback(ssa.CallInstruction, int) (Runs, bool) { return 0, false }

// A FieldStore is a store of the channel into field Field of a struct
// whose address is Base.
type FieldStore struct {
	Store *ssa.Store
	Base  ssa.Value
	Field *types.Var
}

// Uses is what one function does with one channel.
type Uses struct {
	Fn     *ssa.Function
	Values map[ssa.Value]bool // SSA values that are the channel

	Recvs      []*ssa.UnOp // <-ch, including v, ok := <-ch
	RecvCases  []Case
	Sends      []*ssa.Send
	SendCases  []Case
	Closes     []ssa.CallInstruction // close(ch), or defer close(ch)
	Returns    []*ssa.Return
	Handoffs   []Handoff
	FieldStore []FieldStore
	Calls      []Call // calls the Follow of the trace looks through

	// Kept reports whether the function puts the channel in a map of
	// its own (see Local), so that each channel one instruction makes
	// stays there when the instruction makes another.
	Kept bool

	// Escape is the first use through which code out of view can reach
	// the channel (a call, an interface, a global, another channel, a
	// reassignment of the variable holding it); nil if there is none.
	Escape ssa.Instruction
}

// Trace returns the uses in fn of the channel whose values or cells in
// fn are roots. A root of pointer type is a cell (a variable holding the
// channel); any other root is the channel itself. sites are fn's spawn
// sites (spawn.Sites(fn)), passed in so callers compute them once.
func Trace(fn *ssa.Function, roots []ssa.Value, sites []spawn.Site) *Uses {
	return TraceFollowing(fn, roots, sites, nil)
}

// TraceFollowing is Trace, looking through the calls and callbacks follow
// vouches for: such a call is recorded in Calls, such a callback as a
// Handoff run in place, instead of either being an escape.
func TraceFollowing(fn *ssa.Function, roots []ssa.Value, sites []spawn.Site, follow Follow) *Uses {
	t := newTracer(fn, sites, follow)
	for _, r := range roots {
		t.root(r)
	}
	return t.u
}

// root follows r, a cell holding the channel if it is a pointer, the
// channel itself otherwise.
func (t *tracer) root(r ssa.Value) {
	if _, ok := r.Type().Underlying().(*types.Pointer); ok {
		t.cell(r)
	} else {
		t.value(r)
	}
}

// TraceHandoff returns the uses of the channel in the function h hands
// it into, from h.Into: the channel, its cell, or the struct holding it.
func TraceHandoff(h Handoff, sites []spawn.Site, follow Follow) *Uses {
	if !h.Held {
		return TraceFollowing(h.Fn, []ssa.Value{h.Into}, sites, follow)
	}
	t := newTracer(h.Fn, sites, follow)
	t.held(h.Into, h.Field)
	return t.u
}

// TraceSender is TraceHandoff for the goroutine of a sender, which
// also follows the channel into a closure the goroutine calls in place
// at several calls (a helper literal that sends: add := func(n string)
// { names <- n }; add(a); … add(b)), with one Handoff per call, each run
// once. A closure called at one call is followed by every trace.
func TraceSender(h Handoff, sites []spawn.Site, follow Follow) *Uses {
	if h.Held {
		return TraceHandoff(h, sites, follow)
	}
	t := newTracer(h.Fn, sites, follow)
	t.calls = true
	t.root(h.Into)
	return t.u
}

func newTracer(fn *ssa.Function, sites []spawn.Site, follow Follow) *tracer {
	return &tracer{u: &Uses{Fn: fn, Values: map[ssa.Value]bool{}}, sites: sites,
		cells: map[ssa.Value]bool{}, holders: map[ssa.Value]int{}, follow: follow, local: follow == Local{}}
}

type tracer struct {
	u       *Uses
	sites   []spawn.Site
	cells   map[ssa.Value]bool
	holders map[ssa.Value]int // values holding the channel, by the struct's field holding it
	follow  Follow
	calls   bool // follow closures called in place at several calls
	local   bool // the follow is Local: only whether the channel is passed on matters
}

func (t *tracer) escape(instr ssa.Instruction) {
	if t.u.Escape == nil {
		t.u.Escape = instr
	}
}

// cell follows a variable holding the channel: loads are the channel;
// a store puts something else there unless it stores the channel itself.
func (t *tracer) cell(c ssa.Value) {
	if t.cells[c] {
		return
	}
	t.cells[c] = true
	for _, instr := range *c.Referrers() {
		switch instr := instr.(type) {
		case *ssa.UnOp:
			if instr.X == c && instr.Op == token.MUL {
				t.value(instr)
				continue
			}
			t.escape(instr)
		case *ssa.Store:
			if instr.Addr == c && t.u.Values[instr.Val] {
				continue
			}
			t.escape(instr)
		case *ssa.MakeClosure:
			t.closure(instr, c, Holding{})
		case *ssa.DebugRef:
		default:
			t.escape(instr)
		}
	}
}

// value follows an SSA value that is the channel.
func (t *tracer) value(v ssa.Value) {
	if t.u.Values[v] {
		return
	}
	t.u.Values[v] = true
	for _, instr := range *v.Referrers() {
		t.use(v, instr)
	}
}

// use classifies one use of the channel value v.
func (t *tracer) use(v ssa.Value, instr ssa.Instruction) {
	switch instr := instr.(type) {
	case *ssa.UnOp:
		if instr.Op == token.ARROW {
			t.u.Recvs = append(t.u.Recvs, instr)
			return
		}
		t.escape(instr)
	case *ssa.ChangeType:
		t.value(instr)
	case *ssa.Send:
		if instr.Chan == v && instr.X != v {
			t.u.Sends = append(t.u.Sends, instr)
			return
		}
		t.escape(instr)
	case *ssa.Select:
		t.selectUse(v, instr)
	case *ssa.Store:
		t.store(v, instr)
	case *ssa.Return:
		t.u.Returns = append(t.u.Returns, instr)
	case *ssa.MakeClosure:
		t.closure(instr, v, Holding{})
	case *ssa.Go:
		t.spawnArg(v, instr, Holding{})
	case *ssa.Call:
		t.call(v, instr, Holding{})
	case *ssa.Defer:
		t.call(v, instr, Holding{})
	case *ssa.BinOp:
		// ch == nil, ch != other: comparisons hand the channel to no one.
	case *ssa.DebugRef:
	default:
		t.escape(instr)
	}
}

// selectUse records each case of sel on v; a select that sends v itself
// as a value lets the channel escape.
func (t *tracer) selectUse(v ssa.Value, sel *ssa.Select) {
	for i, st := range sel.States {
		switch {
		case st.Send == v:
			t.escape(sel)
		case st.Chan != v:
		case st.Dir == types.RecvOnly:
			t.u.RecvCases = append(t.u.RecvCases, Case{sel, i})
		default:
			t.u.SendCases = append(t.u.SendCases, Case{sel, i})
		}
	}
}

// store records a store of the channel into a struct field or a local
// variable; any other store escapes.
func (t *tracer) store(v ssa.Value, st *ssa.Store) {
	if st.Val != v {
		t.escape(st)
		return
	}
	switch addr := st.Addr.(type) {
	case *ssa.FieldAddr:
		field := fieldOf(addr)
		if field == nil {
			t.escape(st)
			return
		}
		if base, ok := addr.X.(*ssa.Alloc); ok && t.follow != nil && base.Parent() == t.u.Fn {
			// A struct the function makes (a composite literal, a
			// variable): the channel goes wherever the struct goes.
			t.held(base, addr.Field)
			return
		}
		t.u.FieldStore = append(t.u.FieldStore, FieldStore{Store: st, Base: addr.X, Field: field})
	case *ssa.Alloc:
		t.cell(addr)
	default:
		t.escape(st)
	}
}

// closure follows the channel (or its cell, or what holds it, as how
// says) x into closure mc's free variable, when mc is spawned or called
// in place; a closure kept as a value lets the channel escape.
func (t *tracer) closure(mc *ssa.MakeClosure, x ssa.Value, how Holding) {
	fn, _ := mc.Fn.(*ssa.Function)
	for i := range t.sites {
		s := &t.sites[i]
		if s.Fn == fn && s.Fn != nil && bindsClosure(s, mc) {
			t.handoffBindings(s, s.Instr, fn, mc, x, how, Once)
			return
		}
	}
	refs := *mc.Referrers()
	if calls := t.inPlaceCalls(mc); len(calls) > 1 {
		for _, call := range calls {
			t.handoffBindings(nil, call, fn, mc, x, how, Once)
		}
		return
	}
	if len(refs) != 1 {
		t.escape(mc)
		return
	}
	switch call := refs[0].(type) {
	case *ssa.Call:
		if call.Call.Value == mc {
			t.handoffBindings(nil, call, fn, mc, x, how, Once)
			return
		}
		if runs, ok := t.callback(call, mc, mc); ok {
			t.handoffBindings(nil, call, fn, mc, x, how, runs)
			return
		}
	case *ssa.Defer:
		if call.Call.Value == mc {
			t.handoffBindings(nil, call, fn, mc, x, how, Once)
			return
		}
	case *ssa.ChangeType:
		// A literal given to a parameter of a named func type
		// (fs.WalkDirFunc) is converted first.
		if refs := *call.Referrers(); len(refs) == 1 {
			if c, ok := refs[0].(*ssa.Call); ok {
				if runs, ok := t.callback(c, call, mc); ok {
					t.handoffBindings(nil, c, fn, mc, x, how, runs)
					return
				}
			}
		}
	}
	t.escape(mc)
}

// inPlaceCalls returns the calls of closure mc when the trace follows
// closures called at several calls and every use of mc is a call of it
// (called in place, mc not passed on or kept); otherwise nil.
func (t *tracer) inPlaceCalls(mc *ssa.MakeClosure) []ssa.Instruction {
	if !t.calls {
		return nil
	}
	var calls []ssa.Instruction
	for _, ref := range *mc.Referrers() {
		switch ref := ref.(type) {
		case *ssa.DebugRef:
		case *ssa.Call:
			if ref.Call.Value != mc || slices.Contains(ref.Call.Args, ssa.Value(mc)) {
				return nil
			}
			calls = append(calls, ref)
		default:
			return nil
		}
	}
	return calls
}

// callback reports whether call runs closure mc, passed as its argument
// arg (mc itself, or mc converted), in place, and how many times. The body of a range-over-func loop is such
// a closure, passed to the iterator: it runs in the loop's goroutine.
func (t *tracer) callback(call *ssa.Call, arg ssa.Value, mc *ssa.MakeClosure) (Runs, bool) {
	for i, a := range call.Call.Args {
		if a != arg {
			continue
		}
		if ssacfg.IsYieldBody(mc.Fn.(*ssa.Function)) {
			return Many, true
		}
		if t.follow != nil {
			return t.follow.Callback(call, i)
		}
	}
	return 0, false
}

// bindsClosure reports whether spawn site s starts the closure mc.
func bindsClosure(s *spawn.Site, mc *ssa.MakeClosure) bool {
	switch instr := s.Instr.(type) {
	case *ssa.Go:
		return instr.Call.Value == mc
	case *ssa.Call:
		return len(instr.Call.Args) == 2 && instr.Call.Args[1] == mc
	}
	return false
}

// handoffBindings records the handoff of x, bound in closure mc of fn,
// into fn's free variable, run as runs says. A bound-method wrapper (the
// function of a method value t.m, whose one free variable is t) is
// looked through to the method, into its receiver: the wrapper is
// synthetic, and a use found in it would have no position. Any other
// synthetic function, or a method whose body is not in view, lets the
// channel escape.
func (t *tracer) handoffBindings(s *spawn.Site, instr ssa.Instruction, fn *ssa.Function, mc *ssa.MakeClosure, x ssa.Value, how Holding, runs Runs) {
	if fn.Synthetic != "" && !ssacfg.IsYieldBody(fn) {
		m := spawn.BoundMethod(fn)
		if m == nil || m.Blocks == nil || len(m.Params) == 0 || len(mc.Bindings) != 1 ||
			mc.Bindings[0] != x || !types.Identical(m.Params[0].Type(), x.Type()) {
			t.escape(mc)
			return
		}
		t.u.Handoffs = append(t.u.Handoffs, Handoff{Site: s, Instr: instr, Fn: m, Into: m.Params[0], Runs: runs, Holding: how, From: x})
		return
	}
	for i, b := range mc.Bindings {
		if b == x && i < len(fn.FreeVars) {
			t.u.Handoffs = append(t.u.Handoffs, Handoff{Site: s, Instr: instr, Fn: fn, Into: fn.FreeVars[i], Runs: runs, Holding: how, From: x})
		}
	}
}

// wrappedArg follows the channel (or what holds it) passed to a
// spawning wrapper (see spawn.Wrapped) into the goroutine it starts,
// when call is one of the sites; it reports whether it did.
func (t *tracer) wrappedArg(v ssa.Value, call ssa.CallInstruction, how Holding) bool {
	found := false
	for i := range t.sites {
		s := &t.sites[i]
		if s.Instr != call || s.Fn == nil || s.Fn.Blocks == nil || len(s.Args) != len(s.Fn.Params) {
			continue
		}
		for j, a := range s.Args {
			if a == v {
				t.u.Handoffs = append(t.u.Handoffs, Handoff{Site: s, Instr: call, Fn: s.Fn, Into: s.Fn.Params[j], Holding: how, From: v})
				found = true
			}
		}
	}
	return found
}

// spawnArg follows the channel (or what holds it) passed as an argument
// to a go statement.
func (t *tracer) spawnArg(v ssa.Value, g *ssa.Go, how Holding) {
	for i := range t.sites {
		s := &t.sites[i]
		if s.Instr != g {
			continue
		}
		if s.Fn != nil && s.Fn.Blocks == nil && t.follow != nil && !passesOtherChan(g, v, how) {
			// A function of another package: its summary says what it
			// does with the channel.
			for j, a := range g.Call.Args {
				if a == v && t.follow.Call(g, j, how) {
					t.u.Handoffs = append(t.u.Handoffs, Handoff{Site: s, Instr: g, Fn: s.Fn, Holding: how, From: v})
					return
				}
			}
		}
		if s.Fn == nil || s.Fn.Blocks == nil || len(s.Args) != len(s.Fn.Params) {
			break
		}
		found := false
		for j, a := range s.Args {
			if a == v {
				t.u.Handoffs = append(t.u.Handoffs, Handoff{Site: s, Instr: g, Fn: s.Fn, Into: s.Fn.Params[j], Holding: how, From: v})
				found = true
			}
		}
		if found {
			return
		}
	}
	t.escape(g)
}

// call classifies a call (or deferred call) using the channel (or what
// holds it, as how says): close, len and cap are harmless; a callee the
// Follow vouches for is looked through; any other callee may keep it.
func (t *tracer) call(v ssa.Value, call ssa.CallInstruction, how Holding) {
	if b, ok := call.Common().Value.(*ssa.Builtin); ok && !how.Held {
		switch b.Name() {
		case "close":
			t.u.Closes = append(t.u.Closes, call)
			return
		case "len", "cap":
			return
		}
	}
	if t.wrappedArg(v, call, how) {
		return
	}
	if t.follow != nil && call.Common().Value != v && !passesOtherChan(call, v, how) {
		args := call.Common().Args
		found := false
		for i, a := range args {
			if a == v {
				if !t.follow.Call(call, i, how) {
					t.escape(call)
					return
				}
				t.u.Calls = append(t.u.Calls, Call{Instr: call, Arg: i, Holding: how})
				found = true
			}
		}
		if found {
			return
		}
	}
	t.escape(call)
}

// passesOtherChan reports whether call passes a channel other than v
// (as how says v carries it): a helper given two channels may send on
// one or the other, which its summary of each alone does not say, so it
// is not looked through. Another channel argument counts unless it is
// receive-only and not v itself converted (a ticker's C, a quit
// channel): the helper cannot send on it, and what receiving from it
// does to the sends on v, a case that gives up or one that loops back,
// is in v's summary already (a helper of another package whose select
// waits on a beat and goes round: issue 14's shape 5). When v is a
// struct holding the channel, so does any other argument that can reach
// a channel (see reachesChan), and any other field of that struct that
// can. A plain channel passed beside a struct that only reaches channels
// of its own (a receiver whose config holds a logging func: helm's
// reportToRun) is looked through: which of the struct's channels is
// this function's is not in question.
func passesOtherChan(call ssa.CallInstruction, v ssa.Value, how Holding) bool {
	for _, a := range call.Common().Args {
		if a != v && (IsChan(a.Type()) && !receiveOnlyOther(a, v) || how.Held && carriesChan(a.Type())) {
			return true
		}
		if a == v && how.Held && otherFieldsCarry(a.Type(), how.Field) {
			return true
		}
	}
	return false
}

// receiveOnlyOther reports whether a is a receive-only channel that is
// not v seen through a conversion.
func receiveOnlyOther(a, v ssa.Value) bool {
	c, ok := a.Type().Underlying().(*types.Chan)
	if !ok || c.Dir() != types.RecvOnly {
		return false
	}
	for {
		ct, ok := a.(*ssa.ChangeType)
		if !ok {
			return true
		}
		if ct.X == v {
			return false
		}
		a = ct.X
	}
}

// carriesChan reports whether an argument of type typ carries a channel:
// it is one, or a value that reaches one (see reachesChan). A pointer to
// a channel does not count (the cell of a variable), nor does a function
// argument: only a function held in a field does.
func carriesChan(typ types.Type) bool {
	switch typ := typ.Underlying().(type) {
	case *types.Pointer:
		if IsChan(typ.Elem()) {
			return false
		}
	case *types.Signature:
		return false
	}
	return reachesChan(typ, map[types.Type]bool{})
}

// otherFieldsCarry reports whether the struct of type typ (or the one it
// points to) can reach a channel from a field other than field skip.
// A type that is no such struct counts as carrying one.
func otherFieldsCarry(typ types.Type, skip int) bool {
	seen := map[types.Type]bool{}
	for {
		ptr, ok := typ.Underlying().(*types.Pointer)
		if !ok || seen[typ] {
			break
		}
		seen[typ] = true
		typ = ptr.Elem()
	}
	st, ok := typ.Underlying().(*types.Struct)
	if !ok {
		return true
	}
	for i := range st.NumFields() {
		if i != skip && reachesChan(st.Field(i).Type(), seen) {
			return true
		}
	}
	return false
}

// reachesChan reports whether a value of type typ can reach a channel:
// it is a channel or a function (which may close over one), or holds one
// in a field, embedded or not, behind a pointer, or as an element of an
// array, slice or map, at any depth. An interface does not count:
// counting every context.Context or logger would hide every helper.
// seen holds the types already asked about, for recursive types.
func reachesChan(typ types.Type, seen map[types.Type]bool) bool {
	if seen[typ] {
		return false
	}
	seen[typ] = true
	switch typ := typ.Underlying().(type) {
	case *types.Chan, *types.Signature:
		return true
	case *types.Pointer:
		return reachesChan(typ.Elem(), seen)
	case *types.Array:
		return reachesChan(typ.Elem(), seen)
	case *types.Slice:
		return reachesChan(typ.Elem(), seen)
	case *types.Map:
		return reachesChan(typ.Key(), seen) || reachesChan(typ.Elem(), seen)
	case *types.Struct:
		for i := range typ.NumFields() {
			if reachesChan(typ.Field(i).Type(), seen) {
				return true
			}
		}
	}
	return false
}

// ReachesOther reports whether a field of type typ, beside the one
// holding the channel, can reach another channel the trace does not see
// as one (see reachesChan): embedded, nested, behind a pointer or in a
// function. Code reading it may send there instead of on the channel
// (or wait there for a sender that does), which a count of this
// channel's sends does not say, so such a read is an escape. A field
// that is itself a channel is a channel of its own, traced apart when
// the function made it.
func ReachesOther(typ types.Type) bool {
	return !IsChan(typ) && reachesChan(typ, map[types.Type]bool{})
}

// ReadsOther reports whether fa, the address of a field of the struct
// holding the channel in another field, is read (not only stored into)
// and its field reaches another channel (see ReachesOther).
func ReadsOther(fa *ssa.FieldAddr) bool {
	ptr, ok := fa.Type().Underlying().(*types.Pointer)
	return ok && ReachesOther(ptr.Elem()) && !OnlyStoredInto(fa)
}

// OnlyStoredInto reports whether the address addr (of a field, or of
// something inside one) is only stored into: filling the struct in
// hands nothing out of it.
func OnlyStoredInto(addr ssa.Value) bool {
	for _, instr := range *addr.Referrers() {
		switch instr := instr.(type) {
		case *ssa.Store:
			if instr.Addr != addr {
				return false
			}
		case *ssa.FieldAddr:
			if !OnlyStoredInto(instr) {
				return false
			}
		case *ssa.IndexAddr:
			if !OnlyStoredInto(instr) {
				return false
			}
		case *ssa.DebugRef:
		default:
			return false
		}
	}
	return true
}

// IsChan reports whether typ is a channel type.
func IsChan(typ types.Type) bool {
	_, ok := typ.Underlying().(*types.Chan)
	return ok
}

// held follows v, which holds the channel in field f of a struct: the
// struct itself, a pointer to it, or a cell (a variable a closure
// captures) holding the pointer or the struct.
func (t *tracer) held(v ssa.Value, f int) {
	if g, seen := t.holders[v]; seen {
		if g != f {
			// The channel in two fields of one struct: each field's
			// uses would be the channel's, which one trace per field
			// does not follow.
			t.escapeValue(v)
		}
		return
	}
	t.holders[v] = f
	switch typ := v.Type().Underlying().(type) {
	case *types.Struct:
		t.heldStruct(v, f)
	case *types.Pointer:
		switch typ.Elem().Underlying().(type) {
		case *types.Struct:
			t.heldPointer(v, f)
		case *types.Pointer:
			t.heldCell(v, f)
		default:
			t.escapeValue(v)
		}
	default:
		t.escapeValue(v) // held some other way: out of view
	}
}

// heldPointer follows p, a pointer to the struct holding the channel in
// field f: the field's address is a cell of the channel; the struct's
// other fields are other memory.
func (t *tracer) heldPointer(p ssa.Value, f int) {
	how := Holding{Held: true, Field: f}
	for _, instr := range *p.Referrers() {
		switch instr := instr.(type) {
		case *ssa.FieldAddr:
			if instr.Field == f {
				t.cell(instr)
				continue
			}
			if ReadsOther(instr) && !t.local {
				t.escape(instr)
			}
		case *ssa.UnOp:
			if instr.Op != token.MUL {
				t.escape(instr)
				continue
			}
			t.held(instr, f) // a copy of the struct
		case *ssa.MapUpdate:
			t.heldIn(instr, p, f)
		case *ssa.Store:
			switch {
			case instr.Addr == p && t.holds(instr.Val, f):
				// A struct held copied in: a parameter kept in its
				// variable.
			case instr.Val == p && isLocal(instr.Addr, t.u.Fn):
				t.held(instr.Addr, f) // kept in a variable
			default:
				t.escape(instr)
			}
		case *ssa.MakeClosure:
			t.closure(instr, p, how)
		case *ssa.Go:
			t.spawnArg(p, instr, how)
		case *ssa.Call:
			t.call(p, instr, how)
		case *ssa.Defer:
			t.call(p, instr, how)
		case *ssa.BinOp:
		case *ssa.DebugRef:
		default:
			t.escape(instr)
		}
	}
}

// heldStruct follows v, a struct value holding the channel in field f.
func (t *tracer) heldStruct(v ssa.Value, f int) {
	how := Holding{Held: true, Field: f}
	for _, instr := range *v.Referrers() {
		switch instr := instr.(type) {
		case *ssa.Field:
			if instr.Field == f {
				t.value(instr)
				continue
			}
			if ReachesOther(instr.Type()) && !t.local {
				t.escape(instr)
			}
		case *ssa.Store:
			if instr.Val == v && isLocal(instr.Addr, t.u.Fn) {
				t.held(instr.Addr, f) // kept in a variable
				continue
			}
			t.escape(instr)
		case *ssa.MapUpdate:
			t.heldIn(instr, v, f)
		case *ssa.Go:
			t.spawnArg(v, instr, how)
		case *ssa.Call:
			t.call(v, instr, how)
		case *ssa.Defer:
			t.call(v, instr, how)
		case *ssa.DebugRef:
		default:
			t.escape(instr)
		}
	}
}

// heldIn follows v, a struct (or pointer to one) holding the channel in
// field f, put into a map by up: a map the function makes and keeps to
// itself holds the channel in every value read back from it; any other
// map lets it escape.
func (t *tracer) heldIn(up *ssa.MapUpdate, v ssa.Value, f int) {
	m, ok := up.Map.(*ssa.MakeMap)
	if up.Value != v || up.Key == v || !ok || m.Parent() != t.u.Fn {
		t.escape(up)
		return
	}
	if _, seen := t.holders[m]; seen {
		return
	}
	t.holders[m] = f
	t.u.Kept = true
	for _, instr := range *m.Referrers() {
		switch instr := instr.(type) {
		case *ssa.MapUpdate:
			if instr.Map != m || instr.Value != v && !t.holds(instr.Value, f) {
				t.escape(instr)
			}
		case *ssa.Lookup:
			if instr.X != m {
				t.escape(instr)
				continue
			}
			t.readBack(instr, instr.CommaOk, 0, f)
		case *ssa.Range:
			for _, ref := range *instr.Referrers() {
				if next, ok := ref.(*ssa.Next); ok {
					t.readBack(next, true, 2, f)
				}
			}
		case *ssa.Call:
			if b, ok := instr.Call.Value.(*ssa.Builtin); !ok || (b.Name() != "len" && b.Name() != "clear") {
				t.escape(instr)
			}
		case *ssa.DebugRef:
		default:
			t.escape(instr)
		}
	}
}

// readBack follows the value read from a map that holds the channel in
// field f of its values: v itself, or element k of the tuple v when
// tuple is set.
func (t *tracer) readBack(v ssa.Value, tuple bool, k int, f int) {
	if !tuple {
		t.held(v, f)
		return
	}
	for _, ref := range *v.Referrers() {
		if ex, ok := ref.(*ssa.Extract); ok && ex.Index == k {
			t.held(ex, f)
		}
	}
}

// heldCell follows c, a variable holding the pointer to the struct that
// holds the channel in field f.
func (t *tracer) heldCell(c ssa.Value, f int) {
	for _, instr := range *c.Referrers() {
		switch instr := instr.(type) {
		case *ssa.UnOp:
			if instr.Op != token.MUL {
				t.escape(instr)
				continue
			}
			t.held(instr, f)
		case *ssa.Store:
			if instr.Addr != c || !t.holds(instr.Val, f) {
				t.escape(instr) // another struct put in its place
			}
		case *ssa.MakeClosure:
			t.closure(instr, c, Holding{Held: true, Field: f})
		case *ssa.DebugRef:
		default:
			t.escape(instr)
		}
	}
}

// holds reports whether v is a value followed as holding the channel in
// field f.
func (t *tracer) holds(v ssa.Value, f int) bool {
	g, ok := t.holders[v]
	return ok && g == f
}

// escapeValue lets the channel escape at v, or at its first use if v is
// no instruction (a parameter).
func (t *tracer) escapeValue(v ssa.Value) {
	if instr, ok := v.(ssa.Instruction); ok {
		t.escape(instr)
	} else if refs := v.Referrers(); refs != nil && len(*refs) > 0 {
		t.escape((*refs)[0])
	}
}

// isLocal reports whether addr is a variable of fn.
func isLocal(addr ssa.Value, fn *ssa.Function) bool {
	a, ok := addr.(*ssa.Alloc)
	return ok && a.Parent() == fn
}

// fieldOf returns the struct field a FieldAddr selects.
func fieldOf(fa *ssa.FieldAddr) *types.Var {
	ptr, ok := fa.X.Type().Underlying().(*types.Pointer)
	if !ok {
		return nil
	}
	st, ok := ptr.Elem().Underlying().(*types.Struct)
	if !ok || fa.Field >= st.NumFields() {
		return nil
	}
	return st.Field(fa.Field)
}

// FieldOf returns the struct field a FieldAddr selects, or nil.
func FieldOf(fa *ssa.FieldAddr) *types.Var { return fieldOf(fa) }

// CaseLeaves reports whether, once select sel has taken its case i, its
// function can return or panic without running sel again. A case that
// cannot (a ticker's tick that only loops back to the select) is no way
// out for a goroutine waiting in sel to send: only the send is.
func CaseLeaves(sel *ssa.Select, i int) bool {
	return caseReturns(sel, i, nil)
}

// CaseEnds reports whether, once select sel has taken its case i, its
// function can return or panic before it is back at a block every path
// to sel passes through (the head of a loop around sel): the case itself
// ends the loop. A case that leads back to the head (an idle timer's tick
// that resets the timer) ends nothing: whatever exits the loop has on its
// way back to sel are the loop's own, reached after any case.
func CaseEnds(sel *ssa.Select, i int) bool {
	head := sel.Block()
	return caseReturns(sel, i, func(b *ssa.BasicBlock) bool { return b.Dominates(head) })
}

// caseReturns reports whether a return or panic is reachable from sel's
// case i without running sel again, nor passing a block for which stop
// holds.
func caseReturns(sel *ssa.Select, i int, stop func(*ssa.BasicBlock) bool) bool {
	body := ssacfg.CaseBody(sel, i)
	if body == nil {
		return true // unknown: assume it can
	}
	seen := map[*ssa.BasicBlock]bool{sel.Block(): true}
	stack := []*ssa.BasicBlock{body}
	for len(stack) > 0 {
		b := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if seen[b] || stop != nil && stop(b) {
			continue
		}
		seen[b] = true
		switch b.Instrs[len(b.Instrs)-1].(type) {
		case *ssa.Return, *ssa.Panic:
			return true
		}
		stack = append(stack, b.Succs...)
	}
	return false
}
