package strandedsend

import (
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"

	"github.com/admitlint/admitlint/internal/match"
	"github.com/admitlint/admitlint/passes/strandedsend/internal/waitpath"
)

// receiverOf returns the question for the receiver's side: fn waiting on
// group g, with what it knows of the function's other channels and of
// what the senders write.
func (c *checker) receiverOf(sc *scope, ch *channel, g []int) *waitpath.Query {
	q := &waitpath.Query{
		Fn:        sc.fn,
		Info:      c.pass.TypesInfo,
		Made:      ch.mk,
		Chans:     map[ssa.Value]bool{},
		Room:      ch.room,
		Never:     map[ssa.Value]bool{},
		Done:      map[ssa.Value]bool{},
		Last:      map[ssa.Value]bool{},
		Withdrawn: map[ssa.Value]ssa.Instruction{},
		Ends:      isTestFailure,
		Stops:     endsProcess,
		Shared:    sharedWrites(sc.senders),
		Stalls:    waitsForSenders(sc, g),
		EndMarked: endsOnMark(sc.senders, g),
	}
	q.LastNil = c.lastNilField(sc, ch, g)
	if serverGuarded(sc.senders, g) {
		q.Stops = func(call ssa.CallInstruction) bool { return endsProcess(call) || isServerStop(call) }
	}
	for _, m := range g {
		for v := range sc.chans[m].uses.Values {
			q.Chans[v] = true
		}
	}
	c.markSilent(q, sc.fn)
	c.markUncancelled(q)
	markSourced(q, sc, g)
	q.Exits = c.exitsOnReturn
	for d, other := range sc.chans {
		if other.never {
			for v := range other.uses.Values {
				q.Never[v] = true
			}
		}
		if c.closedInstead(sc, d, g) || c.waitedFor(sc, d, g) {
			for v := range other.uses.Values {
				q.Done[v] = true
			}
		} else if s := c.sentLast(sc, d, g); s != nil {
			c.markDone(q, sc, other, s, g)
		} else if s := c.closedByOne(sc, d, g); s != nil {
			for v := range other.uses.Values {
				q.Withdrawn[v] = s.site.Instr
			}
		}
		if countedLast(sc, d, g) {
			for v := range other.uses.Values {
				q.Last[v] = true
			}
		}
		if !slices.Contains(g, d) && selectedWith(other, q.Chans) {
			if n, ok := c.delivered(sc, d); ok {
				if q.Bounded == nil {
					q.Bounded = map[ssa.Value]bool{}
				}
				for v := range other.uses.Values {
					q.Bounded[v] = true
				}
				q.Delivered += n
			}
		}
	}
	return q
}

// selectedWith reports whether the function receives from ch in a select
// that also receives from one of chans.
func selectedWith(ch *channel, chans map[ssa.Value]bool) bool {
	for _, c := range ch.uses.RecvCases {
		for _, st := range c.Select.States {
			if st.Dir == types.RecvOnly && chans[st.Chan] {
				return true
			}
		}
	}
	return false
}

// delivered returns the most values the goroutines of sc send on channel
// d in all, when it can be counted: every use of d is in view, nobody
// closes it (a closed channel delivers forever), and every operation
// sending on it is a plain send on it alone, whose count is constant.
func (c *checker) delivered(sc *scope, d int) (int, bool) {
	ch := sc.chans[d]
	if !ch.ok || ch.held || ch.closed() {
		return 0, false
	}
	for _, s := range sc.senders {
		for _, o := range s.ops {
			if o.touches(d) && !o.plainFor([]int{d}) {
				return 0, false
			}
		}
	}
	set := c.sendersOf(sc, d, []int{d})
	if set.lockstep || !set.total.Constant() {
		return 0, false
	}
	return int(set.total.N), true
}

// markDone records that receiving from channel d means sender s is done
// with group g: if it is the only sender on g, nothing is pending; if not,
// its sends are not.
func (c *checker) markDone(q *waitpath.Query, sc *scope, d *channel, s *sender, g []int) {
	n := 0
	for _, x := range sc.senders {
		if x.touchesAny(g) {
			n++
		}
	}
	for v := range d.uses.Values {
		if n == 1 {
			q.Done[v] = true
		} else {
			q.Withdrawn[v] = s.site.Instr
		}
	}
}

// sharedWrites returns the loads, in the function starting the senders,
// of the variables their goroutines assign (decodeErr = err): what the
// receiver decides on them follows the senders' progress.
func sharedWrites(senders []*sender) map[ssa.Value]bool {
	shared := map[ssa.Value]bool{}
	for _, s := range senders {
		fn := s.site.Fn
		for i, fv := range fn.FreeVars {
			if i >= len(s.site.Bindings) || !isAssigned(fv) {
				continue
			}
			for _, ref := range *s.site.Bindings[i].Referrers() {
				if load, ok := ref.(*ssa.UnOp); ok && load.Op == token.MUL {
					shared[load] = true
				}
			}
		}
	}
	return shared
}

// isAssigned reports whether a closure stores to its free variable fv.
func isAssigned(fv *ssa.FreeVar) bool {
	for _, ref := range *fv.Referrers() {
		if st, ok := ref.(*ssa.Store); ok && st.Addr == fv {
			return true
		}
	}
	return false
}

// endsProcess reports whether call ends the process: os.Exit, or logging
// at fatal level, which by every logging package's convention exits
// (log.Fatal, (*log.Logger).Fatalf, logrus, zap, zerolog's log.Fatal()
// event, klog, glog). No goroutine outlives it.
func endsProcess(call ssa.CallInstruction) bool {
	fn := match.Callee(call)
	if fn == nil || fn.Pkg() == nil {
		return false
	}
	fatal := false
	switch fn.Name() {
	case "Fatal", "Fatalf", "Fatalln", "Fatalw", "FatalDepth":
		fatal = true
	}
	switch fn.Pkg().Path() {
	case "os":
		return fn.Name() == "Exit" && fn.Signature().Recv() == nil
	case "log", "github.com/sirupsen/logrus", "go.uber.org/zap",
		"github.com/rs/zerolog", "github.com/rs/zerolog/log":
		return fatal
	case "k8s.io/klog", "k8s.io/klog/v2", "github.com/golang/glog":
		return fatal || fn.Name() == "Exit" || fn.Name() == "Exitf"
	}
	return false
}

// isTestFailure reports whether call fails or skips the running test
// (t.Error, t.Fatalf, b.Skip, …): what a failing test leaks does not
// outlive the failure worth fixing.
func isTestFailure(call ssa.CallInstruction) bool {
	fn := match.Callee(call)
	if fn == nil || fn.Pkg() == nil {
		return false
	}
	switch fn.Pkg().Path() {
	case "testing":
		switch fn.Name() {
		case "Error", "Errorf", "Fail", "Fatal", "Fatalf", "FailNow", "Skip", "Skipf", "SkipNow":
			return fn.Signature().Recv() != nil
		}
	case "github.com/stretchr/testify/require", "github.com/stretchr/testify/assert":
		return match.IsFunc(fn, fn.Pkg().Path(), "Fail", "FailNow")
	}
	return false
}
