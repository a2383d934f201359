package strandedsend

import (
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"

	"github.com/admitlint/admitlint/internal/match"
	"github.com/admitlint/admitlint/internal/spawn"
	"github.com/admitlint/admitlint/passes/strandedsend/internal/chanuse"
	"github.com/admitlint/admitlint/passes/strandedsend/internal/waitpath"
)

// closedInstead reports whether channel d is closed, instead of sent on,
// by the one goroutine that sends on group g, and no send on g can follow
// the close: once d is received from, that goroutine sends no more.
//
//	go func() {
//		if err := read(); err != nil {
//			errc <- err
//			return
//		}
//		close(ok) // receiving from ok: errc will never be sent on
//	}()
func (c *checker) closedInstead(sc *scope, d int, g []int) bool {
	only, n := c.signaller(sc, d, g)
	if only == nil || n != 1 {
		return false
	}
	_, ok := closesApart(only, sc.chans[d], g, false)
	return ok
}

// signaller returns the sender on group g that uses channel d, when d is
// a signal: used by that one goroutine, which runs once per channel, and
// sent on by none. It also returns how many senders send on g.
func (c *checker) signaller(sc *scope, d int, g []int) (*sender, int) {
	ch := sc.chans[d]
	if !ch.ok || slices.Contains(g, d) || len(ch.in) != 1 {
		return nil, 0
	}
	var user *sender
	n := 0
	for _, s := range sc.senders {
		if s.touchesAny([]int{d}) {
			return nil, 0 // it is sent on: a value, not a signal
		}
		if s.touchesAny(g) {
			n++
			if ch.in[s.site] != nil {
				user = s
			}
		}
	}
	if user == nil || c.tripOf(sc.fn, user.site, ch.mk) != waitpath.One {
		return nil, 0
	}
	return user, n
}

// closesApart checks the closes of channel d in sender s against its plain
// sends on group g. It reports how many closes s makes and whether each is
// in the goroutine's own function with no send on g after it, nor (with
// before set) before it. A deferred close runs after every send: it is
// ignored, or with before set, fails the check.
func closesApart(s *sender, d *channel, g []int, before bool) (int, bool) {
	n := 0
	for _, u := range d.in[s.site] {
		for _, cl := range u.Closes {
			if _, deferred := cl.(*ssa.Defer); deferred {
				if before {
					return 0, false
				}
				continue
			}
			if cl.Parent() != s.site.Fn || sendsAround(s, cl, g, before) {
				return 0, false
			}
			n++
		}
	}
	return n, true
}

// sendsAround reports whether a plain send of sender s on group g can
// follow the close cl or, with before set, precede it.
func sendsAround(s *sender, cl ssa.Instruction, g []int, before bool) bool {
	for _, o := range s.ops {
		at := o.anchor
		if at == nil {
			at = o.instr
		}
		if o.plainFor(g) && (reaches(cl, at) || before && reaches(at, cl)) {
			return true
		}
	}
	return false
}

// closedByOne returns the sender, one of several on group g, that closes
// channel d instead of sending on g: on none of its paths does a send on g
// come before or after the close. Receiving from d then means that sender
// sent nothing, and what was received came from the others.
//
//	go func() { errc <- first() }()
//	go func() {
//		if err := second(); err != nil {
//			errc <- err
//			return
//		}
//		close(ok) // receiving from ok: this goroutine sent nothing on errc
//	}()
func (c *checker) closedByOne(sc *scope, d int, g []int) *sender {
	closer, _ := c.signaller(sc, d, g)
	if closer == nil {
		return nil
	}
	if n, ok := closesApart(closer, sc.chans[d], g, true); !ok || n == 0 {
		return nil
	}
	return closer
}

// closesLast reports whether sender s closes channel d (uses are its
// uses of d), and every close
// comes after its sends on g: deferred (defer close(end) in a reader
// forwarding lines), or in the goroutine's own function with no send on
// g after it. Receiving from d then means s is done with g.
func closesLast(s *sender, uses []*chanuse.Uses, g []int) bool {
	n := 0
	for _, u := range uses {
		for _, cl := range u.Closes {
			n++
			if _, deferred := cl.(*ssa.Defer); deferred {
				continue
			}
			if cl.Parent() != s.site.Fn || sendsAround(s, cl, g, false) {
				return false
			}
		}
	}
	return n > 0
}

