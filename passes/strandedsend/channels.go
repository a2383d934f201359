package strandedsend

import (
	"cmp"
	"slices"

	"golang.org/x/tools/go/ssa"

	"github.com/admitlint/admitlint/internal/match"
	"github.com/admitlint/admitlint/internal/spawn"
	"github.com/admitlint/admitlint/passes/strandedsend/internal/chanuse"
	"github.com/admitlint/admitlint/passes/strandedsend/internal/waitpath"
)

// channelOf traces the channel mk makes, in fn and into the goroutines it
// is handed to.
func (c *checker) channelOf(mk *ssa.MakeChan, sites []spawn.Site) *channel {
	ch := &channel{mk: mk}
	ch.uses = chanuse.TraceFollowing(mk.Parent(), []ssa.Value{mk}, sites, c.follow)
	u := ch.uses
	for _, call := range u.Calls {
		if u.Escape != nil {
			break
		}
		if x := c.follow.SendsOn(call.Instr.Common().StaticCallee(), call.Arg, call.Holding); call.Held && x != nil && x.Idle() {
			continue // a method of the struct that leaves its channel alone
		}
		// The function itself hands the channel to a helper: what it
		// receives or sends there is not counted, so it is out of view.
		u.Escape = call.Instr
	}
	ch.never = u.Escape == nil && len(u.Sends)+len(u.SendCases)+len(u.Closes)+len(u.Handoffs)+len(u.FieldStore)+len(u.Returns) == 0
	room, constant := match.ChanCap(mk)
	if !constant || !c.constantCap(mk) {
		return ch // the buffer's size is not known: unknown means silence
	}
	ch.room = room
	if u.Escape != nil || len(u.Sends) > 0 || len(u.SendCases) > 0 || !closedAfterWait(u.Closes) || len(u.FieldStore) > 0 {
		return ch
	}
	ch.in = map[*spawn.Site][]*chanuse.Uses{}
	ch.inner = map[*ssa.Function][]chanuse.Handoff{}
	for _, h := range u.Handoffs {
		if h.Site == nil || h.Fn == mk.Parent() {
			return ch
		}
		ch.held = ch.held || h.Held
		if h.Into == nil {
			// A goroutine running a summarised function of another
			// package: the go statement is its one operation.
			ch.in[h.Site] = append(ch.in[h.Site], &chanuse.Uses{Fn: h.Fn, Values: map[ssa.Value]bool{}, Calls: goCalls(h, u)})
			continue
		}
		uses, ok := traceInto(h, c.follow, ch.inner)
		if !ok {
			return ch
		}
		ch.in[h.Site] = append(ch.in[h.Site], uses...)
	}
	ch.ok = len(ch.in) > 0
	return ch
}

// closed reports whether the channel is closed, by the function or a
// goroutine it hands it to.
func (ch *channel) closed() bool {
	if len(ch.uses.Closes) > 0 {
		return true
	}
	for _, uses := range ch.in {
		for _, u := range uses {
			if len(u.Closes) > 0 {
				return true
			}
		}
	}
	return false
}

// constantCap reports whether the make's capacity, as written, is a
// constant: make(chan T, n) with n := 2 folds to a constant in SSA, but
// the author sized it by n, and n may change.
func (c *checker) constantCap(mk *ssa.MakeChan) bool {
	call := c.makes[mk.Pos()]
	if call == nil || len(call.Args) < 2 {
		return call != nil
	}
	tv, ok := c.pass.TypesInfo.Types[call.Args[1]]
	return ok && tv.Value != nil
}

// A senderSet is what the goroutines fn starts send on a group.
type senderSet struct {
	starts     []waitpath.Start // their spawn sites, with how many values each sets going
	total      waitpath.Count
	targets    []*op                   // the plain sends on the channel under check
	owner      map[*op]ssa.Instruction // the spawn site of each target's sender
	goroutines int                     // how many goroutines send (2 for "many")
	// lockstep: the senders answer requests the function sends, one
	// value each; the starts are the requests and total is unknown
	// until a path counts the outstanding ones.
	lockstep bool
	// byPass holds the starts of a loop whose trips are counted (len(xs),
	// n), each goroutine sending one value: the count says how many in
	// all, and counting the passes says how many are out at once (see
	// onePerPass).
	byPass []int
}

