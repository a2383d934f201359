package waitpath

import (
	"go/constant"
	"go/token"
	"go/types"
	"maps"
	"slices"

	"golang.org/x/tools/go/ssa"

	"github.com/admitlint/admitlint/internal/match"
	"github.com/admitlint/admitlint/internal/ssacfg"
	"github.com/admitlint/admitlint/passes/strandedsend/internal/chanuse"
)

// A key is what distinguishes one state of the search from another: the
// block, the starts passed and the path's flags. For each key only the
// path that has received the fewest values is followed.
type key struct {
	b     *ssa.BasicBlock
	set   uint64 // starts passed
	gated uint64 // starts passed whose senders wait for a gate to close
	// times counts the passes through each start with Again set, up to
	// manyTimes: from there on, many.
	times [maxStarts]uint8
	flags uint8
	// known and val hold the boolean flags (see bools) whose value the
	// path determines: bit i of val is flag i's value when bit i of
	// known is set.
	known, val uint16
}

// A state is a path of the search at the start of block key.b.
type state struct {
	key
	recvd   int
	witness *chanuse.Case // the case behind leftThroughSelect
}

// Path flags: what a path did besides counting.
const (
	recvInOtherLoop   uint8 = 1 << iota // received inside a loop that is neither counted nor drained
	recvInKnownLoop                     // received inside a counted or draining loop
	leftThroughSelect                   // took a select case that is not a receive, since its last receive
	branchedOnShared                    // took a branch decided by what the senders wrote, or by their mark
	passedOtherCase                     // took a case after which the loop waits again, since its last receive
	entering                            // has just come into a loop's header from outside the loop
)

// manyTimes is how many passes through a start the search counts.
const manyTimes = 3

// RoundsRoom bounds the buffer of a channel whose senders count by
// rounds (Start.Rounds): it must be smaller.
const RoundsRoom = manyTimes

// pass records that the path st passes the starts in bits.
func (s *search) pass(st *state, bits uint64) {
	if bits == 0 {
		return
	}
	for i, start := range s.q.Starts {
		if bits&(1<<i) != 0 && s.gatedStart(i, start) {
			bits &^= 1 << i
			st.gated |= 1 << i
		}
	}
	st.set |= bits
	for i, start := range s.q.Starts {
		switch {
		case bits&(1<<i) == 0:
		case start.Again && st.times[i] < manyTimes:
			st.times[i]++
		case len(start.Rounds) > 0 && st.times[i] == 0:
			st.times[i] = 1 // the first round
		}
	}
}

// startsAt returns the bits of the starts at instr: the instruction, or
// a case of it when it is a select.
func (s *search) startsAt(instr ssa.Instruction) uint64 {
	bits := s.startAt[instr]
	for c, b := range s.startCase {
		if c.Select == instr {
			bits |= b
		}
	}
	return bits
}

// nextRound lets the started senders of st whose rounds ch ends, having
// been taken a value from it, make another round of sends. What they
// have sent and not had taken never exceeds the buffer and the one
// send they block at: a sender reaches the next round only once its
// sends of this one are in the buffer.
func (s *search) nextRound(st *state, ch ssa.Value) {
	for i, start := range s.q.Starts {
		if st.set&(1<<i) != 0 && int64(st.times[i]) <= s.q.Room && slices.Contains(start.Rounds, ch) {
			st.times[i]++
		}
	}
}

// gatedStart reports whether the senders of start i wait for the path
// to do something before their sends are pending: close or receive from
// one of its Gates, or make the call its Awaits are for.
func (s *search) gatedStart(i int, start Start) bool {
	return (len(start.Gates) > 0 || s.awaited&(1<<i) != 0) && !start.Again
}

// openGates lets the gated starts of st whose gate instr closes, or
// receives from, or whose awaited step instr makes, send.
func (s *search) openGates(st *state, instr ssa.Instruction) {
	if bits := s.peerAt[instr] & st.gated; bits != 0 {
		st.gated &^= bits
		st.set |= bits
	}
	switch instr := instr.(type) {
	case *ssa.Call:
		if b, ok := instr.Call.Value.(*ssa.Builtin); ok && b.Name() == "close" && len(instr.Call.Args) == 1 {
			s.openGatesOn(st, instr.Call.Args[0])
		}
	case *ssa.UnOp:
		if instr.Op == token.ARROW {
			s.openGatesOn(st, instr.X)
		}
	}
}