// sentLast returns the sender on group g whose last act on the channels
// is a send on channel d (plain, or in a select whose other cases give
// up): it alone sends on d, it runs once per channel,
// and none of its sends on g can follow a send on d. Receiving from d
// then means that sender has made every send on g it will make: a
// reader goroutine that forwards messages until an error, which it then
// reports on another channel and returns.
//
//	go func() {
//		for {
//			msg, err := read()
//			if err != nil {
//				errs <- err // receiving from errs: msgs will not be sent on again
//				return
//			}
//			msgs <- msg
//		}
//	}()
func (c *checker) sentLast(sc *scope, d int, g []int) *sender {
	ch := sc.chans[d]
	if !ch.ok || slices.Contains(g, d) || len(ch.in) != 1 {
		return nil
	}
	var last *sender
	for _, s := range sc.senders {
		if !s.touchesAny([]int{d}) {
			continue
		}
		if last != nil || ch.in[s.site] == nil || !s.touchesAny(g) {
			return nil // several senders on d, or one that is not on g
		}
		last = s
	}
	if last == nil || c.tripOf(sc.fn, last.site, ch.mk) != waitpath.One {
		return nil
	}
	for _, x := range last.ops {
		if !x.touches(d) {
			continue
		}
		if len(x.chans) != 1 {
			return nil // a select that may send on d or on another of the function's channels
		}
		// A select that sends on d or gives up (case <-ctx.Done()) still
		// has made its last act when d is received from.
		for _, y := range last.ops {
			if y != x && y.touchesAny(g) && sequenced(x, y) {
				return nil // a send on g may follow
			}
		}
	}
	return last
}

// countedLast reports whether every goroutine sending on group g sends
// on channel d exactly once on every path, after its last send on g, in
// its own body (not from a goroutine of its own), and only they send on
// d: once a receiver has counted d's values up to the number of senders,
// none has a value for g left to send. The optional error reported
// before the one result is the common case:
//
//	go func() {
//		v, err := build(x)
//		if err != nil {
//			errs <- err
//		}
//		results <- v // d: counted by the receiver's loop
//	}()
func countedLast(sc *scope, d int, g []int) bool {
	ch := sc.chans[d]
	if !ch.ok || slices.Contains(g, d) {
		return false
	}
	found := false
	for _, s := range sc.senders {
		onD, onG := s.touchesAny([]int{d}), s.touchesAny(g)
		if onD != onG {
			return false // a sender on one only: counting d does not count g's
		}
		if !onD {
			continue
		}
		if n, fewest, _ := s.sends([]int{d}); n != waitpath.One || fewest != 1 {
			return false
		}
		for _, x := range s.ops {
			if x.touches(d) && !sentLastOn(s, x, g) {
				return false
			}
		}
		found = true
	}
	return found
}

// sentLastOn reports whether x, a send of s on one channel only, made in
// s's own goroutine, is never followed by a send of s on group g: none
// comes after it in s's body, and each made by a goroutine s starts is
// waited for before it (see waitedBefore).
func sentLastOn(s *sender, x *op, g []int) bool {
	if len(x.chans) != 1 || x.escapes || spawned(x) {
		return false
	}
	for _, y := range s.ops {
		if y != x && y.touchesAny(g) && (spawned(y) && !waitedBefore(y, x) || sequenced(x, y)) {
			return false
		}
	}
	return true
}

// spawned reports whether op o runs in a goroutine its sender starts.
func spawned(o *op) bool {
	_, ok := o.anchor.(*ssa.Go)
	return ok
}

// stranded returns the starts a leave strands: those on its way, less
// the sender it knows is done when it leaves through a receive on a
// channel that sender alone closes after its last send. (Only the one
// the leave is known to strand: the counts stay as the search made them,
// since that sender's values may be among those received.)
func (c *checker) stranded(sc *scope, leave *waitpath.Leave, g []int) []ssa.Instruction {
	if leave.Case == nil || leave.Case.Index < 0 {
		return leave.Out
	}
	st := leave.Case.Select.States[leave.Case.Index]
	if st.Dir != types.RecvOnly {
		return leave.Out
	}
	for d, ch := range sc.chans {
		if !ch.uses.Values[st.Chan] {
			continue
		}
		done, uses := c.soleCloser(sc, d, g)
		if done == nil || !closesLast(done, uses, g) {
			return leave.Out
		}
		out := slices.DeleteFunc(slices.Clone(leave.Out), func(in ssa.Instruction) bool { return in == done.site.Instr })
		return out
	}
	return leave.Out
}

