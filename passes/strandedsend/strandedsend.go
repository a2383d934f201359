package strandedsend

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/inspect"
	"golang.org/x/tools/go/ast/inspector"
	"golang.org/x/tools/go/ssa"

	"github.com/admitlint/admitlint/internal/docs"
	"github.com/admitlint/admitlint/internal/harness"
	"github.com/admitlint/admitlint/internal/lazyssa"
	"github.com/admitlint/admitlint/internal/match"
	"github.com/admitlint/admitlint/internal/settings"
	"github.com/admitlint/admitlint/internal/spawn"
	"github.com/admitlint/admitlint/passes/strandedsend/internal/chanuse"
	"github.com/admitlint/admitlint/passes/strandedsend/internal/replyfields"
	"github.com/admitlint/admitlint/passes/strandedsend/internal/waitpath"
)

// Config holds strandedsend's settings.
type Config struct {
	Futures bool `json:"futures" help:"report functions that return an unbuffered channel fed by one send from a goroutine they start"`
}

// Defaults returns strandedsend's default settings.
func Defaults() Config {
	return Config{Futures: true}
}

// Analyzer reports stranded sends with the default settings.
var Analyzer = New(Defaults())

// New returns a strandedsend analyzer with the given settings.
func New(cfg Config) *analysis.Analyzer {
	a := &analysis.Analyzer{
		Name:     "strandedsend",
		Doc:      docs.MustExtract(doc, "strandedsend"),
		URL:      "https://pkg.go.dev/github.com/admitlint/admitlint/passes/strandedsend",
		Requires: []*analysis.Analyzer{inspect.Analyzer, lazyssa.Analyzer, replyfields.Analyzer},
	}
	settings.Bind(&a.Flags, &cfg)
	a.Run = func(pass *analysis.Pass) (any, error) { return run(pass, &cfg) }
	return harness.Wrap(a)
}

func run(pass *analysis.Pass, cfg *Config) (any, error) {
	ins := pass.ResultOf[inspect.Analyzer].(*inspector.Inspector)
	c := &checker{pass: pass, cfg: cfg, reported: map[token.Pos]bool{}}
	c.indexSyntax(ins)
	c.checkFieldSends(pass.ResultOf[replyfields.Analyzer].(*replyfields.Result))
	if !c.hasMake || !spawn.HasCandidates(ins) {
		return nil, nil
	}
	prog, err := lazyssa.Of(pass).SSA()
	if err != nil {
		return nil, err
	}
	c.funcs = prog.SrcFuncs
	for _, fn := range prog.SrcFuncs {
		c.checkFunc(fn)
	}
	return nil, nil
}

// A checker holds what one package's run needs.
type checker struct {
	pass     *analysis.Pass
	cfg      *Config
	hasMake  bool                        // some make(chan …) in the package
	sends    map[token.Pos]*ast.SendStmt // by arrow position
	plain    []*ast.SendStmt             // send statements outside select, in source order
	funcs    []*ssa.Function             // the package's functions
	index    *callIndex                  // built on the first future
	makes    map[token.Pos]*ast.CallExpr // make(chan …) calls, by Lparen
	reported map[token.Pos]bool
}

// indexSyntax records the send statements and channel makes of the
// package by position, so SSA instructions can be mapped back to the
// expressions the user wrote.
func (c *checker) indexSyntax(ins *inspector.Inspector) {
	c.sends = map[token.Pos]*ast.SendStmt{}
	c.makes = map[token.Pos]*ast.CallExpr{}
	cases := map[ast.Stmt]bool{}
	ins.Preorder([]ast.Node{(*ast.CommClause)(nil), (*ast.SendStmt)(nil), (*ast.CallExpr)(nil)}, func(n ast.Node) {
		switch n := n.(type) {
		case *ast.CommClause:
			cases[n.Comm] = true
		case *ast.SendStmt:
			c.sends[n.Arrow] = n
			if !cases[n] {
				c.plain = append(c.plain, n)
			}
		case *ast.CallExpr:
			if isMakeChan(c.pass.TypesInfo, n) {
				c.makes[n.Lparen] = n
				c.hasMake = true
			}
		}
	})
}