// openGatesOn lets the gated starts of st whose gate is ch send.
func (s *search) openGatesOn(st *state, ch ssa.Value) {
	for i, start := range s.q.Starts {
		if st.gated&(1<<i) != 0 && slices.Contains(start.Gates, ch) {
			st.gated &^= 1 << i
			st.set |= 1 << i
		}
	}
}

// takeFromAgain counts a receive against the senders of a start with
// Again set, when every start the path has passed is one: each of those
// senders sends one value, so the value received is one of theirs, and
// one fewer is out. A start with Rounds, whose count is of the values
// it has yet to have taken, counts the same way. It reports whether it
// did.
func (s *search) takeFromAgain(st *state) bool {
	first := -1
	for i, start := range s.q.Starts {
		if st.set&(1<<i) == 0 {
			continue
		}
		rounds := len(start.Rounds) > 0
		if !start.Again && !rounds {
			return false
		}
		if first < 0 && st.times[i] > 0 && (rounds || st.times[i] < manyTimes) {
			first = i
		}
	}
	if first < 0 {
		return false
	}
	st.times[first]--
	return true
}

// isShared reports whether the condition v tests a value the senders
// wrote: the value itself, an operand of it, or its negation.
func (s *search) isShared(v ssa.Value) bool {
	if len(s.q.Shared) == 0 {
		return false
	}
	if s.q.Shared[v] {
		return true
	}
	instr, ok := v.(ssa.Instruction)
	if !ok {
		return false
	}
	var ops [4]*ssa.Value
	for _, op := range instr.Operands(ops[:0]) {
		if *op != nil && s.q.Shared[*op] {
			return true
		}
		if not, ok := (*op).(*ssa.UnOp); ok && not.Op == token.NOT && s.isShared(not) {
			return true
		}
	}
	return false
}

// eval returns the value of the boolean v on the path st, if the path
// determines it.
func (s *search) eval(v ssa.Value, st *state) (value, known bool) {
	if f, neg := s.fixedBool(v); f != nil {
		if i, ok := s.bools[f]; ok && st.known&(1<<i) != 0 {
			return (st.val&(1<<i) != 0) != neg, true
		}
		return false, false
	}
	switch v := v.(type) {
	case *ssa.Const:
		if v.Value != nil && v.Value.Kind() == constant.Bool {
			return constant.BoolVal(v.Value), true
		}
	case *ssa.Phi:
		if i, ok := s.bools[v]; ok && st.known&(1<<i) != 0 {
			return st.val&(1<<i) != 0, true
		}
	case *ssa.UnOp:
		if v.Op == token.NOT {
			x, ok := s.eval(v.X, st)
			return !x, ok
		}
	case *ssa.BinOp:
		if t, ok := s.nilConds[v]; ok {
			if i := s.bools[t.phi]; st.known&(1<<i) != 0 {
				return (st.val&(1<<i) != 0) != t.neg, true
			}
		}
		if known, ok := s.nilAgainstSentinel(v, st); ok {
			return known, true
		}
		if x, isNil := NilCompared(v); x != nil {
			// A value made in view is never nil, and the constant nil
			// always is: a test of a channel the function made against
			// nil is decided (validation set 37, prysm's scraper: a
			// return under errc == nil && ch == nil, neither ever nil).
			if nonNil, known := Nilness(keptValue(x)); known {
				return nonNil != isNil, true
			}
		}
	}
	return false, false
}

// nilAgainstSentinel decides a comparison (== or !=) of a tracked phi
// that is nil on the path st with a sentinel error or a value never nil:
// err == io.EOF is false while err is nil.
func (s *search) nilAgainstSentinel(v *ssa.BinOp, st *state) (value, known bool) {
	if v.Op != token.EQL && v.Op != token.NEQ {
		return false, false
	}
	isNilOnPath := func(x ssa.Value) bool {
		phi, ok := x.(*ssa.Phi)
		i, tracked := s.bools[x]
		return ok && s.nilPhis[phi] && tracked && st.known&(1<<i) != 0 && st.val&(1<<i) == 0
	}
	neverNil := func(y ssa.Value) bool {
		nonNil, known := Nilness(y)
		return sentinel(y) || known && nonNil
	}
	if isNilOnPath(v.X) && neverNil(v.Y) || isNilOnPath(v.Y) && neverNil(v.X) {
		return v.Op == token.NEQ, true
	}
	return false, false
}

