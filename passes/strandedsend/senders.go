package strandedsend

import (
	"go/constant"
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"

	"github.com/admitlint/admitlint/internal/spawn"
	"github.com/admitlint/admitlint/internal/ssacfg"
	"github.com/admitlint/admitlint/passes/strandedsend/internal/chanuse"
	"github.com/admitlint/admitlint/passes/strandedsend/internal/sendsum"
	"github.com/admitlint/admitlint/passes/strandedsend/internal/waitpath"
)

// A channel is one make(chan T, C) of the function under analysis, with
// a constant capacity C.
type channel struct {
	mk   *ssa.MakeChan
	room int64
	uses *chanuse.Uses // in the function that makes it
	ok   bool          // every use is in view: F receives, goroutines send
	// never reports whether F only receives from it: nothing sends on it
	// or closes it, so a select case on it never fires.
	never bool
	// in holds the channel's uses in the goroutines F hands it to (and in
	// the closures they run in place), by site.
	in map[*spawn.Site][]*chanuse.Uses
	// inner holds, for each closure a goroutine runs in place, how it
	// runs it: at one call, or at each of several.
	inner map[*ssa.Function][]chanuse.Handoff
	// held: it reaches a goroutine inside a struct (go work(&task{out:
	// ch}), go t.run()), whose field the goroutine sends on.
	held bool
}

// An op is a send operation of a goroutine on the function's channels: a
// send statement or a select with send cases.
type op struct {
	instr  ssa.Instruction   // *ssa.Send or *ssa.Select
	anchor ssa.Instruction   // instr, or the call (or defer) in the goroutine's function of the closure holding it
	chans  []int             // indexes of the channels it sends on
	pos    map[int]token.Pos // where it sends on each: the send's arrow, the case's
	// escapes reports whether the operation can complete without any of
	// the function's channels being read: a default, a receive, or a send
	// on a channel of unknown fate.
	escapes bool
	// runs says how many times the closure holding instr runs per run of
	// anchor (Once when there is no anchor).
	runs chanuse.Runs
	// via summarises, for a call that passes the channel to a helper,
	// the plain sends the helper makes on it; nil for a send.
	via *sendsum.Sends
	// cases holds, for a select, the index of the case sending on each
	// channel.
	cases map[int]int
}

// counted returns the instructions at which the operation counts as
// having sent: the send, the call, or the body of each case of a select
// that sends on a channel of group g (a select in a loop that it leaves
// once it has sent sends once).
func (o *op) counted(g []int) []ssa.Instruction {
	sel, ok := o.instr.(*ssa.Select)
	if !ok {
		return []ssa.Instruction{o.instr}
	}
	var at []ssa.Instruction
	for _, c := range o.chans {
		body := ssacfg.CaseBody(sel, o.cases[c])
		if !slices.Contains(g, c) || body == nil {
			continue
		}
		if i := body.Instrs[0]; !slices.Contains(at, i) {
			at = append(at, i)
		}
	}
	if len(at) == 0 {
		return []ssa.Instruction{o.instr}
	}
	return at
}

// weight returns the most and the fewest values the operation sends per
// run, and whether it sends a stream.
func (o *op) weight() (most, least int, stream bool) {
	if o.via == nil {
		return 1, 1, false
	}
	return o.via.Most, o.via.Least, o.via.Loop
}

// byKind reports whether the stream the operation sends (through a
// helper) is one value per value of a kind the helper's loop meets.
func (o *op) byKind() bool {
	return o.via != nil && o.via.ByKind
}

// plainFor reports whether the operation can only complete by a send on
// a channel of the group: once the receiver of the group has left, it
// blocks forever.
func (o *op) plainFor(group []int) bool {
	if o.escapes {
		return false
	}
	for _, c := range o.chans {
		if !slices.Contains(group, c) {
			return false
		}
	}
	return true
}

// A sender is one spawn site of F that sends on F's channels.
type sender struct {
	site *spawn.Site
	ops  []*op
}

