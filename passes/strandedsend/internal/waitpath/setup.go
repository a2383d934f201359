package waitpath

import (
	"cmp"
	"go/token"
	"go/types"
	"maps"
	"slices"

	"golang.org/x/tools/go/ssa"

	"github.com/admitlint/admitlint/internal/match"
	"github.com/admitlint/admitlint/internal/ssacfg"

	"github.com/admitlint/admitlint/passes/strandedsend/internal/chanuse"
)

type search struct {
	q            *Query
	made         *ssa.BasicBlock
	loops        []*ssacfg.Loop
	kind         map[*ssacfg.Loop]uint8   // recvInOtherLoop or recvInKnownLoop, for loops that receive
	trips        map[*ssacfg.Loop]Count   // trip counts of loops that receive on every iteration (Many: not counted)
	waits        map[*ssacfg.Loop]Count   // counts (not constant) of the other counted loops that wait for the channel on every iteration
	constTrips   map[*ssacfg.Loop]int64   // constant trip counts of the counted loops that receive
	fixedTrips   map[*ssacfg.Loop]int64   // those of loops taking one value a trip from the channel or the bounded others
	firstTrip    map[*ssa.If]*ssacfg.Loop // loop tests that hold on entry: the loop runs once at least
	headers      map[*ssa.BasicBlock]*ssacfg.Loop
	control      map[*ssa.If]*ssacfg.Loop // ifs whose one edge stays in a receiving loop and the other leaves it normally
	dispatch     map[*ssa.If]chanuse.Case
	bodies       map[chanuse.Case]*ssa.BasicBlock
	closed       map[*ssa.If]bool // false edge: the channel was closed
	startAt      map[ssa.Instruction]uint64
	startCase    map[chanuse.Case]uint64
	rounds       map[ssa.Value]bool         // channels whose values let a start's senders send again (Start.Rounds)
	nilTests     map[fieldKey]ssa.Value     // fields tested against nil, by the load that stands for them (see fixedBool)
	storedFields map[fieldKey]bool          // fields the function stores to
	bools        map[ssa.Value]int          // booleans tracked along paths, by bit: phis, parameters
	nilPhis      map[*ssa.Phi]bool          // phis tracked (in bools) as "not nil": see nilTestedPhi
	nilConds     map[ssa.Value]nilCond      // the nil tests of those phis
	staysIn      map[chanuse.Case]bool      // select cases of a receiving loop after which it waits again
	counts       map[*ssacfg.Loop]bool      // loops that, having received from the channel in a select, wait again
	counters     map[*ssacfg.Loop]counter   // loops ending when a count of received values reaches a bound
	asserts      map[*ssa.Select]bool       // selects with a default whose every receive fails the test
	failures     bool                       // every receive of the channel fails the test: it carries failures
	refused      map[*ssa.If]refusal        // branches on a starting call's own report that it failed
	dead         map[*ssa.If]int            // edges never taken: the failure of a call that cannot fail
	peerAt       map[ssa.Instruction]uint64 // calls aimed at what the starts' senders await (Start.Awaits)
	awaited      uint64                     // starts whose senders await a call of Fn: gated until it

	recvBlocks map[*ssa.BasicBlock]bool // the blocks where a path received

	best   map[key]int
	queue  []state
	states int
	leaves []*Leave
}