// enter sets the tracked flags of block to on the path st arriving from
// block from: each phi takes the value of its edge from there.
func (s *search) enter(from, to *ssa.BasicBlock, st *state) {
	pred := slices.Index(to.Preds, from)
	st.flags &^= entering
	if l := s.headers[to]; l != nil && !l.Has(from) {
		st.flags |= entering
	}
	known, val := st.known, st.val
	for _, instr := range to.Instrs {
		phi, ok := instr.(*ssa.Phi)
		if !ok {
			break
		}
		i, tracked := s.bools[phi]
		if !tracked || pred < 0 {
			continue
		}
		known &^= 1 << i
		val &^= 1 << i
		if s.nilPhis[phi] {
			// The edge's nilness, known, or that of a phi of the same
			// variable as the path left it (nilTestedPhis).
			e := phi.Edges[pred]
			if nonNil, ok := Nilness(e); ok {
				known |= 1 << i
				if nonNil {
					val |= 1 << i
				}
			} else if j, tracked := s.bools[e]; tracked && st.known&(1<<j) != 0 {
				known |= 1 << i
				if st.val&(1<<j) != 0 {
					val |= 1 << i
				}
			}
			continue
		}
		if v, ok := s.eval(phi.Edges[pred], st); ok {
			known |= 1 << i
			if v {
				val |= 1 << i
			}
		}
	}
	st.known, st.val = known, val
}

// The kinds of leave, in the order Find prefers to name them.
const (
	// A return that strands a sender for certain (one that never stops
	// sending, or has sends left that it makes on every path and no room
	// holds): it strands the sender on every run that takes it; a select
	// case only when it fires first (a context nobody cancels never does),
	// and another return perhaps only with values the sender may not send
	// (validation set 37, go-state-types: the last return, reached only
	// when the value taken was the sender's last; set 36, devpod: a timer
	// named while the success return stranded the sender every time).
	leftByOwnReturn = iota
	leftBySelect    // another case of a select
	leftByRemake    // the make reached again, a new channel replacing the old
	leftByReturn
)

func (l *Leave) rank() int {
	switch {
	case l.certain && l.Case == nil && !l.Stall && !isMake(l.At):
		return leftByOwnReturn
	case l.Case != nil || l.Stall:
		return leftBySelect
	case isMake(l.At):
		return leftByRemake
	}
	return leftByReturn
}

func (s *search) run() *Leave {
	b := s.made
	from := slices.Index(b.Instrs, s.q.Made) + 1
	if from == 0 {
		panic("internal error: waitpath: make not in its block")
	}
	first := state{key: key{b: b}}
	first.set = s.startAt[s.q.Made] // a call returning the channel starts its sender
	s.walk(b, from, first)
	for len(s.queue) > 0 && s.states < maxStates {
		st := s.queue[0]
		s.queue = s.queue[1:]
		if s.best[st.key] < st.recvd {
			continue // a better path to this state came later
		}
		s.walk(st.b, 0, st)
	}
	if s.states >= maxStates || len(s.leaves) == 0 {
		return nil
	}
	s.unnameWaited()
	s.uncertainAfterRecv()
	oneOut := !slices.ContainsFunc(s.leaves, func(l *Leave) bool { return l.Pending != One })
	slices.SortStableFunc(s.leaves, func(a, b *Leave) int {
		if ra, rb := a.rank(), b.rank(); ra != rb {
			return ra - rb
		}
		if a.rank() == leftBySelect {
			// Of the cases, one that fires on its own (a timer, a
			// cancellation, a default) before a receive from a channel
			// the function makes for its other goroutines: whether that
			// sibling's completion can come before the send is a race
			// the report cannot show (validation set 27, a daemon's
			// exit beside its readiness poller and its timeout).
			if sa, sb := s.sibling(a), s.sibling(b); sa != sb {
				if sa {
					return 1
				}
				return -1
			}
		}
		if r := a.rank(); r == leftByReturn || r == leftByOwnReturn {
			// Of the returns, the last: the further the receiver got, the
			// more surely its sender has reached the send (an early return
			// on a setup error can come before the sender even runs).
			return int(b.Pos()) - int(a.Pos())
		}
		return int(a.Pos()) - int(b.Pos())
	})
	s.leaves[0].OneOut = oneOut
	return s.leaves[0]
}