// onePerPass returns q with the starts of set.byPass counted pass by
// pass, as for a loop nobody counts, or nil when there are none. A leave
// that only the count of all the trips finds, and the passes do not,
// strands nothing: the loop takes each goroutine's value before it
// starts the next (validation set 28, a PDF engine tried after
// another, each given the context the loop selects on).
func (set *senderSet) onePerPass(q *waitpath.Query) *waitpath.Query {
	if len(set.byPass) == 0 {
		return nil
	}
	byPass := *q
	byPass.Starts = slices.Clone(q.Starts)
	for _, i := range set.byPass {
		byPass.Starts[i].Sends, byPass.Starts[i].Least, byPass.Starts[i].Again = waitpath.One, 1, true
	}
	return &byPass
}

// sendersOf counts the plain sends on group g of each sender, and
// collects those on channel i.
func (c *checker) sendersOf(sc *scope, i int, g []int) senderSet {
	fn, mk := sc.fn, sc.chans[i].mk
	var set senderSet
	for _, s := range sc.senders {
		per, least, byKind := s.sends(g)
		if per.IsZero() {
			continue
		}
		if byKind && sc.chans[i].room > 0 {
			// One value per value of a kind its loop meets: the buffer
			// takes the first, and how many more come is the peer's
			// protocol, a number the analysis cannot name.
			per = waitpath.Count{Many: true}
		}
		trip := c.tripOf(fn, s.site, mk)
		if per.Stream && trip == waitpath.One {
			if reqs := lockstep(sc, s, g); reqs != nil {
				// One answer per request: counted where the requests go.
				set.starts = append(set.starts, reqs...)
				set.lockstep = true
				set.goroutines++
				set.add(s, s.targetsOn(i, g))
				continue
			}
		}
		gates := gatesOf(sc, s, i, g)
		var rounds []ssa.Value
		if per.Stream && !byKind && trip == waitpath.One && len(gates) == 0 && sc.chans[i].room < waitpath.RoundsRoom {
			// A stream whose every round waits for the function to take
			// a value on another channel (validation set 21, kapacitor).
			if rounds = roundsOf(sc, s, g); rounds != nil {
				per = waitpath.One
			}
		}
		n := per.Times(trip)
		start := waitpath.Start{Instr: s.site.Instr, Case: -1, Gates: gates, Rounds: rounds, Awaits: awaitsOf(s, i, g)}
		set.goroutines++
		if trip != waitpath.One {
			set.goroutines++
			n.Maybe = n.Maybe || int64(least) < per.N // some may send nothing
		}
		start.Sends = n
		if trip.Constant() {
			start.Least = int64(least) * trip.N // sends every goroutine makes
		}
		if trip.Many && per == waitpath.One && least == 1 {
			// Each goroutine of a loop nobody counts sends one value: the
			// search counts the goroutines as it passes the go statement,
			// and the values the loop takes between them.
			start.Sends, start.Least, start.Again = waitpath.One, 1, true
		} else if trip != waitpath.One && per == waitpath.One && least == 1 {
			set.byPass = append(set.byPass, len(set.starts))
		}
		set.starts = append(set.starts, start)
		set.total = set.total.Plus(n)
		set.add(s, s.targetsOn(i, g))
	}
	return set
}

// add records targets, the plain sends of sender s.
func (set *senderSet) add(s *sender, targets []*op) {
	if set.owner == nil {
		set.owner = map[*op]ssa.Instruction{}
	}
	for _, o := range targets {
		set.owner[o] = s.site.Instr
	}
	set.targets = append(set.targets, targets...)
}

