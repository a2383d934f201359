// Package waitpath finds how a function that waits for values on a
// channel can stop waiting while the senders it set going still have
// values to deliver: a select that takes another case (ctx.Done(), a
// timer, a default), a return before the receive, a loop of receives that
// returns on the first error.
//
// The search walks the function's control-flow graph from the channel's
// make, counting along each path the senders set going (spawn sites, or
// the send of a request that carries the channel) and the values
// received, and keeps for each block the fewest values received. A path
// that reaches a return (or the make again, abandoning the channel) with
// more sends pending than the buffer holds is a leave. Three facts keep it
// honest about loops:
//
//   - a receive whose comma-ok result is false means the channel was
//     closed: every value was received, the path is done;
//   - a counted receive loop (for i := 0; i < n; i++, range over a
//     slice) that receives on every iteration and exits normally has
//     received its trip count; when that count is not a constant, the
//     path is done (it matched the senders, or the analysis cannot tell);
//   - a return from inside any other loop of receives is not a leave by
//     itself (a counter may have reached the number of senders), only a
//     return through a select case that stopped waiting is.
package waitpath

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"

	"github.com/admitlint/admitlint/passes/strandedsend/internal/chanuse"
)

// A Start is a place that sets senders going: a spawn site, or the send
// (or select case) that hands a request carrying the channel to a worker.
type Start struct {
	Instr ssa.Instruction
	Case  int   // for a select: the index of the case that starts; -1 otherwise
	Sends Count // how many values the senders it starts will send
}

// A Query asks how Fn can stop waiting for the values of one channel (or
// of channels whose values count together, because each sender sends on
// only one of them).
type Query struct {
	Fn     *ssa.Function
	Info   *types.Info
	Made   ssa.Instruction    // the make: waiting starts after it, and reaching it again abandons the channel
	Chans  map[ssa.Value]bool // the values of Fn that are the channel
	Starts []Start
	Room   int64 // the channel's buffer capacity

	// Never holds channels nothing sends on or closes: a select case
	// receiving from one never fires.
	Never map[ssa.Value]bool
	// Done holds channels the senders close instead of sending, and then
	// send no more: receiving from one means nothing is pending.
	Done map[ssa.Value]bool
	// Withdrawn holds channels one of several senders closes instead of
	// sending, with no send before or after, by the start that sets that
	// sender going: receiving from one means its sends are not pending.
	Withdrawn map[ssa.Value]ssa.Instruction
	// Ends reports whether a call ends the interest in a path: after a
	// test has failed (t.Error), nobody fixes what it leaks.
	Ends func(ssa.CallInstruction) bool
	// Shared holds values of Fn that the senders wrote (loads of
	// variables their goroutines assign): a path that branches on one
	// goes where the senders' progress leads, which the analysis cannot
	// follow, so it is not reported.
	Shared map[ssa.Value]bool
}

// A Leave is a way for Fn to stop waiting with sends still pending.
type Leave struct {
	At      ssa.Instruction // the return, or the make reached again
	Case    *chanuse.Case   // the select case taken to stop waiting, if any; Index -1 for default
	Recvd   int             // values received on the way
	Pending Count           // sends the starts on the way set going
}

// Pos returns the position that best shows where the receiver leaves:
// the select case it took, or the return.
func (l *Leave) Pos() token.Pos {
	if l.Case != nil {
		if l.Case.Index >= 0 {
			return l.Case.Select.States[l.Case.Index].Pos
		}
		return l.Case.Select.Pos()
	}
	if pos := l.At.Pos(); pos.IsValid() {
		return pos
	}
	return endOf(l.At.Parent()) // an implicit return
}

// endOf returns the position of the closing brace of fn's body.
func endOf(fn *ssa.Function) token.Pos {
	switch syn := fn.Syntax().(type) {
	case *ast.FuncDecl:
		if syn.Body != nil {
			return syn.Body.Rbrace
		}
	case *ast.FuncLit:
		return syn.Body.Rbrace
	}
	return fn.Pos()
}

// maxStarts bounds the sets of starts a path may have passed; maxStates
// bounds the whole search. Beyond either, Find stays silent.
const (
	maxStarts = 6
	maxStates = 50000
)

// Find returns the leave through which Fn can stop waiting with the
// most evidently stranded sends, or nil if every way out of Fn receives
// enough values. Leaves through a select case come first, then by
// position.
func Find(q *Query) *Leave {
	if len(q.Starts) == 0 || len(q.Starts) > maxStarts || q.Made.Block() == nil {
		return nil
	}
	s := newSearch(q)
	if s == nil {
		return nil
	}
	return s.run()
}