// sibling reports whether l leaves through a select case receiving
// from a channel Fn makes itself, other than the one waited on.
func (s *search) sibling(l *Leave) bool {
	if l.Case == nil || l.Case.Index < 0 {
		return false
	}
	st := l.Case.Select.States[l.Case.Index]
	if st.Dir != types.RecvOnly || s.q.Chans[st.Chan] {
		return false
	}
	ch := st.Chan
	if load, ok := ch.(*ssa.UnOp); ok && load.Op == token.MUL {
		// A variable a closure captures, set once.
		if alloc, ok := load.X.(*ssa.Alloc); ok {
			if vals := ssacfg.Stores(alloc); len(vals) == 1 {
				ch = vals[0]
			}
		}
	}
	mk, ok := ch.(*ssa.MakeChan)
	return ok && mk.Parent() == s.q.Fn
}

// unnameWaited drops the case from the leaves that passed a case after
// which the loop waits again, when the return is inside that loop and
// also strands senders on a path that took no case: the return leaves by
// itself (at the head of the loop, on its own test), and the case is no
// cause. A return after the loop, which the case's going round leads to
// (the last try after a timer), keeps its name.
func (s *search) unnameWaited() {
	bare := map[ssa.Instruction]bool{}
	for _, l := range s.leaves {
		if l.Case == nil {
			bare[l.At] = true
		}
	}
	for _, l := range s.leaves {
		if l.waited && bare[l.At] && s.insideLoopOf(l.At, l.Case.Select) {
			l.Case, l.waited = nil, false
		}
	}
}

// insideLoopOf reports whether instr is written inside the innermost
// loop statement around sel.
func (s *search) insideLoopOf(instr ssa.Instruction, sel *ssa.Select) bool {
	loops := enclosingLoops(s.q.Fn, sel.Pos())
	if len(loops) == 0 || !instr.Pos().IsValid() {
		return false
	}
	l := loops[len(loops)-1]
	return l.Pos() <= instr.Pos() && instr.Pos() < l.End()
}

// walk follows a path through block b from instruction index from.
func (s *search) walk(b *ssa.BasicBlock, from int, st state) {
	st.b = b
	for _, instr := range b.Instrs[from:] {
		if instr == s.q.Made && !s.q.Kept {
			s.leave(instr, st) // a new channel replaces the one waited on
			return
		}
		s.pass(&st, s.startAt[instr])
		if call, ok := instr.(ssa.CallInstruction); ok && (s.q.Ends != nil && s.q.Ends(call) || s.q.Stops != nil && s.q.Stops(call)) {
			return
		}
		if call, ok := instr.(ssa.CallInstruction); ok && s.q.Stalls != nil && s.q.Stalls(call) {
			st.flags |= leftThroughSelect // as evident as another case taken
			s.leave(instr, st)
			return // waiting for senders that wait for it
		}
		if st.gated != 0 {
			s.openGates(&st, instr)
		}
		switch instr := instr.(type) {
		case *ssa.UnOp:
			if instr.Op == token.ARROW && s.q.Chans[instr.X] {
				s.recv(&st, b)
			}
			if instr.Op == token.ARROW && s.rounds[instr.X] {
				s.nextRound(&st, instr.X)
			}
			if instr.Op == token.ARROW && s.q.Done[instr.X] {
				return // the senders are done
			}
			if at, ok := s.q.Withdrawn[instr.X]; ok && instr.Op == token.ARROW {
				st.set &^= s.startsAt(at)
			}
		case *ssa.Return:
			s.leave(instr, st)
			return
		}
	}
	for i, succ := range b.Succs {
		next, alive := s.edge(b, i, st)
		if !alive {
			continue
		}
		s.enter(b, succ, &next)
		next.b = succ
		if old, seen := s.best[next.key]; seen && old <= next.recvd {
			continue
		}
		s.best[next.key] = next.recvd
		s.states++
		s.queue = append(s.queue, next)
	}
}

// recv counts a receive in block b on the path st, once senders run.
func (s *search) recv(st *state, b *ssa.BasicBlock) {
	if st.set == 0 {
		return
	}
	if !s.takeFromAgain(st) && st.recvd < 1<<20 {
		st.recvd++
	}
	if l := innermost(s.loops, b, s.made); l != nil {
		st.flags |= s.kind[l]
	}
	st.flags &^= leftThroughSelect | passedOtherCase
	st.witness = nil
	s.recvBlocks[b] = true
}

// uncertainAfterRecv takes certainty from the leaves a path can reach
// after a receive: that a path comes there having received fewer values
// may rest on skipping a loop whose first test holds, which the search
// does not always know (a loop `for !done && n > 0` left through its
// default names the default, not the return after it). A sender's value
// that no path to the return receives is certain to be left.
func (s *search) uncertainAfterRecv() {
	after := ssacfg.Reached(slices.Collect(maps.Keys(s.recvBlocks)))
	for _, l := range s.leaves {
		if !l.Pending.Endless && after[l.At.Block()] {
			l.certain = false
		}
	}
}

