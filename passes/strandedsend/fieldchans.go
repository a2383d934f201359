package strandedsend

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/admitlint/admitlint/internal/match"
	"github.com/admitlint/admitlint/internal/spawn"
	"github.com/admitlint/admitlint/passes/strandedsend/internal/chanuse"
	"github.com/admitlint/admitlint/passes/strandedsend/internal/waitpath"
)

// A fieldChan is what the package does with the channels one unexported
// struct field holds: every use of every load of the field, followed
// into the goroutines and closures it is handed to.
type fieldChan struct {
	field  *types.Var
	makes  []*ssa.MakeChan   // the channels stored in it
	other  bool              // something else is stored in it (a parameter, a copy)
	out    bool              // a load reaches code out of view
	recvs  []ssa.Instruction // receives, select cases included
	leaves []leavingCase     // select cases beside a receive from it that stop the receiving loop
	// receivers holds the uses of the functions that receive from it,
	// one per load (or goroutine handed a load).
	receivers []*chanuse.Uses
	sends     []*ssa.Send       // plain sends on a load of it
	fires     []ssa.Instruction // sends, select cases sending, and closes on a load of it
	// getters are the functions that only return a load of the field
	// (func (c *T) Next() <-chan struct{} { return c.next }): their
	// callers receive from it. escaped: a load reaches code out of view
	// some other way.
	getters []*ssa.Function
	escaped bool
	// started holds, for each send made in a goroutine the load was
	// handed to, the function whose go statement started it.
	started map[*ssa.Send]*ssa.Function
}

// A leavingCase is a case of a select that also receives from the field,
// after which the function returns before it is back at the head of the
// loop around the select (chanuse.CaseEnds).
type leavingCase struct {
	sel  *ssa.Select
	recv int // the case receiving from the field
	at   int // the case that leaves
}

// chanFieldOf returns the channel field fa selects (its address, or its
// value in a struct value) when the package declares it unexported, so
// that nothing outside the package can use it; nil otherwise.
func (c *checker) chanFieldOf(fa ssa.Value) *types.Var {
	var field *types.Var
	switch fa := fa.(type) {
	case *ssa.FieldAddr:
		field = chanuse.FieldOf(fa)
	case *ssa.Field:
		if st, ok := fa.X.Type().Underlying().(*types.Struct); ok && fa.Field < st.NumFields() {
			field = st.Field(fa.Field)
		}
	}
	if field == nil || field.Exported() || field.Pkg() != c.pass.Pkg {
		return nil
	}
	if _, ok := field.Type().Underlying().(*types.Chan); !ok {
		return nil
	}
	return field.Origin()
}

// fieldChans collects, over the package's functions, what happens to
// each unexported channel field.
func (c *checker) fieldChans(funcs []*ssa.Function) []*fieldChan {
	byField := map[*types.Var]*fieldChan{}
	var order []*fieldChan
	get := func(f *types.Var) *fieldChan {
		fc := byField[f]
		if fc == nil {
			fc = &fieldChan{field: f}
			byField[f] = fc
			order = append(order, fc)
		}
		return fc
	}
	for _, fn := range funcs {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				v, ok := instr.(ssa.Value)
				if !ok {
					continue
				}
				if f := c.chanFieldOf(v); f != nil {
					c.fieldUses(get(f), fn, v)
				}
			}
		}
	}
	return order
}

// fieldUses records the uses of v, the address of the field or its value
// taken from a struct value.
func (c *checker) fieldUses(fc *fieldChan, fn *ssa.Function, v ssa.Value) {
	if _, isField := v.(*ssa.Field); isField {
		c.loadUses(fc, fn, v)
		return
	}
	for _, ref := range *v.Referrers() {
		switch ref := ref.(type) {
		case *ssa.UnOp:
			if ref.Op == token.MUL {
				c.loadUses(fc, fn, ref)
				continue
			}
			fc.out, fc.escaped = true, true
		case *ssa.Store:
			if mk, ok := ref.Val.(*ssa.MakeChan); ok {
				fc.makes = append(fc.makes, mk)
			} else if k, ok := ref.Val.(*ssa.Const); !ok || !k.IsNil() {
				fc.other = true
			}
		case *ssa.DebugRef:
		default:
			fc.out, fc.escaped = true, true // &s.ch handed on
		}
	}
}