// Path flags: what a path did besides counting.
const (
	recvInOtherLoop   uint8 = 1 << iota // received inside a loop that is neither counted nor drained
	recvInKnownLoop                     // received inside a counted or draining loop
	leftThroughSelect                   // took a select case that is not a receive, since its last receive
	branchedOnShared                    // took a branch decided by what the senders wrote
)

type key struct {
	b     *ssa.BasicBlock
	set   uint64 // starts passed
	flags uint8
	// known and val hold the boolean flags (see bools) whose value the
	// path determines: bit i of val is flag i's value when bit i of
	// known is set.
	known, val uint16
}

type state struct {
	key
	recvd   int
	witness *chanuse.Case // the case behind leftThroughSelect
}

type search struct {
	q         *Query
	made      *ssa.BasicBlock
	loops     []*loop
	kind      map[*loop]uint8   // recvInOtherLoop or recvInKnownLoop, for loops that receive
	trips     map[*loop]Count   // trip counts of loops that receive on every iteration (Many: not counted)
	control   map[*ssa.If]*loop // ifs whose one edge stays in a receiving loop and the other leaves it normally
	dispatch  map[*ssa.If]chanuse.Case
	bodies    map[chanuse.Case]*ssa.BasicBlock
	closed    map[*ssa.If]bool // false edge: the channel was closed
	startAt   map[ssa.Instruction]uint64
	startCase map[chanuse.Case]uint64
	bools     map[*ssa.Phi]int // boolean phis tracked along paths, by bit

	best   map[key]int
	queue  []state
	states int
	leaves []*Leave
}

func newSearch(q *Query) *search {
	s := &search{
		q:         q,
		made:      q.Made.Block(),
		loops:     findLoops(q.Fn),
		kind:      map[*loop]uint8{},
		trips:     map[*loop]Count{},
		control:   map[*ssa.If]*loop{},
		dispatch:  map[*ssa.If]chanuse.Case{},
		bodies:    map[chanuse.Case]*ssa.BasicBlock{},
		closed:    map[*ssa.If]bool{},
		startAt:   map[ssa.Instruction]uint64{},
		startCase: map[chanuse.Case]uint64{},
		bools:     map[*ssa.Phi]int{},
		best:      map[key]int{},
	}
	for i, st := range q.Starts {
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
	s.findClosedEdges()
	s.classifyLoops()
	s.findFlags()
	return s
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

// findFlags picks the boolean phis the search tracks: the flags of loops
// like for !done { select { case <-ch: done = true; default: } }, which
// end only on paths that received.
func (s *search) findFlags() {
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
}

// eval returns the value of the boolean v on the path st, if the path
// determines it.
func (s *search) eval(v ssa.Value, st *state) (value, known bool) {
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
	}
	return false, false
}

// enter sets the tracked flags of block to on the path st arriving from
// block from: each phi takes the value of its edge from there.
func (s *search) enter(from, to *ssa.BasicBlock, st *state) {
	pred := slices.Index(to.Preds, from)
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
		if v, ok := s.eval(phi.Edges[pred], st); ok {
			known |= 1 << i
			if v {
				val |= 1 << i
			}
		}
	}
	st.known, st.val = known, val
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
	slices.SortStableFunc(s.leaves, func(a, b *Leave) int {
		if (a.Case != nil) != (b.Case != nil) {
			if a.Case != nil {
				return -1
			}
			return 1
		}
		return int(a.Pos()) - int(b.Pos())
	})
	return s.leaves[0]
}