// newSearch prepares the search for q: the loops of the function, the
// cases each select dispatches, the edges that mean the channel was
// closed, how each receiving loop counts, and the flags to track. It
// returns nil when a start is not what its Case says.
func newSearch(q *Query) *search {
	s := &search{
		q:          q,
		made:       q.Made.Block(),
		loops:      ssacfg.Loops(q.Fn),
		kind:       map[*ssacfg.Loop]uint8{},
		trips:      map[*ssacfg.Loop]Count{},
		waits:      map[*ssacfg.Loop]Count{},
		constTrips: map[*ssacfg.Loop]int64{},
		fixedTrips: map[*ssacfg.Loop]int64{},
		firstTrip:  map[*ssa.If]*ssacfg.Loop{},
		headers:    map[*ssa.BasicBlock]*ssacfg.Loop{},
		control:    map[*ssa.If]*ssacfg.Loop{},
		dispatch:   map[*ssa.If]chanuse.Case{},
		bodies:     map[chanuse.Case]*ssa.BasicBlock{},
		closed:     map[*ssa.If]bool{},
		startAt:    map[ssa.Instruction]uint64{},
		startCase:  map[chanuse.Case]uint64{},
		bools:      map[ssa.Value]int{},
		staysIn:    map[chanuse.Case]bool{},
		counts:     map[*ssacfg.Loop]bool{},
		counters:   map[*ssacfg.Loop]counter{},
		asserts:    map[*ssa.Select]bool{},
		best:       map[key]int{},
		recvBlocks: map[*ssa.BasicBlock]bool{},
		refused:    map[*ssa.If]refusal{},
		dead:       map[*ssa.If]int{},
		peerAt:     map[ssa.Instruction]uint64{},
		rounds:     map[ssa.Value]bool{},
	}
	for i, st := range q.Starts {
		if len(st.Rounds) > 0 && (st.Sends != One || st.Again || q.Room >= RoundsRoom) {
			return nil // rounds count one value each, up to a small buffer
		}
		for _, v := range st.Rounds {
			s.rounds[v] = true
		}
		if st.Case >= 0 {
			sel, ok := st.Instr.(*ssa.Select)
			if !ok {
				return nil
			}
			s.startCase[chanuse.Case{Select: sel, Index: st.Case}] |= 1 << i
		} else {
			s.startAt[st.Instr] |= 1 << i
		}
	}
	s.decodeSelects()
	s.findRefusals()
	s.findPeers()
	s.findInfallible()
	s.findShortWrites()
	s.findClosedEdges()
	s.classifyLoops()
	s.findStays()
	s.findFixedTrips()
	s.findFirstTrips()
	s.findAssertions()
	s.findStoredFields()
	s.findFlags()
	return s
}

// findFlags picks the booleans the search tracks: the phis that are the
// flags of loops like for !done { select { case <-ch: done = true;
// default: } }, which end only on paths that received; and the boolean
// parameters and captured values the function tests more than once,
// whose value a path keeps from one test to the next (if !stateless {
// go send() } … if stateless { skip the receive }: no path starts the
// sender and skips the receive).
func (s *search) findFlags() {
	var ifs []*ssa.If     // the function's branches, in block order
	var fixed []ssa.Value // the fixed boolean each one tests, or nil
	tests := map[ssa.Value]int{}
	for _, b := range s.q.Fn.Blocks {
		if len(b.Instrs) == 0 {
			continue
		}
		if cond, ok := b.Instrs[len(b.Instrs)-1].(*ssa.If); ok {
			v, _ := s.fixedBool(cond.Cond)
			ifs, fixed = append(ifs, cond), append(fixed, v)
			if v != nil {
				tests[v]++
			}
		}
	}

	for _, p := range s.q.Fn.Params {
		if tests[p] > 1 && len(s.bools) < 16 {
			s.bools[p] = len(s.bools)
		}
	}
	for _, fv := range s.q.Fn.FreeVars {
		if tests[fv] > 1 && len(s.bools) < 16 {
			s.bools[fv] = len(s.bools)
		}
	}
	for _, b := range s.q.Fn.Blocks {
		for _, instr := range b.Instrs {
			phi, ok := instr.(*ssa.Phi)
			if !ok {
				break // phis come first
			}
			if t, ok := phi.Type().Underlying().(*types.Basic); ok && t.Kind() == types.Bool && len(s.bools) < 16 {
				s.bools[phi] = len(s.bools)
			}
		}
	}
	for _, cond := range ifs {
		web, neg := nilTestedPhis(cond.Cond)
		if web == nil {
			continue
		}
		// The variable's phis are tracked all together or not at all.
		untracked := slices.DeleteFunc(slices.Clone(web), func(p *ssa.Phi) bool { return s.nilPhis[p] })
		if len(s.bools)+len(untracked) > 16 {
			continue
		}
		if s.nilPhis == nil {
			s.nilPhis, s.nilConds = map[*ssa.Phi]bool{}, map[ssa.Value]nilCond{}
		}
		for _, phi := range untracked {
			s.bools[phi] = len(s.bools)
			s.nilPhis[phi] = true
		}
		s.nilConds[cond.Cond] = nilCond{web[0], neg}
	}
	var fields []ssa.Value // fields tested against nil, in the order of their tests
	for _, v := range s.nilTests {
		if tests[v] > 1 {
			fields = append(fields, v)
		}
	}
	at := func(v ssa.Value) token.Pos { return v.(*ssa.UnOp).X.Pos() } // the field's selector
	slices.SortFunc(fields, func(a, b ssa.Value) int { return cmp.Compare(at(a), at(b)) })
	for _, v := range fields {
		if len(s.bools) < 16 {
			s.bools[v] = len(s.bools)
		}
	}
	// Then the values computed once, and the parameters tested against
	// nil, in the order of the function's instructions.
	for _, v := range fixed {
		if v != nil && tests[v] > 1 && len(s.bools) < 16 {
			if _, seen := s.bools[v]; !seen {
				s.bools[v] = len(s.bools)
			}
		}
	}
}