// soleCloser returns the one sender on group g that closes channel d,
// with its uses of d, when d is a signal: the function neither sends on
// nor closes it, no goroutine sends on it, and the others only wait on
// it (a forwarder that stops when it is closed). The closer runs once
// per channel.
func (c *checker) soleCloser(sc *scope, d int, g []int) (*sender, []*chanuse.Uses) {
	ch := sc.chans[d]
	u := ch.uses
	if slices.Contains(g, d) || u == nil || u.Escape != nil || len(u.Sends)+len(u.SendCases)+len(u.Closes)+len(u.FieldStore)+len(u.Returns) > 0 {
		return nil, nil
	}
	var site *spawn.Site
	var uses []*chanuse.Uses
	for _, h := range u.Handoffs {
		if h.Site == nil || h.Into == nil {
			return nil, nil
		}
		in := chanuse.TraceHandoff(h, spawn.Sites(h.Fn), c.follow)
		if in.Escape != nil || len(in.Sends)+len(in.SendCases)+len(in.Handoffs)+len(in.FieldStore)+len(in.Returns) > 0 {
			return nil, nil
		}
		if len(in.Closes) == 0 {
			continue // it waits on d
		}
		if site != nil && site != h.Site {
			return nil, nil
		}
		site, uses = h.Site, append(uses, in)
	}
	for _, s := range sc.senders {
		if s.site == site && s.touchesAny(g) && c.tripOf(sc.fn, s.site, ch.mk) == waitpath.One {
			return s, uses
		}
	}
	return nil, nil
}

// endsOnMark reports whether a sender on group g marks its last value:
// right after a plain send in a loop it tests what it had before the
// send (the value, the line it decoded it from) and, on one branch, does
// not send again. A receiver leaving on a test of a received value may be
// reading that mark (an end-of-stream flag, a [DONE] event), and then
// nothing is left to send (validation set 10, langchaingo's ernie).
//
//	for scanner.Scan() {
//		ev := decode(scanner.Bytes())
//		events <- ev
//		if ev.Last {
//			return
//		}
//	}
func endsOnMark(senders []*sender, g []int) bool {
	for _, s := range senders {
		for _, o := range s.ops {
			if send, ok := o.instr.(*ssa.Send); ok && o.via == nil && o.touchesAny(g) && marksAfter(send) {
				return true
			}
		}
	}
	return false
}

// marksAfter reports whether the block of send, or the block it falls
// through to when that block does nothing but test, ends in a branch
// decided by values made before the send, one way to send again and
// the other way not. The fall-through is an error sent in an if with no
// return, followed by the loop's test of what the call gave beside the
// error (validation set 27, guac's pages of an SBOM):
//
//	page, err := next()
//	if err != nil {
//		pages <- result{err: err}
//	}
//	if page == nil {
//		break
//	}
func marksAfter(send *ssa.Send) bool {
	b := send.Block()
	iff, ok := b.Instrs[len(b.Instrs)-1].(*ssa.If)
	if ok && !madeBefore(iff.Cond, b, slices.Index(b.Instrs, ssa.Instruction(send))) {
		return false
	}
	if _, jump := b.Instrs[len(b.Instrs)-1].(*ssa.Jump); jump && len(b.Succs) == 1 {
		next := b.Succs[0]
		iff, ok = next.Instrs[len(next.Instrs)-1].(*ssa.If)
		if !ok || !onlyTests(next) || !madeBefore(iff.Cond, next, 0) {
			return false
		}
		b = next
	}
	if !ok || countsTrips(iff.Cond) {
		return false
	}
	again := 0
	for _, succ := range b.Succs {
		if reachesUnbarred(succ, 0, map[ssa.Instruction]bool{send: true}, nil) {
			again++
		}
	}
	return again == 1
}