// traceInto follows the channel into the goroutine a handoff starts,
// the closures it runs in place and the goroutines it starts (one
// level), and the helpers it passes the channel to (by their summaries,
// see package sendsum), and reports
// whether every use there is a send or a close. It records in inner how
// each closure is run.
func traceInto(h chanuse.Handoff, follow chanuse.Follow, inner map[*ssa.Function][]chanuse.Handoff) ([]*chanuse.Uses, bool) {
	u := chanuse.TraceSender(h, spawn.Sites(h.Fn), follow)
	if !sendsOnly(u) {
		return nil, false
	}
	all := []*chanuse.Uses{u}
	for _, in := range u.Handoffs {
		if in.Fn == h.Fn || in.Into == nil {
			return nil, false
		}
		if calls, ok := inner[in.Fn]; ok && in.Site == nil && calls[0].Site == nil && calls[0].Into == in.Into {
			inner[in.Fn] = append(calls, in) // a closure called at several calls: traced once
			continue
		}
		var sites []spawn.Site
		if in.Site != nil {
			// A goroutine of the goroutine, started once (or once per
			// trip round a loop): its sends are the goroutine's, made
			// later.
			sites = spawn.Sites(in.Fn)
			if ssacfg.OnCycle(h.Fn)[in.Instr.Block().Index] {
				in.Runs = chanuse.Many
			}
		}
		v := chanuse.TraceHandoff(in, sites, follow)
		if !sendsOnly(v) || len(v.Handoffs) > 0 {
			return nil, false
		}
		inner[in.Fn] = []chanuse.Handoff{in}
		all = append(all, v)
	}
	return all, true
}

// sendsOnly reports whether u sends on the channel or closes it, and
// does nothing else with it that the analysis cannot follow.
func sendsOnly(u *chanuse.Uses) bool {
	return u.Escape == nil && len(u.Recvs) == 0 && len(u.RecvCases) == 0 &&
		len(u.Returns) == 0 && len(u.FieldStore) == 0
}

// An opKey names one op: each site has its own op for an instruction
// (two go statements running one function both make its sends), and a
// closure called at several calls has one per call.
type opKey struct {
	site   *spawn.Site
	instr  ssa.Instruction
	anchor ssa.Instruction
}

// collectOps gathers the send operations of every site on the channels.
// The uses of each channel in each function are known; a select's cases
// on other values are what make it escapable.
func collectOps(chans []*channel, follow *sendsum.Result) []*sender {
	var senders []*sender
	bySite := map[*spawn.Site]*sender{}
	byInstr := map[opKey]*op{}
	for ci, ch := range chans {
		if !ch.ok {
			continue
		}
		for site, uses := range ch.in {
			snd := bySite[site]
			if snd == nil {
				snd = &sender{site: site}
				bySite[site] = snd
				senders = append(senders, snd)
			}
			for _, u := range uses {
				// Where the function holding the uses runs: the goroutine's
				// own (no anchor), or each call of a closure it runs.
				runsAt := []chanuse.Handoff{{Runs: chanuse.Once}}
				if hs, ok := ch.inner[u.Fn]; ok {
					runsAt = hs
				}
				for _, h := range runsAt {
					snd.addOps(ci, u, h, byInstr, follow)
				}
			}
		}
	}
	for _, o := range byInstr {
		if sel, ok := o.instr.(*ssa.Select); ok {
			o.escapes = selectEscapes(sel, chans)
		}
	}
	// Map iteration above is unordered: order what is reported.
	slices.SortFunc(senders, func(a, b *sender) int { return int(a.site.Instr.Pos() - b.site.Instr.Pos()) })
	for _, s := range senders {
		slices.SortFunc(s.ops, func(a, b *op) int { return int(a.instr.Pos() - b.instr.Pos()) })
	}
	return senders
}