// decodeSelects maps each if of a select's dispatch chain (idx == k) to
// the case it dispatches, and each case to its body block.
func (s *search) decodeSelects() {
	for _, b := range s.q.Fn.Blocks {
		for _, instr := range b.Instrs {
			sel, ok := instr.(*ssa.Select)
			if !ok {
				continue
			}
			for i := range sel.States {
				if cond := ssacfg.CaseIf(sel, i); cond != nil {
					c := chanuse.Case{Select: sel, Index: i}
					s.dispatch[cond] = c
					s.bodies[c] = cond.Block().Succs[0]
				}
			}
		}
	}
}

// findStays finds the select cases (and defaults) of a loop of receives
// whose bodies can go round the loop to wait again: taking one does not
// stop waiting, whatever channel it received from.
//
//	for {
//		select {
//		case <-ch:    done++
//		case <-other: done++ // stays: the loop waits on ch again
//		}
//		if done == 2 { return }
//	}
func (s *search) findStays() {
	bodies := maps.Clone(s.bodies)
	for cond, c := range s.dispatch { // a default's body: the last case's else
		if !c.Select.Blocking && c.Index == len(c.Select.States)-1 {
			bodies[chanuse.Case{Select: c.Select, Index: -1}] = cond.Block().Succs[1]
		}
	}
	for c, body := range bodies {
		l := innermost(s.loops, c.Select.Block(), s.made)
		if l == nil || s.kind[l] == 0 {
			continue
		}
		if reachesHeader(body, l) {
			s.staysIn[c] = true
			if c.Index >= 0 && c.Select.States[c.Index].Dir == types.RecvOnly && s.q.Chans[c.Select.States[c.Index].Chan] {
				s.counts[l] = true
			}
		}
	}
}

// reachesHeader reports whether a path from b within loop l goes back to
// its header.
func reachesHeader(b *ssa.BasicBlock, l *ssacfg.Loop) bool {
	seen := map[*ssa.BasicBlock]bool{}
	stack := []*ssa.BasicBlock{b}
	for len(stack) > 0 {
		x := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if x == l.Header {
			return true
		}
		if seen[x] || !l.Has(x) {
			continue
		}
		seen[x] = true
		stack = append(stack, x.Succs...)
	}
	return false
}

// findAssertions finds, in tests (where q.Ends says what fails one), the
// selects that assert a channel is empty:
//
//	select {
//	case v := <-out:
//		t.Fatalf("unexpected %v", v)
//	default:
//	}
//
// and whether every receive of the channel is such an assertion or a
// case that fails the test (case err := <-errc: t.Fatal(err)): then the
// channel carries failures, and a send left behind on it is one more
// symptom of a test that is failing already.
func (s *search) findAssertions() {
	if s.q.Ends == nil {
		return
	}
	recvs, failing := 0, 0
	cases := map[*ssa.Select][]chanuse.Case{}
	for c := range s.bodies {
		cases[c.Select] = append(cases[c.Select], c)
	}
	for sel, cs := range cases {
		all := true
		for _, c := range cs {
			st := sel.States[c.Index]
			if st.Dir != types.RecvOnly {
				continue
			}
			fails := s.failsTest(s.bodies[c], sel.Block())
			if s.q.Chans[st.Chan] {
				recvs++
				if fails {
					failing++
				}
			}
			all = all && fails
		}
		if all && !sel.Blocking {
			s.asserts[sel] = true
		}
	}
	for _, b := range s.q.Fn.Blocks {
		for _, instr := range b.Instrs {
			if u, ok := instr.(*ssa.UnOp); ok && u.Op == token.ARROW && s.q.Chans[u.X] {
				recvs++ // a plain receive uses the value
			}
		}
	}
	s.failures = recvs > 0 && failing == recvs
}