// loadUses records what fn, and the goroutines and closures it hands the
// channel to, do with a load of the field.
func (c *checker) loadUses(fc *fieldChan, fn *ssa.Function, load ssa.Value) {
	c.traceLoad(fc, chanuse.Trace(fn, []ssa.Value{load}, spawn.Sites(fn)), 0, nil)
}

// traceLoad records the uses u of a load of the field, depth hand-offs
// from the function loading it; goFrom is the function that started the
// goroutine u is in, if any.
func (c *checker) traceLoad(fc *fieldChan, u *chanuse.Uses, depth int, goFrom *ssa.Function) {
	if u.Escape != nil || len(u.Returns)+len(u.FieldStore) > 0 || depth > 2 {
		fc.out = true
		if isGetter(u, depth) {
			fc.getters = append(fc.getters, u.Fn)
		} else {
			fc.escaped = true
		}
		return
	}
	if len(u.Recvs)+len(u.RecvCases) > 0 {
		fc.receivers = append(fc.receivers, u)
	}
	for _, r := range u.Recvs {
		fc.recvs = append(fc.recvs, r)
	}
	for _, rc := range u.RecvCases {
		fc.recvs = append(fc.recvs, rc.Select)
		for i, st := range rc.Select.States {
			if i != rc.Index && !u.Values[st.Chan] && !waitpath.IsNilConst(st.Chan) && chanuse.CaseEnds(rc.Select, i) {
				fc.leaves = append(fc.leaves, leavingCase{sel: rc.Select, recv: rc.Index, at: i})
			}
		}
	}
	fc.sends = append(fc.sends, u.Sends...)
	for _, send := range u.Sends {
		fc.fires = append(fc.fires, send)
	}
	for _, sc := range u.SendCases {
		fc.fires = append(fc.fires, sc.Select)
	}
	for _, cl := range u.Closes {
		fc.fires = append(fc.fires, cl)
	}
	if goFrom != nil {
		if fc.started == nil {
			fc.started = map[*ssa.Send]*ssa.Function{}
		}
		for _, send := range u.Sends {
			fc.started[send] = goFrom
		}
	}
	for _, h := range u.Handoffs {
		if h.Into == nil {
			fc.out, fc.escaped = true, true
			continue
		}
		from := goFrom
		if h.Site != nil && from == nil {
			from = u.Fn
		}
		c.traceLoad(fc, chanuse.TraceHandoff(h, spawn.Sites(h.Fn), nil), depth+1, from)
	}
}

// isGetter reports whether the uses u, of a load of the field in the
// function loading it, only return it.
func isGetter(u *chanuse.Uses, depth int) bool {
	return depth == 0 && u.Escape == nil && len(u.Returns) > 0 &&
		len(u.FieldStore)+len(u.Recvs)+len(u.RecvCases)+len(u.Sends)+len(u.SendCases)+len(u.Closes)+len(u.Handoffs)+len(u.Calls) == 0
}

// unbuffered reports whether every channel the package stores in the
// field is made unbuffered, and nothing else is stored there.
func (fc *fieldChan) unbuffered() bool {
	if fc.other || len(fc.makes) == 0 {
		return false
	}
	for _, mk := range fc.makes {
		if n, ok := match.ChanCap(mk); !ok || n != 0 {
			return false
		}
	}
	return true
}

// checkFieldChans reports, for unexported channel fields made
// unbuffered whose every use is in view, the plain sends nothing can
// take: nothing in the package receives from the field at all, or the
// loops that receive from it can return while other functions still
// send. (Only with -strandedsend.fields.)
func (c *checker) checkFieldChans(funcs []*ssa.Function) {
	for _, fc := range c.fieldChans(funcs) {
		if fc.out && !fc.escaped && len(fc.getters) > 0 && fc.unbuffered() {
			c.checkFieldFuture(fc)
			continue
		}
		if fc.out || len(fc.sends) == 0 {
			continue
		}
		if fc.unbuffered() {
			fc.recvs = append(fc.recvs, makerRecvs(fc)...)
			switch {
			case len(fc.recvs) == 0:
				c.reportNeverReceived(fc)
				continue
			case len(c.inView(fc.leaves)) > 0:
				c.reportLoopLeft(fc)
				continue
			}
		}
		if loop, stop := c.streamStopped(fc); loop != nil {
			c.reportStreamStopped(fc, loop, stop)
		}
	}
}

