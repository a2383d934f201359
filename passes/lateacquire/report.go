package lateacquire

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/astutil"
	"golang.org/x/tools/go/ssa"

	"github.com/admitlint/admitlint/internal/spawn"
	"github.com/admitlint/admitlint/internal/ssacfg"
)

// report reports act a of the goroutine site starts, which runs once per
// unit.
func (c *checker) report(site spawn.Site, sp *spawner, a act, unit string) {
	node, sem, cancel := c.acquireSyntax(a)
	if node == nil {
		return // no syntax to point at (generated code)
	}
	spawnNode := c.spawnSyntax(site, sp)
	start := "the go statement"
	if site.Kind != spawn.GoStmt {
		start = c.goCallName(spawnNode)
	}
	hint := "acquire before " + start
	if site.Kind == spawn.ErrgroupGo {
		hint += ", or limit the group with SetLimit"
	}
	wait := "waits on " + sem
	if a.wrapper {
		wait = "waits in " + sem
	}
	if cancel != "" {
		wait += " or " + cancel
	}
	parks := "parks"
	if a.sel {
		parks = "still parks" // giving up on ctx.Done() ends a wait, not the goroutine's creation
	}
	// An acquire in a function the goroutine calls is reported at the
	// goroutine's call: that is the line to change, and the function may
	// have other callers that are right to wait in it.
	at := node
	var related []analysis.RelatedInformation
	if call := c.callInGoroutine(site, a); call != nil {
		at = call
		wait += " in " + types.ExprString(call.Fun)
		related = append(related, analysis.RelatedInformation{Pos: node.Pos(), End: node.End(), Message: "the acquire"})
	}
	format := func(units string) string {
		return fmt.Sprintf("goroutine %s before doing any work; one goroutine %s per %s — %s", wait, parks, units, hint)
	}
	if a.try {
		format = func(units string) string {
			return fmt.Sprintf("goroutine tries %s only after it has started; one goroutine is created per %s even when refused — try before %s",
				sem, units, start)
		}
	}
	d := analysis.Diagnostic{Pos: at.Pos(), End: at.End(), Message: format(unit), Related: related}
	if spawnNode != nil {
		d.Related = append(d.Related, analysis.RelatedInformation{Pos: spawnNode.Pos(), End: spawnNode.End(), Message: "goroutine started here"})
	}
	if lock := c.heldLock(site, a); lock != nil {
		// Moved before the spawn, a blocking acquire would wait with the
		// lock held, stalling everyone else who takes it (and the
		// goroutines holding permits, if they need it too): no fix.
		d.Related = append(d.Related, *lock)
	} else if nested := c.reentered(site, a); nested != nil {
		d.Related = append(d.Related, *nested)
	} else if !runnerForOthers(site) {
		d.SuggestedFixes = c.hoist(site, a, node, spawnNode, sem, start)
	}
	c.findings.add(d, unit, format)
}

// heldLock returns, as a related position, the Lock call of a mutex the
// spawning function still holds at the spawn of site (c.mu.Lock(); defer
// c.mu.Unlock(); for … { go … }), when a is a blocking acquire; nil
// otherwise. A try does not wait, and trying under the lock before the
// spawn is the right shape.
func (c *checker) heldLock(site spawn.Site, a act) *analysis.RelatedInformation {
	if a.try {
		return nil
	}
	lock := ssacfg.HeldAt(site.Instr)
	if lock == nil {
		return nil
	}
	rel := &analysis.RelatedInformation{Pos: lock.Pos()}
	mu := "a mutex"
	if call := c.callExprAt(lock.Pos()); call != nil {
		rel.Pos, rel.End = call.Pos(), call.End()
		if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok {
			mu = types.ExprString(sel.X)
		}
	}
	rel.Message = mu + " is locked here and still held at the spawn: acquire once it is unlocked, or try without waiting"
	return rel
}

// reentered returns, as a related position, a call of the function
// that spawns site made inside a function literal handed to that same
// function (t.Go(func() { … t.Go(…) … })), when a is a blocking acquire:
// tasks that start more tasks. Moved before the spawn, the acquire
// would wait in a task holding a permit, and tasks all waiting so never
// finish: no fix. Nil otherwise.
func (c *checker) reentered(site spawn.Site, a act) *analysis.RelatedInformation {
	spawner := site.Instr.Parent()
	if a.try || spawner.Parent() != nil {
		return nil
	}
	for _, fn := range c.srcFuncs {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				call, ok := instr.(ssa.CallInstruction)
				if !ok || call.Common().StaticCallee() != spawner || !c.insideTaskOf(fn, spawner) {
					continue
				}
				return &analysis.RelatedInformation{Pos: call.Pos(), End: call.Pos(),
					Message: "a task started through " + spawner.Name() + " starts more here: acquired before the spawn, it would wait holding a permit"}
			}
		}
	}
	return nil
}