// failsTest reports whether every path from block b fails the test
// before it returns or comes back to block sel.
func (s *search) failsTest(b, sel *ssa.BasicBlock) bool {
	seen := map[*ssa.BasicBlock]bool{}
	stack := []*ssa.BasicBlock{b}
	for len(stack) > 0 {
		x := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if seen[x] {
			continue
		}
		seen[x] = true
		if x == sel {
			return false
		}
		failed := false
		for _, instr := range x.Instrs {
			switch instr := instr.(type) {
			case ssa.CallInstruction:
				failed = failed || s.q.Ends(instr)
			case *ssa.Return:
				if !failed {
					return false
				}
			}
			if failed {
				break
			}
		}
		if !failed {
			stack = append(stack, x.Succs...)
		}
	}
	return true
}

// findClosedEdges finds the ifs that test the comma-ok result of a
// receive on the channel: their false edge means it was closed.
//
//	t3 = <-ch,ok          (or a select case v, ok := <-ch)
//	t4 = extract t3 #1
//	if t4 goto body else done
func (s *search) findClosedEdges() {
	for _, b := range s.q.Fn.Blocks {
		cond, ok := b.Instrs[len(b.Instrs)-1].(*ssa.If)
		if !ok {
			continue
		}
		ok2, ok := cond.Cond.(*ssa.Extract)
		if !ok || ok2.Index != 1 {
			continue
		}
		switch x := ok2.Tuple.(type) {
		case *ssa.UnOp:
			s.closed[cond] = x.Op == token.ARROW && s.q.Chans[x.X]
		case *ssa.Select:
			for k, st := range x.States {
				body := s.bodies[chanuse.Case{Select: x, Index: k}]
				if st.Dir == types.RecvOnly && s.q.Chans[st.Chan] && body != nil && body.Dominates(b) {
					s.closed[cond] = true
				}
			}
		}
	}
}

// A fieldKey names a field of the struct a parameter or free variable
// points to.
type fieldKey struct {
	base  ssa.Value
	field int
}

// fixedBool is fixedBool, and also knows a test of whether a field of
// the struct a parameter (or free variable) points to is nil, when the
// function never stores to that field: each such test reads the same
// value, named by the first load of it met (validation set 22,
// vcluster's port forwarder: the sender is started under
// pf.streamConn == nil, the early return taken under pf.streamConn !=
// nil). A callee or another goroutine could change the field between
// two tests; the function cannot, and the search takes it as fixed.
//
// It also knows the values a run of the function computes once: a
// boolean the function computes outside its loops (check :=
// cmd.ShouldCheck(), tested before the go statement and again before
// the receive; validation set 29, driftctl), and a test against nil of
// a parameter or of such a value (if out != nil || errOut != nil
// around the go statement and around the receive the select skipped;
// validation set 29, cri-dockerd). SSA gives each a single value,
// tests included; a loop would give a new value each trip.
func (s *search) fixedBool(cond ssa.Value) (ssa.Value, bool) {
	if v, neg := fixedBool(cond); v != nil {
		return v, neg
	}
	x, isNil := NilCompared(cond)
	if x == nil {
		v, neg := notted(cond)
		if t, ok := v.Type().Underlying().(*types.Basic); ok && t.Kind() == types.Bool && s.computedOnce(v) {
			return v, neg
		}
		return nil, false
	}
	if v := s.onceValue(x); v != nil {
		return v, isNil // the value tracked is "not nil"
	}
	k, ok := fieldLoaded(x)
	if !ok || s.storedFields[k] {
		return nil, false
	}
	rep, seen := s.nilTests[k]
	if !seen {
		if s.nilTests == nil {
			s.nilTests = map[fieldKey]ssa.Value{}
		}
		s.nilTests[k] = x
		rep = x
	}
	return rep, isNil // the value tracked is "not nil"
}