// isMakeChan reports whether call is make(chan …).
func isMakeChan(info *types.Info, call *ast.CallExpr) bool {
	id, ok := ast.Unparen(call.Fun).(*ast.Ident)
	if !ok || id.Name != "make" || len(call.Args) == 0 {
		return false
	}
	if _, ok := info.Uses[id].(*types.Builtin); !ok {
		return false
	}
	_, ok = underlyingChan(info.TypeOf(call.Args[0]))
	return ok
}

// underlyingChan returns t's channel type, if t is one.
func underlyingChan(t types.Type) (*types.Chan, bool) {
	if t == nil {
		return nil, false
	}
	ch, ok := t.Underlying().(*types.Chan)
	return ch, ok
}

// checkFunc checks the channels fn makes: for each, whether a goroutine
// fn starts can be left blocked on a send to it.
func (c *checker) checkFunc(fn *ssa.Function) {
	if isMain(fn) {
		return // the process ends with main: nothing leaks
	}
	var chans []*channel
	var sites []spawn.Site
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			mk, ok := instr.(*ssa.MakeChan)
			if !ok {
				continue
			}
			if sites == nil {
				sites = spawn.Sites(fn)
				if len(sites) == 0 {
					return
				}
			}
			chans = append(chans, c.channelOf(mk, sites))
		}
	}
	if len(chans) == 0 {
		return
	}
	senders := collectOps(chans)
	for i, ch := range chans {
		if ch.ok {
			c.checkChan(fn, i, chans, senders)
		}
	}
}

// isMain reports whether fn is package main's main function.
func isMain(fn *ssa.Function) bool {
	return fn.Name() == "main" && fn.Parent() == nil && fn.Signature.Recv() == nil &&
		fn.Pkg != nil && fn.Pkg.Pkg.Name() == "main"
}