// runnerForOthers reports whether the goroutine of site runs a task
// given to an exported spawner (see runsTaskParam): whether other
// packages' tasks start more tasks is out of view, and the hoist is safe
// only if they do not, so it is not offered.
func runnerForOthers(site spawn.Site) bool {
	obj := site.Instr.Parent().Object()
	return obj != nil && obj.Exported() && runsTaskParam(site)
}

// runsTaskParam reports whether the goroutine of site calls a function
// its spawner was given as a parameter: it runs the caller's task.
func runsTaskParam(site spawn.Site) bool {
	if site.Fn == nil {
		return false
	}
	for _, b := range site.Fn.Blocks {
		for _, instr := range b.Instrs {
			call, ok := instr.(ssa.CallInstruction)
			if !ok {
				continue
			}
			if isParam(boundValue(site, call.Common().Value), site.Instr.Parent()) {
				return true
			}
		}
	}
	return false
}

// boundValue returns what v, in the goroutine's function, is in its
// spawner: the value a free variable captures, or, for a load of a
// captured variable, the variable.
func boundValue(site spawn.Site, v ssa.Value) ssa.Value {
	load, isLoad := v.(*ssa.UnOp)
	if isLoad && load.Op == token.MUL {
		v = load.X
	}
	fv, ok := v.(*ssa.FreeVar)
	if !ok {
		return nil
	}
	i := slices.Index(site.Fn.FreeVars, fv)
	if i < 0 || i >= len(site.Bindings) {
		return nil
	}
	b := site.Bindings[i]
	if _, cell := b.(*ssa.Alloc); cell != isLoad {
		return nil
	}
	return b
}

// isParam reports whether v is a parameter of fn, or a variable of fn
// holding one: stored once, from the parameter.
func isParam(v ssa.Value, fn *ssa.Function) bool {
	switch v := v.(type) {
	case *ssa.Parameter:
		return v.Parent() == fn
	case *ssa.Alloc:
		stores := 0
		from := false
		for _, ref := range *v.Referrers() {
			if st, ok := ref.(*ssa.Store); ok && st.Addr == v {
				stores++
				p, ok := st.Val.(*ssa.Parameter)
				from = ok && p.Parent() == fn
			}
		}
		return stores == 1 && from
	}
	return false
}

// insideTaskOf reports whether fn is, or is nested in, a function
// literal passed as an argument to a call of spawner.
func (c *checker) insideTaskOf(fn, spawner *ssa.Function) bool {
	for ; fn.Parent() != nil; fn = fn.Parent() {
		mc := c.closureOf(fn)
		if mc == nil {
			continue
		}
		for _, ref := range *mc.Referrers() {
			call, ok := ref.(ssa.CallInstruction)
			if ok && call.Common().StaticCallee() == spawner && slices.Contains(call.Common().Args, ssa.Value(mc)) {
				return true
			}
		}
	}
	return false
}

// A finding is one report before it is printed: an acquire that several
// spawns reach (one closure started by two loops) is one cause, with one
// fix, so its reports are merged into one.
type finding struct {
	d      analysis.Diagnostic
	units  []string
	format func(units string) string
}

// findings holds a package's findings, merged by cause, in the order they
// were first found.
type findings struct {
	list  []*finding
	index map[string]*finding // key: position and message with the unit left out
}

// add records d, the report of an acquire for one spawn, whose message is
// format(unit). A report of the same acquire with the same message but
// for another spawn is merged into the first: its unit joins the message
// and its spawn the related positions; a merged report has no fix, as
// each spawn's fix alone would leave the others waiting.
func (fs *findings) add(d analysis.Diagnostic, unit string, format func(string) string) {
	key := fmt.Sprintf("%d %s", d.Pos, format("\x00"))
	f, ok := fs.index[key]
	if !ok {
		if fs.index == nil {
			fs.index = make(map[string]*finding)
		}
		f = &finding{d: d, units: []string{unit}, format: format}
		fs.index[key] = f
		fs.list = append(fs.list, f)
		return
	}
	if !slices.Contains(f.units, unit) {
		f.units = append(f.units, unit)
	}
	for _, r := range d.Related {
		if !slices.ContainsFunc(f.d.Related, func(o analysis.RelatedInformation) bool { return o.Pos == r.Pos }) {
			f.d.Related = append(f.d.Related, r)
		}
	}
	f.d.SuggestedFixes = nil
}