// countsTrips reports whether cond tests a loop's own counter, a phi
// that each trip steps by a constant (the test of for range n, which
// SSA places right after the body's send): the end it decides is a count
// of trips, not something the receiver can read off a value sent.
func countsTrips(cond ssa.Value) bool {
	seen := map[ssa.Value]bool{}
	var walk func(v ssa.Value) bool
	walk = func(v ssa.Value) bool {
		if seen[v] {
			return false
		}
		seen[v] = true
		switch v := v.(type) {
		case *ssa.BinOp:
			return walk(v.X) || walk(v.Y)
		case *ssa.UnOp:
			return v.Op == token.NOT && walk(v.X)
		case *ssa.Convert:
			return walk(v.X)
		case *ssa.Phi:
			return isCounter(v)
		}
		return false
	}
	return walk(cond)
}

// isCounter reports whether phi is stepped by a constant on some edge
// (i = i + 1) and otherwise starts from a constant: a trip counter.
func isCounter(phi *ssa.Phi) bool {
	stepped := false
	for _, e := range phi.Edges {
		switch e := e.(type) {
		case *ssa.Const:
		case *ssa.BinOp:
			_, byConst := e.Y.(*ssa.Const)
			if (e.Op != token.ADD && e.Op != token.SUB) || e.X != phi || !byConst {
				return false
			}
			stepped = true
		default:
			return false
		}
	}
	return stepped
}

// onlyTests reports whether block b computes no value other than its
// branch's condition, from values made before it.
func onlyTests(b *ssa.BasicBlock) bool {
	for _, instr := range b.Instrs[:len(b.Instrs)-1] {
		switch instr.(type) {
		case *ssa.DebugRef:
			continue
		case *ssa.Phi:
			return false // a join of values: what it tests differs by the way in
		}
		v, ok := instr.(ssa.Value)
		if !ok || !madeBefore(v, b, 0) {
			return false
		}
	}
	return true
}

// madeBefore reports whether v is computed only from values made before
// instruction at of block b: made there, or after it only by operations
// that neither read shared memory nor call out (a comparison, a field of
// a local variable, a test such as strings.Contains).
func madeBefore(v ssa.Value, b *ssa.BasicBlock, at int) bool {
	instr, ok := v.(ssa.Instruction)
	if !ok || instr.Block() != b || slices.Index(b.Instrs, instr) < at {
		return true // a constant, a parameter, or made before (another block's value dominates b)
	}
	switch v := v.(type) {
	case *ssa.BinOp, *ssa.Field, *ssa.Extract, *ssa.Convert, *ssa.ChangeType, *ssa.MakeInterface:
	case *ssa.UnOp:
		if v.Op == token.ARROW || v.Op == token.MUL && !isLocal(v.X) {
			return false
		}
	case *ssa.FieldAddr:
	case *ssa.Call:
		if !match.IsTest(v) {
			return false
		}
	default:
		return false
	}
	var ops [4]*ssa.Value
	for _, op := range instr.Operands(ops[:0]) {
		if *op != nil && !madeBefore(*op, b, at) {
			return false
		}
	}
	return true
}

// isLocal reports whether addr is a local variable of its function or a
// field of one: what the goroutine itself last stored there.
func isLocal(addr ssa.Value) bool {
	for {
		switch a := addr.(type) {
		case *ssa.Alloc:
			return true
		case *ssa.FieldAddr:
			addr = a.X
		default:
			return false
		}
	}
}

// lastNilField returns the field that tells the one sender's last value
// on group g from its others (see waitpath.Query.LastNil), or nil. The
// sender is the only one, started once; its sends on g are plain sends
// of struct literals in its own function; one of them, after which it
// can send no more, leaves the field nil; each other sends in the field
// a value it has just tested is not nil (validation set 34: an error
// sent under if err != nil with no return after it, then the result
// with no error).
func (c *checker) lastNilField(sc *scope, ch *channel, g []int) *types.Var {
	var s *sender
	for _, t := range sc.senders {
		for _, o := range t.ops {
			if !o.touchesAny(g) {
				continue
			}
			if s != nil && s != t {
				return nil
			}
			s = t
		}
	}
	if s == nil || c.tripOf(sc.fn, s.site, ch.mk) != waitpath.One {
		return nil
	}
	var sends []*ssa.Send
	for _, o := range s.ops {
		if !o.touchesAny(g) {
			continue
		}
		send, ok := o.instr.(*ssa.Send)
		if !ok || o.anchor != nil || o.via != nil {
			return nil
		}
		sends = append(sends, send)
	}
	if len(sends) < 2 {
		return nil
	}
	st := literalStruct(sends[0].X)
	if st == nil {
		return nil
	}
	for i := range st.NumFields() {
		if f := st.Field(i); nilable(f.Type()) && marksLast(sends, i) {
			return f
		}
	}
	return nil
}

