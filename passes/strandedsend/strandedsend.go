package strandedsend

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strings"

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
	"github.com/admitlint/admitlint/passes/strandedsend/internal/replyfields"
	"github.com/admitlint/admitlint/passes/strandedsend/internal/sendsum"
	"github.com/admitlint/admitlint/passes/strandedsend/internal/waitpath"
)

// Config holds strandedsend's settings.
type Config struct {
	Futures   bool `json:"futures" help:"report functions that return an unbuffered channel fed by one send from a goroutine they start"`
	Tests     bool `json:"tests" help:"also report channels whose receiver is test code (a function in a _test.go file, or a test helper that calls t.Helper())"`
	Many      bool `json:"many" help:"also report senders started a number of times only known at run time into a buffer of one or none, and loops that send one value per message of a kind (a type switch case) into a buffer"`
	Consumers bool `json:"consumers" help:"also report a function that streams values to goroutines it starts, every one of which can stop receiving early on a failure or a cancellation"`
	Fields    bool `json:"fields" help:"also report plain sends on an unexported, unbuffered channel field that nothing in the package receives from, or whose receiving loop can return (a select case on a stop signal) while other functions still send"`
	Buffered  bool `json:"buffered" help:"also report sends on a buffered channel whose room the pass counts as too small for the values still to come when the receiver leaves"`
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
		Requires: []*analysis.Analyzer{inspect.Analyzer, lazyssa.Analyzer, replyfields.Analyzer, sendsum.Analyzer},
	}
	settings.Bind(&a.Flags, &cfg)
	a.Run = func(pass *analysis.Pass) (any, error) { return run(pass, &cfg) }
	return harness.Wrap(a)
}

func run(pass *analysis.Pass, cfg *Config) (any, error) {
	ins := pass.ResultOf[inspect.Analyzer].(*inspector.Inspector)
	c := &checker{pass: pass, cfg: cfg, reported: map[token.Pos]bool{}, leaves: map[token.Pos]leaveFinding{},
		follow: pass.ResultOf[sendsum.Analyzer].(*sendsum.Result)}
	defer c.flush()
	c.indexSyntax(ins)
	c.checkFieldSends(pass.ResultOf[replyfields.Analyzer].(*replyfields.Result))
	fields := c.cfg.Fields && c.hasFieldSend
	if !c.hasMake || !fields && !spawn.HasCandidates(ins) {
		return nil, nil
	}
	prog, err := lazyssa.Of(pass).SSA()
	if err != nil {
		return nil, err
	}
	c.funcs = prog.SrcFuncs
	if fields {
		c.checkFieldChans(prog.SrcFuncs)
	}
	if !spawn.HasCandidates(ins) {
		return nil, nil
	}
	for _, fn := range prog.SrcFuncs {
		c.checkFunc(fn)
	}
	return nil, nil
}

// A checker holds what one package's run needs.
type checker struct {
	pass    *analysis.Pass
	cfg     *Config
	hasMake bool // some make(chan …) in the package
	// hasFieldSend: some plain send on a selector (s.ch <- v), perhaps
	// on a field's channel
	hasFieldSend bool
	sends        map[token.Pos]*ast.SendStmt // by arrow position
	plain        []*ast.SendStmt             // send statements outside select, in source order
	funcs        []*ssa.Function             // the package's functions
	index        *callIndex                  // built on the first future
	makes        map[token.Pos]*ast.CallExpr // make(chan …) calls, by Lparen
	follow       *sendsum.Result             // what helpers do with the channels passed to them
	reported     map[token.Pos]bool
	// out holds the findings, reported when the run ends: a finding at
	// a send another function's leave strands too grows by it (see
	// alsoStrands); leaves indexes those findings by their key.
	out     []analysis.Diagnostic
	leaves  map[token.Pos]leaveFinding
	byField map[*types.Var]*fieldChan // the package's channel fields, once a select asks
	follows map[*ssa.MakeChan]bool    // whether each reply channel asked about is followed (see followed)
	exits   map[*ssa.Return]bool      // whether each return asked about ends the process (see exitsOnReturn)
	// support: whether the package's non-test files use testing.T and
	// its kin, once looked at (see testSupport)
	support *bool
}