// addOps adds to snd the operations on channel ci of uses u, made each
// time h runs the function holding them (h.Instr nil: the goroutine's
// own function).
func (snd *sender) addOps(ci int, u *chanuse.Uses, h chanuse.Handoff, byInstr map[opKey]*op, follow *sendsum.Result) {
	anchor, runs := h.Instr, h.Runs
	add := func(instr ssa.Instruction, pos token.Pos, index int) {
		if afterEndlessServe(instr) || onOtherReadError(instr) {
			return // never runs
		}
		key := opKey{snd.site, instr, anchor}
		o := byInstr[key]
		if o == nil {
			o = &op{instr: instr, anchor: anchor, runs: runs, pos: map[int]token.Pos{}, cases: map[int]int{}}
			byInstr[key] = o
			snd.ops = append(snd.ops, o)
		}
		if !slices.Contains(o.chans, ci) {
			o.chans = append(o.chans, ci)
			o.pos[ci] = pos
			o.cases[ci] = index
		}
	}
	for _, s := range u.Sends {
		add(s, s.Pos(), -1)
	}
	for _, c := range u.SendCases {
		add(c.Select, c.Select.States[c.Index].Pos, c.Index)
	}
	for _, call := range u.Calls {
		if afterEndlessServe(call.Instr) || onOtherReadError(call.Instr) {
			continue
		}
		via := follow.SendsOn(call.Instr.Common().StaticCallee(), call.Arg, call.Holding)
		if via == nil || !via.Plain() {
			// It makes no plain send: a method of the struct that leaves
			// its channel alone, or one that sends only in selects that
			// can give up.
			continue
		}
		// One operation per call and channel: the helper's sends on each
		// are counted apart.
		snd.ops = append(snd.ops, &op{instr: call.Instr, anchor: anchor, runs: runs, chans: []int{ci},
			pos: map[int]token.Pos{ci: call.Instr.Pos()}, via: via})
	}
}

// selectEscapes reports whether sel can complete other than by a send on
// one of the analysable channels: it has a default, a receive (other than
// from a nil channel), or a send on some other channel, after which its
// function can return. A case that only loops back to the select (a
// ticker's tick, a heartbeat) is no way out.
func selectEscapes(sel *ssa.Select, chans []*channel) bool {
	if !sel.Blocking {
		return true
	}
	for i, st := range sel.States {
		if waitpath.IsNilConst(st.Chan) {
			continue // never ready
		}
		if !chanuse.CaseLeaves(sel, i) {
			continue // taking it only leads back to the select
		}
		if st.Dir == types.RecvOnly {
			return true
		}
		known := false
		for _, ch := range chans {
			if !ch.ok {
				continue
			}
			for _, uses := range ch.in {
				for _, u := range uses {
					if u.Values[st.Chan] {
						known = true
					}
				}
			}
		}
		if !known {
			return true
		}
	}
	return false
}

// touches reports whether o sends on channel c.
func (o *op) touches(c int) bool { return slices.Contains(o.chans, c) }

// touchesAny reports whether o sends on any of the channels.
func (o *op) touchesAny(chans []int) bool {
	for _, c := range chans {
		if o.touches(c) {
			return true
		}
	}
	return false
}

// group returns channel c with the channels whose sends exclude c's in
// every goroutine: a goroutine that sends on resc or on errc, never both,
// has delivered its value once either is received. The group is c alone
// when there is no such channel.
func group(c int, chans []*channel, senders []*sender) []int {
	g := []int{c}
	for d := range chans {
		if d == c || !chans[d].ok {
			continue
		}
		if joins(g, d, senders) {
			g = append(g, d)
		}
	}
	return g
}

// joins reports whether channel d belongs with group g: the goroutines
// that send on g are exactly those that send on d, and none of them sends
// on d in a run that also sends on g with another operation. A send on d
// that ends a goroutine's sends on g (a reader forwarding messages in a
// loop until it reports its error on d and returns) is no alternative to
// them but their end: d is then a signal (see sentLast), not a member.
func joins(g []int, d int, senders []*sender) bool {
	shared := false
	for _, s := range senders {
		onG, onD := false, s.touchesAny([]int{d})
		for _, m := range g {
			onG = onG || s.touchesAny([]int{m})
			if !s.exclusive(m, d) {
				return false
			}
		}
		if onG != onD || onG && s.endsWith(g, d) {
			return false
		}
		shared = shared || onG
	}
	return shared
}