// walk follows a path through block b from instruction index from.
func (s *search) walk(b *ssa.BasicBlock, from int, st state) {
	st.b = b
	for _, instr := range b.Instrs[from:] {
		if instr == s.q.Made {
			s.leave(instr, st) // a new channel replaces the one waited on
			return
		}
		st.set |= s.startAt[instr]
		if call, ok := instr.(ssa.CallInstruction); ok && s.q.Ends != nil && s.q.Ends(call) {
			return
		}
		switch instr := instr.(type) {
		case *ssa.UnOp:
			if instr.Op == token.ARROW && s.q.Chans[instr.X] {
				s.recv(&st, b)
			}
			if instr.Op == token.ARROW && s.q.Done[instr.X] {
				return // the senders are done
			}
			if at, ok := s.q.Withdrawn[instr.X]; ok && instr.Op == token.ARROW {
				st.set &^= s.startAt[at]
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
	if st.recvd < 1<<20 {
		st.recvd++
	}
	if l := innermost(s.loops, b, s.made); l != nil {
		st.flags |= s.kind[l]
	}
	st.flags &^= leftThroughSelect
	st.witness = nil
}

// edge applies what taking successor i of block b means, and reports
// whether the path goes on.
func (s *search) edge(b *ssa.BasicBlock, i int, st state) (state, bool) {
	cond, ok := b.Instrs[len(b.Instrs)-1].(*ssa.If)
	if !ok {
		return st, true
	}
	if v, known := s.eval(cond.Cond, &st); known && v != (i == 0) {
		return st, false // the path has decided this condition the other way
	}
	if st.set != 0 && s.isShared(cond.Cond) {
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
			s.takeCase(&st, chanuse.Case{Select: c.Select, Index: -1})
		}
	}
	if i == 1 && s.closed[cond] {
		return st, false // closed: all values were received
	}
	if l := s.control[cond]; l != nil && !l.has(b.Succs[i]) && st.set != 0 {
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

// takeCase applies taking select case c (Index -1: default), and
// reports whether the case can fire at all.
func (s *search) takeCase(st *state, c chanuse.Case) bool {
	if c.Index >= 0 {
		state := c.Select.States[c.Index]
		if bits := s.startCase[c]; bits != 0 {
			st.set |= bits
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
			st.set &^= s.startAt[at]
		}
	}
	if st.set != 0 {
		st.flags |= leftThroughSelect
		c := c
		st.witness = &c
	}
	return true
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
	for i, start := range s.q.Starts {
		if st.set&(1<<i) != 0 {
			pending = pending.Plus(start.Sends)
		}
	}
	if !pending.Exceeds(st.recvd, s.q.Room) {
		return
	}
	if st.flags&branchedOnShared != 0 {
		return
	}
	left := st.flags&leftThroughSelect != 0
	var visible bool
	switch {
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
		s.leaves = append(s.leaves, &Leave{At: instr, Case: st.witness, Recvd: st.recvd, Pending: pending})
	}
}

// decodeSelects maps each if of a select's dispatch chain (idx == k) to
// the case it dispatches, and each case to its body block.
//
//	t0 = select blocking [<-ch, <-done]
//	t1 = extract t0 #0
//	t2 = t1 == 0:int
//	if t2 goto 1 else 2      ← case 0; block 1 is its body
func (s *search) decodeSelects() {
	for _, b := range s.q.Fn.Blocks {
		for _, instr := range b.Instrs {
			sel, ok := instr.(*ssa.Select)
			if !ok {
				continue
			}
			for _, ref := range *sel.Referrers() {
				idx, ok := ref.(*ssa.Extract)
				if !ok || idx.Index != 0 {
					continue
				}
				for _, ref := range *idx.Referrers() {
					eq, ok := ref.(*ssa.BinOp)
					if !ok || eq.Op != token.EQL {
						continue
					}
					k, ok := eq.Y.(*ssa.Const)
					if !ok || k.Value == nil {
						continue
					}
					for _, ref := range *eq.Referrers() {
						if cond, ok := ref.(*ssa.If); ok {
							c := chanuse.Case{Select: sel, Index: int(k.Int64())}
							s.dispatch[cond] = c
							s.bodies[c] = cond.Block().Succs[0]
						}
					}
				}
			}
		}
	}
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

// classifyLoops sorts the loops that receive (and do not contain the
// make) into counted or draining loops and the others, records the trip
// count of those that receive on every iteration, and finds the ifs that
// end each normally. Inner loops go first: a pass through an inner loop
// that receives on every iteration counts as a receive of the outer one.
func (s *search) classifyLoops() {
	loops := slices.Clone(s.loops)
	slices.SortStableFunc(loops, func(a, b *loop) int { return a.size - b.size })
	for _, l := range loops {
		if l.has(s.made) {
			continue
		}
		pos, depth := s.recvPos(l)
		if !pos.IsValid() {
			continue
		}
		s.kind[l] = recvInOtherLoop
		if s.drains(l) {
			s.kind[l] = recvInKnownLoop
			continue
		}
		trip, stmt, counted := LoopTrip(s.q.Fn, s.q.Info, pos, depth)
		counted = counted && !(stmt.Pos() <= s.q.Made.Pos() && s.q.Made.Pos() < stmt.End())
		if counted {
			s.kind[l] = recvInKnownLoop
		} else {
			trip = Count{Many: true}
		}
		if s.everyIterationReceives(l) {
			s.trips[l] = trip
		}
		s.findControl(l)
	}
}

// recvPos returns the position of a receive in loop l, and how many
// loops inside l enclose it.
func (s *search) recvPos(l *loop) (token.Pos, int) {
	for _, b := range s.q.Fn.Blocks {
		if !l.has(b) {
			continue
		}
		for _, instr := range b.Instrs {
			var pos token.Pos
			switch instr := instr.(type) {
			case *ssa.UnOp:
				if instr.Op == token.ARROW && s.q.Chans[instr.X] {
					pos = instr.Pos()
				}
			case *ssa.Select:
				for _, st := range instr.States {
					if st.Dir == types.RecvOnly && s.q.Chans[st.Chan] {
						pos = st.Pos
					}
				}
			}
			if pos.IsValid() {
				depth := 0
				for _, inner := range s.loops {
					if inner != l && inner.has(b) && inner.size < l.size && l.has(inner.header) {
						depth++
					}
				}
				return pos, depth
			}
		}
	}
	return token.NoPos, 0
}

// findControl records the ifs that end loop l normally: an if with one
// edge in the loop and one out of it, in its header or testing an
// ordering (i < n; range loops also test 0 < n before entering). Other
// exits (a break on err != nil, a return) leave early.
func (s *search) findControl(l *loop) {
	for _, b := range s.q.Fn.Blocks {
		cond, ok := b.Instrs[len(b.Instrs)-1].(*ssa.If)
		if !ok || l.has(b.Succs[0]) == l.has(b.Succs[1]) || s.control[cond] != nil {
			continue // not an exit, or an inner loop's
		}
		if _, isCase := s.dispatch[cond]; isCase || s.closed[cond] {
			continue // a select case or a closed channel, not the loop's test
		}
		if b == l.header || isOrdering(cond.Cond) {
			s.control[cond] = l
		}
	}
}

// isOrdering reports whether v is an ordered comparison (<, >, <=, >=)
// or the ok of a range iteration step.
func isOrdering(v ssa.Value) bool {
	switch v := v.(type) {
	case *ssa.BinOp:
		return v.Op == token.LSS || v.Op == token.GTR || v.Op == token.LEQ || v.Op == token.GEQ
	case *ssa.Extract:
		_, next := v.Tuple.(*ssa.Next)
		return next && v.Index == 0
	}
	return false
}

// drains reports whether l leaves when a receive finds the channel closed.
func (s *search) drains(l *loop) bool {
	for cond, closed := range s.closed {
		if closed && l.has(cond.Block()) && !l.has(cond.Block().Succs[1]) {
			return true
		}
	}
	return false
}

// everyIterationReceives reports whether every path around l, from its
// header back to it, receives from the channel.
func (s *search) everyIterationReceives(l *loop) bool {
	if s.receivesIn(l.header) {
		return true
	}
	seen := make([]bool, len(s.q.Fn.Blocks))
	stack := []*ssa.BasicBlock{l.header}
	for len(stack) > 0 {
		b := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for i, succ := range b.Succs {
			if !l.has(succ) || s.isRecvEdge(b, i) || s.isDeadEdge(b, i) || s.isInnerExit(l, b, i) {
				continue
			}
			if succ == l.header {
				return false
			}
			if !seen[succ.Index] && !s.receivesIn(succ) {
				seen[succ.Index] = true
				stack = append(stack, succ)
			}
		}
	}
	return true
}

// receivesIn reports whether block b receives from the channel.
func (s *search) receivesIn(b *ssa.BasicBlock) bool {
	for _, instr := range b.Instrs {
		if u, ok := instr.(*ssa.UnOp); ok && u.Op == token.ARROW && s.q.Chans[u.X] {
			return true
		}
	}
	return false
}

// isDeadEdge reports whether successor i of b is the body of a select
// case that never fires.
func (s *search) isDeadEdge(b *ssa.BasicBlock, i int) bool {
	ch, ok := s.recvCase(b, i)
	return ok && s.q.Never[ch]
}

// isRecvEdge reports whether successor i of b is the body of a select
// case receiving from the channel.
func (s *search) isRecvEdge(b *ssa.BasicBlock, i int) bool {
	ch, ok := s.recvCase(b, i)
	return ok && s.q.Chans[ch]
}

// recvCase returns the channel of the select case whose body is successor
// i of b, when that case receives: go/ssa dispatches a select's cases
// through a chain of ifs, each taking its true edge into one case body.
func (s *search) recvCase(b *ssa.BasicBlock, i int) (ssa.Value, bool) {
	cond, ok := b.Instrs[len(b.Instrs)-1].(*ssa.If)
	if !ok || i != 0 {
		return nil, false
	}
	c, ok := s.dispatch[cond]
	if !ok {
		return nil, false
	}
	st := c.Select.States[c.Index]
	return st.Chan, st.Dir == types.RecvOnly
}

// isInnerExit reports whether successor i of b ends a loop inside l that
// receives on every iteration: having run, it has received.
func (s *search) isInnerExit(l *loop, b *ssa.BasicBlock, i int) bool {
	cond, ok := b.Instrs[len(b.Instrs)-1].(*ssa.If)
	if !ok {
		return false
	}
	inner := s.control[cond]
	if inner == nil || inner == l || inner.has(b.Succs[i]) {
		return false
	}
	_, every := s.trips[inner]
	return every
}