// notted returns the value cond negates, through any number of !, and
// whether it negates it.
func notted(cond ssa.Value) (v ssa.Value, neg bool) {
	for {
		not, ok := cond.(*ssa.UnOp)
		if !ok || not.Op != token.NOT {
			return cond, neg
		}
		cond, neg = not.X, !neg
	}
}

// onceValue returns the value x stands for when a run of the function
// cannot change it: a parameter or free variable (read where it is kept
// when a closure captures it), or a value computed once (computedOnce).
func (s *search) onceValue(x ssa.Value) ssa.Value {
	if load, ok := x.(*ssa.UnOp); ok && load.Op == token.MUL {
		if alloc, ok := load.X.(*ssa.Alloc); ok {
			if p := SpilledParam(alloc); p != nil {
				return p
			}
		}
	}
	switch x.(type) {
	case *ssa.Parameter, *ssa.FreeVar:
		return x
	}
	if s.computedOnce(x) {
		return x
	}
	return nil
}

// computedOnce reports whether v is a value an instruction of the
// function computes at most once a run: outside every loop, and not a
// phi (tracked by the edge it is entered by), a comparison or a load (a
// new one at each test).
func (s *search) computedOnce(v ssa.Value) bool {
	instr, ok := v.(ssa.Instruction)
	if !ok || instr.Block() == nil {
		return false
	}
	switch v := v.(type) {
	case *ssa.Phi, *ssa.BinOp:
		return false
	case *ssa.UnOp:
		if v.Op != token.ARROW {
			return false
		}
	}
	return !slices.ContainsFunc(s.loops, func(l *ssacfg.Loop) bool { return l.Has(instr.Block()) })
}

// NilCompared returns the value that cond compares with the constant
// nil, and whether cond is true when it is nil (==); nil when cond is
// no such comparison.
func NilCompared(cond ssa.Value) (x ssa.Value, isNil bool) {
	bin, ok := cond.(*ssa.BinOp)
	if !ok || bin.Op != token.EQL && bin.Op != token.NEQ {
		return nil, false
	}
	switch {
	case IsNilConst(bin.Y):
		return bin.X, bin.Op == token.EQL
	case IsNilConst(bin.X):
		return bin.Y, bin.Op == token.EQL
	}
	return nil, false
}

// A nilCond is a test of a tracked phi against nil; neg: true when it
// is nil.
type nilCond struct {
	phi *ssa.Phi
	neg bool
}

// nilTestedPhis returns the phi that cond tests against nil (neg: cond
// is true when it is nil) and the phis it is made of, when some edge of
// them has a nilness known (the constant nil, a value never nil) and
// each other edge is a value of unknown nilness or one of those phis.
// A path then knows the test's result from the edges it entered their
// blocks by: an error set in one case of a select and left nil in the
// other, then tested (validation set 23, taskq: the timeout case sets
// err = fmt.Errorf(...), the path that tests err != nil returns, and
// only the other case goes on to start the next sender); an error nil
// when a loop starts and set only by the case that takes the sender's
// last value (set 39, go-linereader and prefixedio: the timer case of
// the loop leaves the error nil, and the loop goes round).
func nilTestedPhis(cond ssa.Value) (phis []*ssa.Phi, neg bool) {
	x, isNil := NilCompared(cond)
	phi, ok := x.(*ssa.Phi)
	if !ok {
		return nil, false
	}
	var sawKnown bool
	web := []*ssa.Phi{phi}
	for i := 0; i < len(web); i++ {
		if len(web) > 4 {
			return nil, false // not a variable's few phis: leave it untracked
		}
		for _, e := range web[i].Edges {
			if _, known := Nilness(e); known {
				sawKnown = true
			} else if p, ok := e.(*ssa.Phi); ok && !slices.Contains(web, p) {
				web = append(web, p)
			}
		}
	}
	if !sawKnown {
		return nil, false
	}
	return web, isNil
}