// checkFunc checks the channels fn makes: for each, whether a goroutine
// fn starts can be left blocked on a send to it.
func (c *checker) checkFunc(fn *ssa.Function) {
	if isMain(fn) {
		return // the process ends with main: nothing leaks
	}
	if !c.cfg.Tests && c.inTestCode(fn, fn.Pos()) {
		return // a test's receives follow a protocol its assertions enforce
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
				sites = append(spawn.Sites(fn), spawn.Wrapped(fn)...)
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
	sc := &scope{fn: fn, chans: chans, senders: collectOps(chans, c.follow)}
	var found []*stranding
	for i, ch := range chans {
		if ch.ok {
			if s := c.checkChan(sc, i); s != nil {
				found = append(found, s)
			}
		} else if c.cfg.Consumers {
			c.checkConsumers(fn, ch)
		}
	}
	for _, cause := range oneCause(found) {
		c.reportLeave(cause)
	}
}

// inTestCode reports whether fn, at pos, is test code: in a _test.go
// file, a test helper, or in a package of test support.
func (c *checker) inTestCode(fn *ssa.Function, pos token.Pos) bool {
	return c.inTest(pos) || isTestHelper(fn) || c.testSupport()
}

// testSupport reports whether the package is test support (see
// isTestSupport), looking on the first question only: most packages
// never ask.
func (c *checker) testSupport() bool {
	if c.support == nil {
		ts := isTestSupport(c.pass)
		c.support = &ts
	}
	return *c.support
}

// inTest reports whether pos is in a _test.go file.
func (c *checker) inTest(pos token.Pos) bool {
	f := c.pass.Fset.File(pos)
	return f != nil && strings.HasSuffix(f.Name(), "_test.go")
}

// isTestHelper reports whether fn, or the function it is declared in,
// calls t.Helper(): test code outside a _test.go file. The call may be
// made through an interface, as assertion libraries do with a t they do
// not know to be a testing.TB (if h, ok := t.(tHelper); ok { h.Helper() }).
func isTestHelper(fn *ssa.Function) bool {
	for fn.Parent() != nil {
		fn = fn.Parent()
	}
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			if call, ok := instr.(ssa.CallInstruction); ok && isHelperCall(call) {
				return true
			}
		}
	}
	return false
}

// isHelperCall reports whether call is t.Helper(): a Helper method of
// package testing ((*testing.T).Helper is promoted from an unexported
// type), or a Helper() method called through any interface.
func isHelperCall(call ssa.CallInstruction) bool {
	callee := match.Callee(call)
	if callee == nil || callee.Name() != "Helper" {
		return false
	}
	sig := callee.Signature()
	if sig.Recv() == nil || sig.Params().Len() != 0 || sig.Results().Len() != 0 {
		return false
	}
	return call.Common().IsInvoke() || callee.Pkg() != nil && callee.Pkg().Path() == "testing"
}

// isMain reports whether fn is package main's main function.
func isMain(fn *ssa.Function) bool {
	return fn.Name() == "main" && fn.Parent() == nil && fn.Signature.Recv() == nil &&
		fn.Pkg != nil && fn.Pkg.Pkg.Name() == "main"
}

// A scope is what the checks of one function's channels share: the
// function, the channels it makes, and the goroutines it starts that send
// on them.
type scope struct {
	fn      *ssa.Function
	chans   []*channel
	senders []*sender
}

// streams reports whether the senders a leave strands send without end,
// or one value a round: no room holds them, so the report does not rest
// on counting values against the buffer.
func streams(leave *waitpath.Leave, starts []waitpath.Start) bool {
	return leave.Pending.Stream || slices.ContainsFunc(starts, inRounds)
}

// checkChan returns the sends on channel i of sc that a leave of the
// receiver strands, or nil; it reports a future itself.
func (c *checker) checkChan(sc *scope, i int) *stranding {
	fn, ch := sc.fn, sc.chans[i]
	g := answers(sc, group(i, sc.chans, sc.senders))
	set := c.sendersOf(sc, i, g)
	if len(set.targets) == 0 {
		return nil
	}
	q := c.receiverOf(sc, ch, g)
	q.Starts = set.starts
	if leave := waitpath.Find(q); leave != nil {
		if byPass := set.onePerPass(q); byPass != nil {
			one := waitpath.Find(byPass)
			if one == nil {
				return nil // one goroutine out at a time: the buffer holds its value
			}
			if one.Pending == waitpath.One && one.OneOut {
				leave, set.total = one, waitpath.One // one out, whatever the count
			}
		}
		if set.lockstep {
			set.total = leave.Pending // the answers outstanding on the way out
		}
		if ch.room > 0 && !c.cfg.Buffered && !streams(leave, set.starts) && !(set.total.Many && c.cfg.Many) {
			// Counting what a buffer holds against what is still to come
			// was right 3 times in 20 on first looks (validation sets
			// 27 to 37): the count misses receives a protocol makes, or
			// senders that give up with the receiver. A stream is not
			// counted (more room only delays it), and senders counted at
			// run time keep their own setting, -many.
			return nil
		}
		if set.total.Many && !c.cfg.Many && leave.Pending != waitpath.One && !(leave.Stall && ch.room == 0) {
			// How many run at once is decided by code out of view. (But
			// a loop that takes each sender's value before it starts the
			// next leaves with exactly one out; and waiting for senders
			// of an unbuffered channel strands the first of them.)
			return nil
		}
		if set.total.Many && leave.Pending == waitpath.One && leave.OneOut {
			set.total = waitpath.One // one at a time: one out when it leaves
		}
		out := c.stranded(sc, leave, g)
		if len(out) == 0 && len(leave.Out) > 0 {
			return nil // it strands only a sender that is done
		}
		targets := set.strandedBy(out)
		return c.stranding(ch, i, g, targets, set.ownersOf(targets), leave, set.total, set.starts, set.goroutines > 1)
	}
	if c.cfg.Futures && isFuture(ch, set.total, len(g)) && !trailsStream(sc, i) && !forwardsOther(sc, i) {
		c.checkFuture(fn, ch, i, set.targets)
	}
	return nil
}