// edge applies what taking successor i of block b means, and reports
// whether the path goes on.
func (s *search) edge(b *ssa.BasicBlock, i int, st state) (state, bool) {
	cond, ok := b.Instrs[len(b.Instrs)-1].(*ssa.If)
	if !ok {
		return st, true
	}
	v, known := s.eval(cond.Cond, &st)
	if known && v != (i == 0) {
		return st, false // the path has decided this condition the other way
	}
	if l := s.firstTrip[cond]; l != nil && st.flags&entering != 0 && !l.Has(b.Succs[i]) {
		return st, false // its test holds on entry: the loop runs once at least
	}
	if fixed, neg := s.fixedBool(cond.Cond); !known && fixed != nil {
		if bit, ok := s.bools[fixed]; ok { // from here on, the path knows it
			st.known |= 1 << bit
			if (i == 0) != neg {
				st.val |= 1 << bit
			}
		}
	}
	if d, ok := s.dead[cond]; ok && d == i {
		return st, false // the call cannot fail
	}
	if r, ok := s.refused[cond]; ok && r.succ == i {
		st.set &^= r.start // the hand-off failed: its senders never started
	}
	_, isCase := s.dispatch[cond]
	if !known && !isCase && st.flags&passedOtherCase != 0 && s.exitsOtherLoop(b, b.Succs[i]) {
		// Out of a loop of receives, on a condition the path cannot
		// decide (a count of values from several channels), after a case
		// that waits again: what the loop has seen decides it.
		return st, false
	}
	if st.set != 0 && (s.isShared(cond.Cond) || s.leavesOnMark(b, b.Succs[i], cond.Cond) || s.tookLast(cond.Cond, i)) {
		st.flags |= branchedOnShared
	}
	if c, ok := s.dispatch[cond]; ok {
		last := c.Index == len(c.Select.States)-1
		switch {
		case i == 0:
			if !s.takeCase(&st, c) {
				return st, false
			}
		case last && !c.Select.Blocking:
			if s.asserts[c.Select] {
				return st, false // a test asserting the channel is empty: it fails if not
			}
			s.takeCase(&st, chanuse.Case{Select: c.Select, Index: -1})
		}
	}
	if i == 1 && s.closed[cond] {
		return st, false // closed: all values were received
	}
	if l := s.control[cond]; l != nil && !l.Has(b.Succs[i]) && st.set != 0 && !s.endless(st) {
		if c, ok := s.counters[l]; ok {
			n, constant := match.ConstInt(c.bound)
			switch {
			case !constant:
				return st, false // counted up to the senders' number, or cannot tell
			case c.own:
				st.recvd = max(st.recvd, int(min(n, 1<<20)))
			}
		}
		if n, ok := s.fixedTrips[l]; ok {
			// A fixed number of values taken in all, from the channel or
			// from the bounded others, which deliver no more than they
			// send (validation set 32, ziti's tunnel).
			st.recvd = max(st.recvd, int(n)-s.q.Delivered)
		}
		if _, ok := s.waits[l]; ok && (st.flags&passedOtherCase == 0 || s.maybe(st)) {
			// Each trip took a value or gave up waiting for one: with
			// no trip given up, as many values as the loop counts; with
			// senders that may send nothing, the trips given up are
			// theirs (validation set 29, kepler).
			return st, false
		}
		st.flags &^= recvInKnownLoop // the loop ran its course
		if trip, ok := s.trips[l]; ok {
			if trip.Expr != "" || trip.Many {
				return st, false // received as many as the loop counts, or cannot tell
			}
			st.recvd += int(min(trip.N, 1<<20))
		}
	}
	return st, true
}

// maybe reports whether a sender the path st has started may send
// nothing.
func (s *search) maybe(st state) bool {
	for i, start := range s.q.Starts {
		if st.set&(1<<i) != 0 && start.Sends.Maybe {
			return true
		}
	}
	return false
}

// endless reports whether a sender the path st has started never stops
// sending: no count of receives matches it, so a loop that ends on its
// own test strands it too.
func (s *search) endless(st state) bool {
	for i, start := range s.q.Starts {
		if st.set&(1<<i) != 0 && start.Sends.Endless {
			return true
		}
	}
	return false
}