// makerRecvs returns the receives that the functions making the field's
// channels make on them directly, not through the field: a request built
// with a reply channel (reply := make(chan T); req.reply = reply) whose
// maker then waits on reply, or a constructor that hands the channel it
// stores to the goroutine receiving from it (go loop(ch)). Its select's
// other cases are left to the request/reply rule, which reports them by
// default.
func makerRecvs(fc *fieldChan) []ssa.Instruction {
	var recvs []ssa.Instruction
	for _, mk := range fc.makes {
		fn := mk.Parent()
		recvs = append(recvs, handedRecvs(chanuse.Trace(fn, []ssa.Value{mk}, spawn.Sites(fn)), 0)...)
	}
	return recvs
}

// handedRecvs returns the receives among uses u, and those of the
// goroutines and closures the channel is handed to, two hand-offs deep.
// Where the channel goes out of view (passed to a call, stored where the
// trace stops, returned to the callers), or deeper, the instruction that
// lets it go counts as a receive: code there may take from it.
func handedRecvs(u *chanuse.Uses, depth int) []ssa.Instruction {
	var recvs []ssa.Instruction
	for _, r := range u.Recvs {
		recvs = append(recvs, r)
	}
	for _, rc := range u.RecvCases {
		recvs = append(recvs, rc.Select)
	}
	if u.Escape != nil {
		recvs = append(recvs, u.Escape)
	}
	for _, ret := range u.Returns {
		recvs = append(recvs, ret) // the callers take it (validation set 23, m3's lexer)
	}
	for _, h := range u.Handoffs {
		if h.Into == nil || depth >= 2 {
			recvs = append(recvs, h.Instr)
			continue
		}
		recvs = append(recvs, handedRecvs(chanuse.TraceHandoff(h, spawn.Sites(h.Fn), nil), depth+1)...)
	}
	return recvs
}

// reportNeverReceived reports the first send on a field nothing receives
// from, the others related.
func (c *checker) reportNeverReceived(fc *fieldChan) {
	if c.receivedOutOfView(fc.field.Name()) {
		return
	}
	first := fc.sends[0]
	msg := fmt.Sprintf("send on unbuffered %s blocks forever: nothing in package %s receives from %s; %s — receive from it, or do not send",
		c.chanText(first.Pos(), fc.field.Name()), c.pass.Pkg.Name(), fc.field.Name(), c.stuck(first.Parent()))
	related := []analysis.RelatedInformation{{Pos: c.makePos(fc.makes[0]), Message: fc.field.Name() + " is made here, unbuffered"}}
	c.reportSends(fc.sends, msg, related)
}

// reportLoopLeft reports the plain sends on a field whose receiving loop
// can return, made by other functions: other methods, or goroutines the
// loop's function starts.
func (c *checker) reportLoopLeft(fc *fieldChan) {
	leave := c.inView(fc.leaves)[0]
	loop := leave.sel.Parent()
	var sends []*ssa.Send
	for _, s := range fc.sends {
		if s.Parent() != loop { // the loop's own sends are another bug
			sends = append(sends, s)
		}
	}
	if len(sends) == 0 {
		return
	}
	where, at := waitpath.Describe(c.pass.Fset, c.pass.Files, &waitpath.Leave{At: leave.sel, Case: &chanuse.Case{Select: leave.sel, Index: leave.at}})
	msg := fmt.Sprintf("send on unbuffered %s blocks forever once %s has stopped receiving (%s); %s — select on the same signal as well",
		c.chanText(sends[0].Pos(), fc.field.Name()), loopName(loop, c.pass.Pkg), where, c.stuck(sends[0].Parent()))
	related := []analysis.RelatedInformation{
		{Pos: at, Message: "the receiving loop can leave here"},
		{Pos: c.makePos(fc.makes[0]), Message: fc.field.Name() + " is made here, unbuffered"},
	}
	c.reportSends(sends, msg, related)
}