// strandedBy returns the targets of the senders out holds (the starts a
// leave strands): the report points at a send the leave does strand, and
// lists no send of a sender it knows is done or did not start. When no
// target is known to be a stranded sender's (answers counted per
// request), it returns them all.
func (set *senderSet) strandedBy(out []ssa.Instruction) []*op {
	var stranded []*op
	for _, o := range set.targets {
		if slices.Contains(out, set.owner[o]) {
			stranded = append(stranded, o)
		}
	}
	if len(stranded) == 0 {
		return set.targets
	}
	return stranded
}

// ownersOf returns the spawn sites of the senders of targets, in the
// order of their positions.
func (set *senderSet) ownersOf(targets []*op) []ssa.Instruction {
	var sites []ssa.Instruction
	for _, o := range targets {
		if site := set.owner[o]; !slices.Contains(sites, site) {
			sites = append(sites, site)
		}
	}
	slices.SortFunc(sites, func(x, y ssa.Instruction) int { return cmp.Compare(x.Pos(), y.Pos()) })
	return sites
}

// targetsOn returns the plain sends of s on channel i of group g.
func (s *sender) targetsOn(i int, g []int) []*op {
	var ops []*op
	for _, o := range s.ops {
		if o.touches(i) && o.plainFor(g) {
			ops = append(ops, o)
		}
	}
	return ops
}

// tripOf returns how many times the spawn site runs per channel made by
// mk: once, or the trip count of the one loop around it that does not
// also make the channel, unless it runs on one trip of that loop only
// (under if i == len(xs)-1: validation set 13, release-utils).
func (c *checker) tripOf(fn *ssa.Function, site *spawn.Site, mk *ssa.MakeChan) waitpath.Count {
	switch waitpath.LoopsAround(fn, site.Instr.Block(), mk.Block()) {
	case 0:
		return waitpath.One
	case 1:
		if waitpath.OnceInLoop(fn, site.Instr.Block(), mk.Block()) {
			return waitpath.One
		}
		trip, stmt, ok := waitpath.LoopTrip(fn, c.pass.TypesInfo, site.Instr.Pos(), 0)
		if ok && !(stmt.Pos() <= mk.Pos() && mk.Pos() < stmt.End()) {
			return trip
		}
	}
	return waitpath.Count{Many: true}
}

// isFuture reports whether the channel is a future: returned by the
// function that makes it, unbuffered, never received there, and fed by
// exactly one send of one goroutine.
func isFuture(ch *channel, total waitpath.Count, groupSize int) bool {
	u := ch.uses
	return len(u.Returns) > 0 && ch.room == 0 && groupSize == 1 &&
		len(u.Recvs) == 0 && len(u.RecvCases) == 0 && total == waitpath.One
}

// goCalls returns the go statement of h as the call that passes the
// channel (whose uses in the function starting it are u) to the function
// it runs.
func goCalls(h chanuse.Handoff, u *chanuse.Uses) []chanuse.Call {
	var calls []chanuse.Call
	for j, a := range h.Site.Instr.Common().Args {
		if h.Held && a == h.From || !h.Held && u.Values[a] {
			calls = append(calls, chanuse.Call{Instr: h.Site.Instr, Arg: j, Holding: h.Holding})
		}
	}
	return calls
}

// closedAfterWait reports whether every close of the channel by the
// function that makes it comes after it has waited for a group of
// goroutines (a WaitGroup's or an errgroup's Wait), the idiom for closing
// once every sender is done. Any other close is the function sending an
// end of stream: then it is a sender too, out of this analysis.
func closedAfterWait(closes []ssa.CallInstruction) bool {
	for _, cl := range closes {
		if !afterWait(cl) {
			return false
		}
	}
	return true
}

// afterWait reports whether instr runs only after a call of a group's
// Wait: one earlier in its block or in a block dominating it.
func afterWait(instr ssa.Instruction) bool {
	for b := instr.Block(); b != nil; b = b.Idom() {
		for _, x := range b.Instrs {
			if x == instr {
				break
			}
			if call, ok := x.(ssa.CallInstruction); ok {
				fn := match.Callee(call)
				if match.IsMethod(fn, match.ErrgroupPkg, "Group", "Wait") || match.IsMethod(fn, "sync", "WaitGroup", "Wait") {
					return true
				}
			}
		}
	}
	return false
}