// endsWith reports whether the goroutine's sends on d come after sends
// on g and before none: a send on g can precede one on d (round a loop),
// and none can follow it.
func (s *sender) endsWith(g []int, d int) bool {
	after := false
	for _, y := range s.ops {
		if !y.touches(d) {
			continue
		}
		for _, x := range s.ops {
			if x == y || !x.touchesAny(g) {
				continue
			}
			if sequenced(y, x) {
				return false
			}
			after = after || sequenced(x, y)
		}
	}
	return after
}

// touchesAny reports whether the goroutine sends on any of the channels.
func (s *sender) touchesAny(chans []int) bool {
	for _, o := range s.ops {
		for _, c := range chans {
			if o.touches(c) {
				return true
			}
		}
	}
	return false
}

// exclusive reports whether no run of the goroutine sends on c and then
// (or before) on d with another operation; for sends in a loop, no one
// iteration of it: a worker that answers each job on one channel or the
// other sends one value of the two per job. A send a one-way flag lets
// run once in the loop is no such answer: it is made in one iteration
// only, a signal of its own beside whatever the other iterations send
// (validation set 31, ddev: a readiness line sent once from a loop that
// forwards every other line on a second channel).
func (s *sender) exclusive(c, d int) bool {
	for _, x := range s.ops {
		if !x.touches(c) {
			continue
		}
		for _, y := range s.ops {
			if x == y || !y.touches(d) {
				continue
			}
			if inOneIteration(x, y) || inOneIteration(y, x) || s.flaggedOnce(x) || s.flaggedOnce(y) {
				return false
			}
		}
	}
	return true
}

// flaggedOnce reports whether operation o sits on a cycle of the
// goroutine but runs at most once in a run of it (see onceAt; in a
// closure the goroutine calls, only a flag kept in a variable counts).
func (s *sender) flaggedOnce(o *op) bool {
	if o.anchor == nil {
		return s.onceAt(o.instr)
	}
	return ssacfg.OnceByVariable(o.instr, s.site.Fn)
}

// onceAt reports whether instr, of the goroutine's own function, sits
// on a cycle but runs at most once in a run of it, under a one-way flag
// its loop carries or kept in a variable, or because the loop comes
// back to it only on a tick of a ticker stopped after it.
func (s *sender) onceAt(instr ssa.Instruction) bool {
	return ssacfg.AtMostOnce(instr.Block()) || ssacfg.OnceByVariable(instr, s.site.Fn) || ssacfg.OnceByStoppedTicker(instr)
}

// inOneIteration reports whether some run of the goroutine may perform
// y after x without going round a loop holding both: in the same
// iteration of it.
func inOneIteration(x, y *op) bool {
	if x.instr == y.instr || x.instr.Parent() != y.instr.Parent() || x.anchor != nil || y.anchor != nil {
		return sequenced(x, y)
	}
	var inner *ssacfg.Loop // the innermost loop holding both
	for _, l := range ssacfg.Loops(x.instr.Parent()) {
		if l.Has(x.instr.Block()) && l.Has(y.instr.Block()) && (inner == nil || l.Size < inner.Size) {
			inner = l
		}
	}
	if inner == nil {
		return sequenced(x, y)
	}
	a := x.instr
	return reachesUnbarred(a.Block(), slices.Index(a.Block().Instrs, a)+1,
		map[ssa.Instruction]bool{y.instr: true}, map[ssa.Instruction]bool{inner.Header.Instrs[0]: true})
}