// channelOf traces the channel mk makes, in fn and into the goroutines it
// is handed to.
func (c *checker) channelOf(mk *ssa.MakeChan, sites []spawn.Site) *channel {
	ch := &channel{mk: mk}
	ch.uses = chanuse.Trace(mk.Parent(), []ssa.Value{mk}, sites)
	u := ch.uses
	ch.never = u.Escape == nil && len(u.Sends)+len(u.SendCases)+len(u.Closes)+len(u.Handoffs)+len(u.FieldStore)+len(u.Returns) == 0
	room, constant := match.ChanCap(mk)
	if !constant || !c.constantCap(mk) {
		return ch // the buffer's size is not known: unknown means silence
	}
	ch.room = room
	if u.Escape != nil || len(u.Sends) > 0 || len(u.SendCases) > 0 || len(u.Closes) > 0 || len(u.FieldStore) > 0 {
		return ch
	}
	ch.in = map[*spawn.Site][]*chanuse.Uses{}
	for _, h := range u.Handoffs {
		if h.Site == nil || h.Fn == mk.Parent() {
			return ch
		}
		uses, ok := traceInto(h)
		if !ok {
			return ch
		}
		ch.in[h.Site] = append(ch.in[h.Site], uses...)
	}
	ch.ok = len(ch.in) > 0
	return ch
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

// checkChan reports the sends on channel i that can be stranded.
func (c *checker) checkChan(fn *ssa.Function, i int, chans []*channel, senders []*sender) {
	ch := chans[i]
	g := group(i, chans, senders)
	set := c.sendersOf(fn, ch.mk, i, g, senders)
	if len(set.targets) == 0 {
		return
	}
	q := c.receiverOf(fn, ch, g, chans, senders)
	q.Starts = set.starts
	if leave := waitpath.Find(q); leave != nil {
		c.reportLeave(ch, i, set.targets, leave, set.total, set.starts, set.goroutines > 1)
		return
	}
	if c.cfg.Futures && isFuture(ch, set.total, len(g)) {
		c.checkFuture(fn, ch, i, set.targets)
	}
}

// A senderSet is what the goroutines fn starts send on a group.
type senderSet struct {
	starts     []waitpath.Start // their spawn sites, with how many values each sets going
	total      waitpath.Count
	targets    []*op // the plain sends on the channel under check
	goroutines int   // how many goroutines send (2 for "many")
}

// sendersOf counts the plain sends on group g of each sender, and
// collects those on channel i.
func (c *checker) sendersOf(fn *ssa.Function, mk *ssa.MakeChan, i int, g []int, senders []*sender) senderSet {
	var set senderSet
	for _, s := range senders {
		per, least := s.sends(g)
		if per.IsZero() {
			continue
		}
		trip := c.tripOf(fn, s.site, mk)
		n := per.Times(trip)
		set.goroutines++
		if trip != waitpath.One {
			set.goroutines++
			n.Maybe = n.Maybe || int64(least) < per.N // some may send nothing
		}
		set.starts = append(set.starts, waitpath.Start{Instr: s.site.Instr, Case: -1, Sends: n})
		set.total = set.total.Plus(n)
		for _, o := range s.ops {
			if o.touches(i) && o.plainFor(g) {
				set.targets = append(set.targets, o)
			}
		}
	}
	return set
}

// receiverOf returns the question for the receiver's side: fn waiting on
// group g, with what it knows of the function's other channels and of
// what the senders write.
func (c *checker) receiverOf(fn *ssa.Function, ch *channel, g []int, chans []*channel, senders []*sender) *waitpath.Query {
	q := &waitpath.Query{
		Fn:        fn,
		Info:      c.pass.TypesInfo,
		Made:      ch.mk,
		Chans:     map[ssa.Value]bool{},
		Room:      ch.room,
		Never:     map[ssa.Value]bool{},
		Done:      map[ssa.Value]bool{},
		Withdrawn: map[ssa.Value]ssa.Instruction{},
		Ends:      isTestFailure,
		Shared:    sharedWrites(senders),
	}
	for _, m := range g {
		for v := range chans[m].uses.Values {
			q.Chans[v] = true
		}
	}
	for d, other := range chans {
		if other.never {
			for v := range other.uses.Values {
				q.Never[v] = true
			}
		}
		if c.closedInstead(fn, d, g, chans, senders) {
			for v := range other.uses.Values {
				q.Done[v] = true
			}
		} else if s := c.closedByOne(fn, d, g, chans, senders); s != nil {
			for v := range other.uses.Values {
				q.Withdrawn[v] = s.site.Instr
			}
		}
	}
	return q
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
func (c *checker) closedInstead(fn *ssa.Function, d int, g []int, chans []*channel, senders []*sender) bool {
	only, n := c.signaller(fn, d, g, chans, senders)
	if only == nil || n != 1 {
		return false
	}
	_, ok := closesApart(only, chans[d], g, false)
	return ok
}

// signaller returns the sender on group g that uses channel d, when d is
// a signal: used by that one goroutine, which runs once per channel, and
// sent on by none. It also returns how many senders send on g.
func (c *checker) signaller(fn *ssa.Function, d int, g []int, chans []*channel, senders []*sender) (*sender, int) {
	if !chans[d].ok || slices.Contains(g, d) || len(chans[d].in) != 1 {
		return nil, 0
	}
	var user *sender
	n := 0
	for _, s := range senders {
		if s.touchesAny([]int{d}) {
			return nil, 0 // it is sent on: a value, not a signal
		}
		if s.touchesAny(g) {
			n++
			if chans[d].in[s.site] != nil {
				user = s
			}
		}
	}
	if user == nil || c.tripOf(fn, user.site, chans[d].mk) != waitpath.One {
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
			if cl.Parent() != s.site.Fn {
				return 0, false
			}
			n++
			for _, o := range s.ops {
				at := o.anchor
				if at == nil {
					at = o.instr
				}
				if o.plainFor(g) && (reaches(cl, at) || before && reaches(at, cl)) {
					return 0, false
				}
			}
		}
	}
	return n, true
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
func (c *checker) closedByOne(fn *ssa.Function, d int, g []int, chans []*channel, senders []*sender) *sender {
	closer, _ := c.signaller(fn, d, g, chans, senders)
	if closer == nil {
		return nil
	}
	if n, ok := closesApart(closer, chans[d], g, true); !ok || n == 0 {
		return nil
	}
	return closer
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

// tripOf returns how many times the spawn site runs per channel made by
// mk: once, or the trip count of the one loop around it that does not
// also make the channel.
func (c *checker) tripOf(fn *ssa.Function, site *spawn.Site, mk *ssa.MakeChan) waitpath.Count {
	switch waitpath.LoopsAround(fn, site.Instr.Block(), mk.Block()) {
	case 0:
		return waitpath.One
	case 1:
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