// marksLast reports whether field i is nil in exactly one of sends, one
// after which no other can run, and tested non-nil before each other.
func marksLast(sends []*ssa.Send, i int) bool {
	last := -1
	for k, send := range sends {
		v, ok := literalField(send.X, i)
		if !ok {
			return false
		}
		switch {
		case v == nil || waitpath.IsNilConst(v):
			if last >= 0 {
				return false
			}
			last = k
		case !testedNonNil(v, send.Block()):
			return false
		}
	}
	if last < 0 {
		return false
	}
	others := map[ssa.Instruction]bool{}
	for k, send := range sends {
		if k != last {
			others[send] = true
		}
	}
	b := sends[last].Block()
	return !reachesUnbarred(b, slices.Index(b.Instrs, ssa.Instruction(sends[last]))+1, others, nil)
}

// literalStruct returns the struct type of a composite literal sent as
// x (T{…} or &T{…}), or nil.
func literalStruct(x ssa.Value) *types.Struct {
	a := literalAlloc(x)
	if a == nil {
		return nil
	}
	st, _ := a.Type().Underlying().(*types.Pointer).Elem().Underlying().(*types.Struct)
	return st
}

// literalAlloc returns the allocation of the composite literal x is, or
// whose value it loads.
func literalAlloc(x ssa.Value) *ssa.Alloc {
	if u, ok := x.(*ssa.UnOp); ok && u.Op == token.MUL {
		x = u.X
	}
	a, _ := x.(*ssa.Alloc)
	return a
}

// literalField returns the value stored in field i of the literal x,
// nil when none is (the zero value); ok is false when the literal's
// field is stored twice or its address is used otherwise.
func literalField(x ssa.Value, i int) (v ssa.Value, ok bool) {
	a := literalAlloc(x)
	if a == nil || literalStruct(x) == nil {
		return nil, false
	}
	for _, ref := range *a.Referrers() {
		fa, isField := ref.(*ssa.FieldAddr)
		if !isField || fa.Field != i {
			continue
		}
		for _, use := range *fa.Referrers() {
			st, isStore := use.(*ssa.Store)
			if !isStore || st.Addr != fa || v != nil {
				return nil, false
			}
			v = st.Val
		}
	}
	return v, true
}

// testedNonNil reports whether block b runs only on the way of a test
// that v is not nil: it is dominated by the successor of that branch,
// entered only from it.
func testedNonNil(v ssa.Value, b *ssa.BasicBlock) bool {
	refs := v.Referrers()
	if refs == nil {
		return false // a constant, a function, a global: not a tested value
	}
	for _, ref := range *refs {
		cmp, ok := ref.(*ssa.BinOp)
		if !ok || cmp.Op != token.EQL && cmp.Op != token.NEQ || !waitpath.IsNilConst(cmp.X) && !waitpath.IsNilConst(cmp.Y) {
			continue
		}
		for _, use := range *cmp.Referrers() {
			iff, ok := use.(*ssa.If)
			if !ok {
				continue
			}
			succ := iff.Block().Succs[0]
			if cmp.Op == token.EQL {
				succ = iff.Block().Succs[1]
			}
			if len(succ.Preds) == 1 && succ.Dominates(b) {
				return true
			}
		}
	}
	return false
}

// nilable reports whether a value of type t can be nil.
func nilable(t types.Type) bool {
	switch t.Underlying().(type) {
	case *types.Pointer, *types.Interface, *types.Slice, *types.Map, *types.Chan, *types.Signature:
		return true
	}
	return false
}