// sequenced reports whether some run of the goroutine may perform y
// after x: in the same function, y is reachable from x; otherwise their
// anchors in the goroutine's function are compared. A deferred closure
// runs when the goroutine's function ends, after everything its body
// does, and deferred closures run last registered first (validation set
// 33, libopenapi-validator: a done signal sent only from a deferred
// recover comes after the result's send, never before it; and when the
// result's send is the body's last act, not after it either).
func sequenced(x, y *op) bool {
	if x.instr == y.instr && x.anchor == y.anchor {
		return x != y // one helper call sending on two channels: in any order
	}
	if x.instr.Parent() == y.instr.Parent() {
		return reaches(x.instr, y.instr)
	}
	ax, ay := x.anchor, y.anchor
	if ax == nil {
		ax = x.instr
	}
	if ay == nil {
		ay = y.instr
	}
	if ax == ay {
		return true // two closures at one call: cannot happen; be safe
	}
	_, dx := ax.(*ssa.Defer)
	_, dy := ay.(*ssa.Defer)
	switch {
	case dx && !dy:
		return spawned(y) // the body is done when x runs; a goroutine it started may not be
	case dy && !dx:
		// y runs when the body is done, unless it runs only on a panic
		// and nothing that may panic follows x, the body's last act.
		return !isRecovered(y.instr.Block()) || x.anchor != nil || callFollows(x.instr)
	case dx && dy:
		return reaches(ay, ax) // y registered before x runs after it
	}
	return reaches(ax, ay)
}

// reaches reports whether a path of their function runs b after a.
func reaches(a, b ssa.Instruction) bool {
	return reachesUnbarred(a.Block(), slices.Index(a.Block().Instrs, a)+1, map[ssa.Instruction]bool{b: true}, nil)
}

// sends returns how many values the goroutine sends on the group with
// operations that block once the receiver has left: the most on any path,
// or a stream if such an operation sits in a loop; and the fewest on a
// path that returns. For a stream, byKind reports whether each of its
// repeats is made for one kind of value the loop meets (see
// ssacfg.RepeatsByKind): how many is then the peer's to decide.
func (s *sender) sends(g []int) (waitpath.Count, int, bool) {
	if len(s.site.Fn.Blocks) == 0 {
		return s.summarised(g)
	}
	stream := waitpath.Count{Stream: true}
	kinds := false // a repeat met, each for one kind of value
	weights := map[ssa.Instruction]int{}
	fewest := map[ssa.Instruction]int{}
	inner := map[*ssa.Function]map[ssa.Instruction]int{}
	innerLeast := map[*ssa.Function]map[ssa.Instruction]int{}
	// A closure called at several calls has an op per call for each of
	// its operations: its weight is counted from those of one call.
	first := map[*ssa.Function]ssa.Instruction{}
	for _, o := range s.ops {
		if !o.plainFor(g) {
			continue
		}
		if o.anchor != nil {
			fn := o.instr.Parent()
			if a, ok := first[fn]; !ok {
				first[fn] = o.anchor
			} else if a != o.anchor {
				continue
			}
		}
		most, fewer, loops := o.weight()
		if loops {
			if !o.byKind() {
				return stream, 0, false
			}
			kinds = true
			most = max(most, 1) // a repeat of its own: counted as one, in a loop or not
		}
		for _, at := range o.counted(g) {
			if o.anchor == nil {
				weights[at] += most
				fewest[at] += fewer
				continue
			}
			fn := o.instr.Parent()
			if inner[fn] == nil {
				inner[fn] = map[ssa.Instruction]int{}
				innerLeast[fn] = map[ssa.Instruction]int{}
			}
			inner[fn][at] += most
			innerLeast[fn][at] += fewer
		}
	}
	// A send on a cycle that runs at most once (under a flag the loop
	// sets on every way round from it, or a variable of the body set
	// before it is tested again) is one send, not a stream (validation
	// set 21, frp: a reader that forwards only the first request of a
	// kind; set 31, ddev: a readiness line sent once from the body of a
	// range-over-func loop).
	once := 0
	onPanic := 0 // the most sends of deferred closures that send only after a panic
	for fn, w := range inner {
		for at, n := range w {
			if n > 0 && (ssacfg.OnceByVariable(at, s.site.Fn) || ssacfg.OnceByStoppedTicker(at)) {
				once += n
				delete(w, at)
				delete(innerLeast[fn], at)
			}
		}
		n, cyclic := ssacfg.MostWeight(fn, w)
		if cyclic && !ssacfg.RepeatsByKind(fn, w) {
			return stream, 0, false
		}
		if cyclic {
			kinds, n = true, 1 // a stream by kind: counted as one from here
		}
		done := map[ssa.Instruction]bool{} // the calls running fn, each weighed once
		for _, o := range s.ops {
			if o.anchor == nil || o.instr.Parent() != fn || done[o.anchor] {
				continue
			}
			done[o.anchor] = true
			if d, deferred := o.anchor.(*ssa.Defer); deferred && (allRecovered(w) || allUnfinished(w, d)) {
				onPanic = max(onPanic, n)
				continue
			}
			switch o.runs {
			case chanuse.Many:
				if n > 0 {
					return stream, 0, false // a callback run for every file, every element
				}
			case chanuse.AtMostOnce:
				weights[o.anchor] += n
			default:
				weights[o.anchor] += n
				fewest[o.anchor] += ssacfg.LeastWeight(fn, innerLeast[fn])
			}
		}
	}
	for at, n := range weights {
		if n > 0 && s.onceAt(at) {
			once += n
			delete(weights, at)
			delete(fewest, at)
		}
	}
	most, cyclic := ssacfg.MostWeight(s.site.Fn, weights)
	most += once
	if cyclic && !ssacfg.RepeatsByKind(s.site.Fn, weights) {
		stream.Endless = len(inner) == 0 && neverReturns(s.site.Fn, weights)
		return stream, 0, false
	}
	kinds = kinds || cyclic
	if onPanic > 0 {
		// A panic ends the body before whatever it has not sent yet: at
		// least the sends that are its last acts, with no call after them.
		most = max(most, onPanic+most-tailSends(weights))
	}
	if kinds {
		return stream, 0, true
	}
	return waitpath.Count{N: int64(most)}, ssacfg.LeastWeight(s.site.Fn, fewest), false
}