// stuck says who waits forever at a plain send fn makes on a field: the
// goroutine fn runs in, when the package starts fn in one, else whoever
// calls fn (a method's callers may be in any importing package).
func (c *checker) stuck(fn *ssa.Function) string {
	for _, f := range c.funcs {
		for _, site := range spawn.Sites(f) {
			if site.Fn == fn {
				return "the goroutine leaks"
			}
		}
	}
	return "the caller of " + loopName(fn, c.pass.Pkg) + " blocks with it"
}

// inView returns the leaving cases the settings let count: those of
// test code only with -strandedsend.tests, as for channels a function
// makes (a test's exits follow what it expects).
func (c *checker) inView(leaves []leavingCase) []leavingCase {
	var kept []leavingCase
	for _, l := range leaves {
		fn := l.sel.Parent()
		if c.cfg.Tests || !c.inTestCode(fn, fn.Pos()) {
			kept = append(kept, l)
		}
	}
	return kept
}

// reportSends reports the first of sends, with the others related.
func (c *checker) reportSends(sends []*ssa.Send, msg string, related []analysis.RelatedInformation) {
	slices.SortFunc(sends, func(a, b *ssa.Send) int { return int(a.Pos() - b.Pos()) })
	for _, o := range sends[1:] {
		if !c.reported[o.Pos()] {
			c.reported[o.Pos()] = true
			related = append(related, analysis.RelatedInformation{Pos: o.Pos(), End: c.sendEnd(o.Pos()), Message: "this send blocks too"})
		}
	}
	c.reportAt(sends[0].Pos(), sends[0].Pos(), msg, nil, related...)
}

// receivedOutOfView reports whether files of the package that this
// analysis does not see may use the field name: files left out by build
// constraints, or the package's own _test.go files when this is not its
// test variant. Any use there other than a send is taken to receive.
func (c *checker) receivedOutOfView(name string) bool {
	files := append(slices.Clone(c.pass.IgnoredFiles), c.unseenTests()...)
	return slices.ContainsFunc(files, func(file string) bool {
		f := c.parseOwn(file, name)
		return f != nil && usesOtherThanSend(f, name)
	})
}

// unseenTests returns the package's _test.go files when this is not its
// test variant.
func (c *checker) unseenTests() []string {
	if len(c.pass.Files) == 0 || slices.ContainsFunc(c.pass.Files, func(f *ast.File) bool { return c.inTest(f.Pos()) }) {
		return nil
	}
	dir := filepath.Dir(c.pass.Fset.File(c.pass.Files[0].Pos()).Name())
	tests, _ := filepath.Glob(filepath.Join(dir, "*_test.go"))
	return tests
}

// parseOwn parses file if it mentions name and belongs to the package
// (not an external test package); nil otherwise.
func (c *checker) parseOwn(file, name string) *ast.File {
	src, err := os.ReadFile(file)
	if err != nil || !strings.Contains(string(src), name) {
		return nil
	}
	f, err := parser.ParseFile(token.NewFileSet(), file, src, parser.SkipObjectResolution)
	if err != nil || f.Name.Name != c.pass.Pkg.Name() {
		return nil
	}
	return f
}

// selects reports whether f selects a field or method named name.
func selects(f *ast.File, name string) bool {
	found := false
	ast.Inspect(f, func(n ast.Node) bool {
		if sel, ok := n.(*ast.SelectorExpr); ok && sel.Sel.Name == name {
			found = true
		}
		return !found
	})
	return found
}

// usesOtherThanSend reports whether f selects a field or method named
// name anywhere but as the channel of a send statement.
func usesOtherThanSend(f *ast.File, name string) bool {
	sent := map[ast.Expr]bool{}
	found := false
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.SendStmt:
			sent[ast.Unparen(n.Chan)] = true
		case *ast.SelectorExpr:
			if n.Sel.Name == name && !sent[n] {
				found = true
			}
		}
		return !found
	})
	return found
}