// sentinel reports whether v is a package-level variable of type error,
// read: a sentinel error (io.EOF, sql.ErrNoRows). It is taken as never
// nil: one that were nil would make every success look like it.
func sentinel(v ssa.Value) bool {
	load, ok := v.(*ssa.UnOp)
	if !ok || load.Op != token.MUL {
		return false
	}
	_, global := load.X.(*ssa.Global)
	return global && match.IsError(v.Type())
}

// Nilness reports whether v is known to be nil or known not to be: the
// constant nil; a fresh allocation, map, channel, slice, closure or
// function, or a value converted to an interface (never a nil
// interface, whatever it holds); the result of errors.New or
// fmt.Errorf, which never return nil.
func Nilness(v ssa.Value) (nonNil, known bool) {
	switch v := v.(type) {
	case *ssa.Const:
		return false, v.IsNil()
	case *ssa.Alloc, *ssa.MakeInterface, *ssa.MakeMap, *ssa.MakeChan, *ssa.MakeSlice, *ssa.MakeClosure, *ssa.Function:
		return true, true
	case *ssa.Call:
		fn := match.Callee(v)
		fresh := match.IsFunc(fn, "errors", "New") || match.IsFunc(fn, "fmt", "Errorf")
		if match.IsMethod(fn, "context", "Context", "Err") && doneBefore(v) {
			return true, true // once Done is closed, Err is not nil
		}
		return fresh, fresh
	}
	return false, false
}

// DoneOf returns ctx when ch is ctx.Done() of a context.Context, and
// nil otherwise.
func DoneOf(ch ssa.Value) ssa.Value {
	call, ok := ch.(*ssa.Call)
	if !ok || !match.IsMethod(match.Callee(call), "context", "Context", "Done") {
		return nil
	}
	return call.Call.Value
}

// doneBefore reports whether call, ctx.Err(), runs only after a receive
// from the same ctx.Done() has fired: in a select case's body, or after
// a plain receive, either dominating it.
func doneBefore(call *ssa.Call) bool {
	ctx := call.Call.Value
	isDone := func(ch ssa.Value) bool { return DoneOf(ch) == ctx }
	at := call.Block()
	for _, b := range call.Parent().Blocks {
		if !b.Dominates(at) {
			continue
		}
		for _, instr := range b.Instrs {
			switch instr := instr.(type) {
			case *ssa.UnOp:
				if instr.Op == token.ARROW && isDone(instr.X) && (b != at || slices.Index(b.Instrs, ssa.Instruction(instr)) < slices.Index(b.Instrs, ssa.Instruction(call))) {
					return true
				}
			case *ssa.Select:
				for i, st := range instr.States {
					if body := ssacfg.CaseBody(instr, i); st.Dir == types.RecvOnly && isDone(st.Chan) && body != nil && body.Dominates(at) {
						return true
					}
				}
			}
		}
	}
	return false
}

// fieldLoaded returns the field v loads, when it loads a field of the
// struct a parameter or free variable points to, or reads a field of a
// struct parameter passed by value: of the parameter itself, or of the
// copy a closure captures when the function and its closures only read
// it (SpilledParam).
func fieldLoaded(v ssa.Value) (fieldKey, bool) {
	if f, ok := v.(*ssa.Field); ok {
		if p, ok := f.X.(*ssa.Parameter); ok {
			return fieldKey{p, f.Field}, true
		}
		return fieldKey{}, false
	}
	load, ok := v.(*ssa.UnOp)
	if !ok || load.Op != token.MUL {
		return fieldKey{}, false
	}
	fa, ok := load.X.(*ssa.FieldAddr)
	if !ok {
		return fieldKey{}, false
	}
	switch x := fa.X.(type) {
	case *ssa.Parameter, *ssa.FreeVar:
		return fieldKey{fa.X, fa.Field}, true
	case *ssa.Alloc:
		if p := SpilledParam(x); p != nil {
			return fieldKey{p, fa.Field}, true
		}
	}
	return fieldKey{}, false
}