// neverReturns reports whether fn, once it has made any of the sends
// of weights, cannot return: every way on from a send leads back to a
// send, or ends the process (log.Fatal), or blocks. Such a goroutine
// sends until the process ends.
func neverReturns(fn *ssa.Function, weights map[ssa.Instruction]int) bool {
	returns, exits := map[ssa.Instruction]bool{}, map[ssa.Instruction]bool{}
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			switch instr := instr.(type) {
			case *ssa.Return:
				returns[instr] = true
			case ssa.CallInstruction:
				if endsProcess(instr) {
					exits[instr] = true
				}
			}
		}
	}
	for at, n := range weights {
		if n > 0 && reachesUnbarred(at.Block(), slices.Index(at.Block().Instrs, at)+1, returns, exits) {
			return false
		}
	}
	return true
}

// summarised counts the sends of a goroutine running a function of
// another package, from that function's summary: the go statement is
// the one operation.
func (s *sender) summarised(g []int) (waitpath.Count, int, bool) {
	var n waitpath.Count
	least, kinds := 0, false
	for _, o := range s.ops {
		if !o.plainFor(g) {
			continue
		}
		most, fewest, loops := o.weight()
		if loops && !o.byKind() {
			return waitpath.Count{Stream: true}, 0, false
		}
		kinds = kinds || loops
		n = n.Plus(waitpath.Count{N: int64(most)})
		least += fewest
	}
	if kinds {
		return waitpath.Count{Stream: true}, 0, true
	}
	return n, least, false
}

// allRecovered reports whether each send of weights, in a deferred
// closure, runs only when the goroutine is panicking: under a test that
// recover() returned something.
//
//	defer func() {
//		if recover() != nil {
//			panicked <- true
//		}
//	}()
func allRecovered(weights map[ssa.Instruction]int) bool {
	for instr := range weights {
		if !isRecovered(instr.Block()) {
			return false
		}
	}
	return len(weights) > 0
}

// isRecovered reports whether block b runs only on the edge of an if
// that found recover()'s result non-nil.
func isRecovered(b *ssa.BasicBlock) bool {
	return ssacfg.GuardedBy(b, func(cond ssa.Value, succ int) bool {
		cmp, ok := cond.(*ssa.BinOp)
		if !ok || !isRecoverCall(cmp.X) && !isRecoverCall(cmp.Y) {
			return false
		}
		return cmp.Op == token.NEQ && succ == 0 || cmp.Op == token.EQL && succ == 1
	})
}