// takeCase applies taking select case c (Index -1: default), and
// reports whether the case can fire at all.
func (s *search) takeCase(st *state, c chanuse.Case) bool {
	if c.Index >= 0 {
		state := c.Select.States[c.Index]
		if state.Dir == types.RecvOnly && st.gated != 0 {
			s.openGatesOn(st, state.Chan)
		}
		if state.Dir == types.RecvOnly && s.rounds[state.Chan] {
			s.nextRound(st, state.Chan)
		}
		if bits := s.startCase[c]; bits != 0 {
			s.pass(st, bits)
			return true
		}
		if state.Dir == types.RecvOnly && s.q.Chans[state.Chan] {
			s.recv(st, c.Select.Block())
			return true
		}
		if state.Dir == types.RecvOnly && (s.q.Never[state.Chan] || s.q.Done[state.Chan]) {
			return false // never fires, or the senders are done
		}
		if at, ok := s.q.Withdrawn[state.Chan]; ok && state.Dir == types.RecvOnly {
			st.set &^= s.startsAt(at)
		}
	}
	if st.set != 0 {
		// A case after which the loop waits again does not stop waiting
		// by itself, but it is the case to name if the path then leaves.
		if s.staysIn[c] {
			st.flags |= passedOtherCase
		} else {
			st.flags |= leftThroughSelect
		}
		c := c
		st.witness = &c
	}
	return true
}

// exitsOtherLoop reports whether the edge from b to succ leaves a loop
// of receives that is neither counted nor drained, and that waits again
// after receiving from the channel in a select: the values it counts may
// be the channel's too.
func (s *search) exitsOtherLoop(b, succ *ssa.BasicBlock) bool {
	l := innermost(s.loops, b, s.made)
	return l != nil && !l.Has(succ) && s.kind[l] == recvInOtherLoop && s.counts[l]
}

// leave records the end of the path st at instr if it strands senders.
func (s *search) leave(instr ssa.Instruction, st state) {
	if st.set == 0 {
		return
	}
	if ret, ok := instr.(*ssa.Return); ok {
		for _, r := range ret.Results {
			if s.q.Chans[r] {
				return // the caller receives instead
			}
		}
	}
	var pending Count
	var least int64 // of pending, the sends made on every path
	for i, start := range s.q.Starts {
		if st.set&(1<<i) == 0 {
			continue
		}
		sends := start.Sends
		if n := start.Least; len(start.Rounds) == 0 && len(start.Gates) == 0 && s.awaited&(1<<i) == 0 {
			if start.Again {
				n *= int64(st.times[i]) // each pass one more sender
			}
			least += n
		}
		if len(start.Rounds) > 0 {
			sends = Count{N: int64(st.times[i])} // one a round, not yet taken
		}
		if start.Again {
			sends = sends.Times(Count{N: int64(st.times[i])})
			if st.times[i] >= manyTimes {
				sends = Count{Many: true, Maybe: start.Sends.Maybe}
			}
		}
		pending = pending.Plus(sends)
	}
	if !pending.Exceeds(st.recvd, s.q.Room) {
		return
	}
	if ret, ok := instr.(*ssa.Return); ok && s.q.Exits != nil && s.q.Exits(ret) {
		return // the process ends: nothing outlives it
	}
	if st.flags&branchedOnShared != 0 {
		return
	}
	left := st.flags&leftThroughSelect != 0
	var visible bool
	switch {
	case pending.Endless:
		// A sender that never stops sending: however the receiver stops
		// receiving, the sender's next send finds nobody.
		visible = true
	case pending.Stream:
		// A stream's length is unknown: a buffered one may hold what is
		// left, unless the receiver visibly quits receiving.
		visible = left || st.flags&recvInKnownLoop != 0 || st.recvd == 0 && s.q.Room == 0
	case pending.Maybe:
		// Not every sender sends: only a receiver that leaves before
		// any value, or through another case, visibly strands one.
		visible = left || st.recvd == 0
	default:
		visible = left || st.flags&recvInOtherLoop == 0
	}
	if visible {
		l := &Leave{At: instr, Case: st.witness, Recvd: st.recvd, Pending: pending,
			certain: pending.Endless || least-int64(st.recvd) > s.q.Room}
		l.waited = l.Case != nil && !left
		for i, start := range s.q.Starts {
			if st.set&(1<<i) != 0 {
				l.Out = append(l.Out, start.Instr)
			}
		}
		if _, isCall := instr.(ssa.CallInstruction); isCall {
			l.Case, l.Stall = nil, true
		}
		s.leaves = append(s.leaves, l)
	}
}