// findStoredFields records the fields of structs that parameters or free
// variables point to which the function stores to, or whose address it
// hands on.
func (s *search) findStoredFields() {
	s.storedFields = map[fieldKey]bool{}
	for _, b := range s.q.Fn.Blocks {
		for _, instr := range b.Instrs {
			fa, ok := instr.(*ssa.FieldAddr)
			if !ok {
				continue
			}
			switch fa.X.(type) {
			case *ssa.Parameter, *ssa.FreeVar:
			default:
				continue
			}
			for _, ref := range *fa.Referrers() {
				if load, ok := ref.(*ssa.UnOp); ok && load.Op == token.MUL {
					continue
				}
				s.storedFields[fieldKey{fa.X, fa.Field}] = true // a store, or the address handed on
			}
		}
	}
}

// fixedBool returns the boolean parameter or free variable that cond
// tests, directly or negated (neg): a value no path of the function
// changes.
func fixedBool(cond ssa.Value) (v ssa.Value, neg bool) {
	for {
		not, ok := cond.(*ssa.UnOp)
		if !ok || not.Op != token.NOT {
			break
		}
		cond, neg = not.X, !neg
	}
	if load, ok := cond.(*ssa.UnOp); ok && load.Op == token.MUL {
		if alloc, ok := load.X.(*ssa.Alloc); ok {
			if p := SpilledParam(alloc); p != nil {
				cond = p // a parameter a closure captures, read where it is kept
			}
		}
	}
	switch cond.(type) {
	case *ssa.Parameter, *ssa.FreeVar:
		if t, ok := cond.Type().Underlying().(*types.Basic); ok && t.Kind() == types.Bool {
			return cond, neg
		}
	}
	return nil, false
}

// SpilledParam returns the parameter alloc keeps, when the function
// stores the parameter there once and nothing else writes it: the
// variable of a parameter that a closure captures (and only reads, its
// fields included).
func SpilledParam(alloc *ssa.Alloc) *ssa.Parameter {
	var param *ssa.Parameter
	for _, ref := range *alloc.Referrers() {
		switch ref := ref.(type) {
		case *ssa.Store:
			p, ok := ref.Val.(*ssa.Parameter)
			if !ok || param != nil || ref.Addr != alloc {
				return nil
			}
			param = p
		default:
			if !reads(ref, alloc) {
				return nil
			}
		}
	}
	return param
}

// reads reports whether ref, a use of the address addr, only reads
// through it: a load, a debug reference, the address of a field only
// read in turn, or a closure that only reads what it captures.
func reads(ref ssa.Instruction, addr ssa.Value) bool {
	switch ref := ref.(type) {
	case *ssa.UnOp:
		return ref.Op == token.MUL
	case *ssa.FieldAddr:
		return onlyRead(ref)
	case *ssa.MakeClosure:
		return readOnly(ref, addr)
	case *ssa.DebugRef:
		return true
	}
	return false
}

// onlyRead reports whether every use of addr only reads through it.
func onlyRead(addr ssa.Value) bool {
	for _, ref := range *addr.Referrers() {
		if !reads(ref, addr) {
			return false
		}
	}
	return true
}

// readOnly reports whether the closure mc makes only reads the variable
// at addr it captures, and so do the closures it hands it to.
func readOnly(mc *ssa.MakeClosure, addr ssa.Value) bool {
	fn := mc.Fn.(*ssa.Function)
	for i, b := range mc.Bindings {
		if b == addr && !onlyRead(fn.FreeVars[i]) {
			return false // captured again, by a closure that writes it
		}
	}
	return true
}

// keptValue returns the one value the variable v loads ever holds, when
// it is stored once before every read (ssacfg.KeptValue: errc :=
// make(chan error, 1), sent on by a goroutine); v itself otherwise.
func keptValue(v ssa.Value) ssa.Value {
	if load, ok := v.(*ssa.UnOp); ok && load.Op == token.MUL {
		if cell, ok := load.X.(*ssa.Alloc); ok {
			if kept := ssacfg.KeptValue(cell); kept != nil {
				return kept
			}
		}
	}
	return v
}