// flush reports every finding.
func (fs *findings) flush(pass *analysis.Pass) {
	for _, f := range fs.list {
		f.d.Message = f.format(strings.Join(f.units, " and per "))
		pass.Report(f.d)
	}
}

// callInGoroutine returns the call, in the goroutine's own function, of
// the function that holds act a, or nil if a is in the goroutine's own
// function.
func (c *checker) callInGoroutine(site spawn.Site, a act) *ast.CallExpr {
	f := a.fr
	if f.via == site.Instr {
		return nil
	}
	for f.parent != nil && f.parent.via != site.Instr {
		f = f.parent
	}
	if path := c.pathAt(f.via.Pos()); len(path) > 0 {
		if call, ok := path[0].(*ast.CallExpr); ok {
			return call
		}
	}
	return nil
}

// acquireSyntax returns the syntax of act a (the send, the receive or the
// call; for a select, its acquiring case), the semaphore as written (the
// channel, the receiver of Acquire or Wait, or a wrapper's function), and,
// for a select that can give up, the channel it gives up on.
func (c *checker) acquireSyntax(a act) (node ast.Node, sem, cancel string) {
	pos := a.instr.Pos()
	var other token.Pos
	if sel, ok := a.instr.(*ssa.Select); ok {
		pos = sel.States[a.state].Pos
		for i, st := range sel.States {
			if i != a.state && a.sel {
				other = st.Pos
				break
			}
		}
	}
	path := c.pathAt(pos)
	if len(path) == 0 {
		return nil, "", ""
	}
	switch n := path[0].(type) {
	case *ast.SendStmt:
		node, sem = n, types.ExprString(n.Chan)
	case *ast.UnaryExpr:
		node, sem = n, types.ExprString(n.X)
	case *ast.CallExpr:
		node, sem = n, types.ExprString(n.Fun)
		if sel, ok := ast.Unparen(n.Fun).(*ast.SelectorExpr); ok && !a.wrapper {
			sem = types.ExprString(sel.X) // sem.Acquire: the semaphore is sem
		}
	default:
		return nil, "", ""
	}
	if p := c.pathAt(other); len(p) > 0 {
		if recv, ok := p[0].(*ast.UnaryExpr); ok {
			cancel = types.ExprString(recv.X)
		}
	}
	return node, sem, cancel
}

// spawnSyntax returns the go statement or the Go call that starts site.
func (c *checker) spawnSyntax(site spawn.Site, sp *spawner) ast.Node {
	for _, n := range sp.path {
		switch n := n.(type) {
		case *ast.GoStmt:
			if site.Kind == spawn.GoStmt {
				return n
			}
		case *ast.CallExpr:
			if site.Kind != spawn.GoStmt && n.Lparen == site.Instr.Pos() {
				return n
			}
		}
	}
	return nil
}

// goCallName returns the method expression of a Go call as written: g.Go.
func (c *checker) goCallName(n ast.Node) string {
	if call, ok := n.(*ast.CallExpr); ok {
		return types.ExprString(call.Fun)
	}
	return "Go"
}

// pathAt returns the syntax enclosing pos, innermost first.
func (c *checker) pathAt(pos token.Pos) []ast.Node {
	file := c.fileOf(pos)
	if file == nil {
		return nil
	}
	path, _ := astutil.PathEnclosingInterval(file, pos, pos)
	return path
}

// fileOf returns the file of the package that contains pos, or nil.
func (c *checker) fileOf(pos token.Pos) *ast.File {
	if !pos.IsValid() {
		return nil
	}
	for _, f := range c.pass.Files {
		if f.FileStart <= pos && pos <= f.FileEnd {
			return f
		}
	}
	return nil
}

// callExprAt returns the call expression whose opening parenthesis is at
// pos (an ssa.Call's position), or nil.
func (c *checker) callExprAt(pos token.Pos) *ast.CallExpr {
	for _, n := range c.pathAt(pos) {
		if call, ok := n.(*ast.CallExpr); ok && call.Lparen == pos {
			return call
		}
	}
	return nil
}