// allUnfinished reports whether each send of weights, in the closure
// that d defers, runs only when the goroutine did not finish its own
// sends: under a test that a flag is still unset, where the flag is a
// variable of the goroutine that it sets to true right after each of its
// plain sends, in the same block.
//
//	sent := false
//	defer func() {
//		if !sent {
//			c <- errExited
//		}
//	}()
//	c <- work()
//	sent = true
func allUnfinished(weights map[ssa.Instruction]int, d *ssa.Defer) bool {
	mc, ok := d.Call.Value.(*ssa.MakeClosure)
	if !ok {
		return false
	}
	for instr := range weights {
		unset := ssacfg.GuardedBy(instr.Block(), func(cond ssa.Value, succ int) bool {
			negated := false
			if not, ok := cond.(*ssa.UnOp); ok && not.Op == token.NOT {
				cond, negated = not.X, true
			}
			flag := boundAlloc(mc, cond)
			return flag != nil && (negated == (succ == 0)) && setAfterEachSend(flag)
		})
		if !unset {
			return false
		}
	}
	return len(weights) > 0
}

// boundAlloc returns the variable of the closure's maker that v, a load
// of one of the closure's free variables, reads.
func boundAlloc(mc *ssa.MakeClosure, v ssa.Value) *ssa.Alloc {
	load, ok := v.(*ssa.UnOp)
	if !ok || load.Op != token.MUL {
		return nil
	}
	fv, ok := load.X.(*ssa.FreeVar)
	if !ok {
		return nil
	}
	for i, f := range mc.Fn.(*ssa.Function).FreeVars {
		if f == fv {
			alloc, _ := mc.Bindings[i].(*ssa.Alloc)
			return alloc
		}
	}
	return nil
}

// setAfterEachSend reports whether the function holding flag makes plain
// sends, and stores true into flag after each of them, in its block.
func setAfterEachSend(flag *ssa.Alloc) bool {
	sends := 0
	for _, b := range flag.Parent().Blocks {
		pending := false
		for _, instr := range b.Instrs {
			switch x := instr.(type) {
			case *ssa.Send:
				if pending {
					return false
				}
				pending = true
				sends++
			case *ssa.Store:
				if k, ok := x.Val.(*ssa.Const); ok && x.Addr == flag && k.Value != nil && constant.BoolVal(k.Value) {
					pending = false
				}
			}
		}
		if pending {
			return false
		}
	}
	return sends > 0
}

// isRecoverCall reports whether v is a call of the recover builtin.
func isRecoverCall(v ssa.Value) bool {
	call, ok := v.(*ssa.Call)
	if !ok {
		return false
	}
	b, ok := call.Call.Value.(*ssa.Builtin)
	return ok && b.Name() == "recover"
}

// tailSends returns 1 if one of the weighted sends is a last act: no call
// can follow it before the function returns, so no panic either.
func tailSends(weights map[ssa.Instruction]int) int {
	for instr := range weights {
		if !callFollows(instr) {
			return 1
		}
	}
	return 0
}

// callFollows reports whether a call that may panic can run after instr
// in its function. Builtins other than panic do not count: the close of
// the channel a goroutine has just sent on, a len, an append (validation
// set 28, jupiter's task runner: send, then close(done)).
func callFollows(instr ssa.Instruction) bool {
	b := instr.Block()
	after := false
	for _, x := range b.Instrs {
		if mayPanicCall(x) && after {
			return true
		}
		after = after || x == instr
	}
	seen := map[*ssa.BasicBlock]bool{b: true}
	stack := slices.Clone(b.Succs)
	for len(stack) > 0 {
		x := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if seen[x] {
			continue
		}
		seen[x] = true
		for _, i := range x.Instrs {
			if mayPanicCall(i) {
				return true
			}
		}
		stack = append(stack, x.Succs...)
	}
	return false
}

// mayPanicCall reports whether instr is a call that may panic: any call
// but of a builtin other than panic.
func mayPanicCall(instr ssa.Instruction) bool {
	call, ok := instr.(ssa.CallInstruction)
	if !ok {
		return false
	}
	b, builtin := call.Common().Value.(*ssa.Builtin)
	return !builtin || b.Name() == "panic"
}
