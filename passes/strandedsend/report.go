package strandedsend

import (
	"cmp"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/astutil"
	"golang.org/x/tools/go/ssa"

	"github.com/admitlint/admitlint/internal/match"
	"github.com/admitlint/admitlint/passes/strandedsend/internal/waitpath"
)

// A stranding is the sends on one channel that a leave of the receiver
// strands, found and not yet reported.
type stranding struct {
	ch      *channel
	i       int               // the channel's index in its scope
	group   []int             // the channels its senders send on instead of it (see group)
	targets []*op             // the sends stranded, the first one reported
	owners  []ssa.Instruction // the spawn sites of their senders
	leave   *waitpath.Leave
	where   string    // the leave, described
	at      token.Pos // where the leave is
	total   waitpath.Count
	starts  []waitpath.Start
	many    bool // several goroutines send
}

// stranding returns the stranding of targets, the sends on channel i, by
// leave, with total values sent by starts.
func (c *checker) stranding(ch *channel, i int, g []int, targets []*op, owners []ssa.Instruction, leave *waitpath.Leave, total waitpath.Count, starts []waitpath.Start, many bool) *stranding {
	where, at := waitpath.Describe(c.pass.Fset, c.pass.Files, leave)
	return &stranding{ch: ch, i: i, group: g, targets: targets, owners: owners, leave: leave,
		where: where, at: at, total: total, starts: starts, many: many}
}

// oneCause groups the strandings of one function by cause. The channels
// of one group (a goroutine sends its result on one, or its error on the
// other) that one leave strands in the same goroutines are one leak: one
// report, whose fix makes room on each of them.
func oneCause(found []*stranding) [][]*stranding {
	var causes [][]*stranding
	covered := map[ssa.Instruction]bool{}
	for _, s := range found {
		if coveredBy(s, covered) {
			// A select whose cases send on both: it is reported at its
			// first stranded case, and room on that one channel frees it.
			continue
		}
		k := slices.IndexFunc(causes, func(cause []*stranding) bool { return sameCause(cause[0], s) })
		if k < 0 {
			causes = append(causes, []*stranding{s})
			continue
		}
		causes[k] = append(causes[k], s)
	}
	for _, cause := range causes {
		slices.SortStableFunc(cause, func(a, b *stranding) int {
			return cmp.Compare(a.targets[0].pos[a.i], b.targets[0].pos[b.i])
		})
	}
	return causes
}

// coveredBy reports whether every send of s is an operation of a
// stranding already grouped (a select's other case), and adds those of s.
func coveredBy(s *stranding, covered map[ssa.Instruction]bool) bool {
	all := true
	for _, o := range s.targets {
		_, isSelect := o.instr.(*ssa.Select)
		all = all && isSelect && covered[o.instr]
	}
	for _, o := range s.targets {
		covered[o.instr] = true
	}
	return all
}

// sameCause reports whether a and b strand the same goroutines by the
// same leave, on channels of one group, with the same room and count:
// one message can say what happens on both.
func sameCause(a, b *stranding) bool {
	return slices.Contains(a.group, b.i) && a.where == b.where && a.leave.Stall == b.leave.Stall &&
		a.leave.Pending == b.leave.Pending && slices.Equal(a.owners, b.owners) &&
		a.ch.room == b.ch.room && a.total == b.total && a.many == b.many
}

// reportLeave reports the sends of one cause, the strandings of the
// channels one leave of the receiver strands: one finding, at the first
// send, the others related to it.
func (c *checker) reportLeave(cause []*stranding) {
	s := cause[0]
	ch, i, leave, total, where := s.ch, s.i, s.leave, s.total, s.where
	leak := "the goroutine leaks"
	if s.many {
		leak = "goroutines leak"
	}
	var names []string
	for _, t := range cause {
		names = append(names, c.madeName(t.ch.mk))
	}
	made := joinAnd(names)
	o := s.targets[0]
	name := c.opText(o, i, names[0])
	if len(cause) > 1 {
		var alt []string
		for _, t := range cause[1:] {
			alt = append(alt, c.opText(t.targets[0], t.i, c.madeName(t.ch.mk)))
		}
		name += " (or " + joinAnd(alt) + ")"
	}
	// The values the message counts: those the senders started on the
	// leave's way set going, when fewer than all (a second goroutine
	// started after the leave). The fix still makes room for all.
	sent := total
	if p := leave.Pending; p.Constant() && total.Constant() && p.N > 0 && p.N < total.N {
		sent = p
	}
	var msg string
	var fixes []analysis.SuggestedFix
	mu, locked := "", false
	if leave.Stall {
		mu, locked = lockedBy(leave.At, where)
	}
	switch {
	case leave.Stall:
		hint := "receive before waiting"
		if !leave.Pending.Stream && !leave.Pending.Many && leave.Pending.Expr == "" {
			hint += ", or " + capacityHint(made, len(cause), leave.Pending.String())
			fixes = c.capacityFixes(cause, made)
		}
		msg = fmt.Sprintf("send on %s%s blocks forever: %s waits for its senders (%s) before receiving what they send; they wait for each other — %s",
			unbuffered(ch.room), name, loopName(ch.mk.Parent(), c.pass.Pkg), where, hint)
		if locked {
			hint = strings.Replace(hint, "receive before waiting", "unlock "+mu+" before sending", 1)
			msg = fmt.Sprintf("send on %s%s blocks forever when its sender takes %s first: %s locks %s (%s) before receiving, and the sender holds it while it sends; they wait for each other — %s",
				unbuffered(ch.room), name, mu, loopName(ch.mk.Parent(), c.pass.Pkg), mu, where, hint)
		}
	case streams(leave, s.starts):
		// A stream, or one value a round: more room only delays it.
		msg = fmt.Sprintf("send on %s blocks forever once the receiver stops receiving (%s); the goroutine leaks — select on ctx.Done() or a done channel as well",
			name, where)
	case sent.Many && leave.Pending == waitpath.One && !leave.OneOut:
		// The way out found strands one, but others may be out by then
		// (senders a loop starts, besides this one): no capacity written
		// at the make holds them all (validation sets 24 and 25,
		// swarmkit's agent and regclient's image copy).
		msg = fmt.Sprintf("send on %s%s blocks forever once the receiver leaves (%s); %s, as many as have not sent — select on ctx.Done() or a done channel as well",
			unbuffered(ch.room), name, where, leak)
	case sent == waitpath.One:
		or := ""
		if leave.IsDone() {
			or = " or select on ctx.Done()"
		}
		if ch.held {
			// A channel in a struct, as a request's reply field: named
			// as its requester names it (see reportLocalReply).
			or = " in " + loopName(ch.mk.Parent(), c.pass.Pkg)
		}
		msg = fmt.Sprintf("send on %s%s blocks forever once the receiver leaves (%s); the goroutine leaks — make %s buffered%s",
			unbuffered(ch.room), name, where, made, or)
		fixes = c.capacityFixes(cause, made)
	default:
		hint := fmt.Sprintf("buffer %s for every sender", made)
		if n, ok := total.Source(); ok {
			hint = capacityHint(made, len(cause), n)
		}
		got := fmt.Sprintf("after %d of", leave.Recvd)
		if leave.Recvd == 0 {
			got = "before any of"
		}
		msg = fmt.Sprintf("send on %s blocks forever once the receiver leaves (%s) %s %s values, with room for %d; %s — %s",
			name, where, got, sent, ch.room, leak, hint)
		fixes = c.capacityFixes(cause, made)
		if len(cause) == 1 && !s.many && sent.Constant() && len(fixes) > 0 {
			fixes = append(fixes, c.returnFix(s.targets, i, leave.Recvd, ch.room)...)
		}
	}
	stop := "the receiver can leave here"
	switch {
	case locked:
		stop = "the receiver waits for " + mu + " here"
	case leave.Stall:
		stop = "the receiver waits for its senders here"
	}
	related := []analysis.RelatedInformation{{Pos: s.at, Message: stop}}
	if locked {
		if at := senderLock(s.targets[0].instr); at.IsValid() {
			related = append(related, analysis.RelatedInformation{Pos: at, Message: "the sender locks " + mu + " here and holds it while it sends"})
		}
	}
	for k, t := range cause {
		related = append(related, c.madeHere(t.ch, names[k]))
	}
	if o.via != nil && o.via.Pos.IsValid() {
		related = append(related, analysis.RelatedInformation{Pos: o.via.Pos, Message: "the helper sends here"})
	}
	others := sendsOn(s.targets[1:], i)
	for _, t := range cause[1:] {
		others = append(others, sendsOn(t.targets, t.i)...)
	}
	fn := ch.mk.Parent()
	room := bufferFix{made: made, fixes: fixes}
	room.capacity, _ = cause[0].total.Source()
	if c.reported[o.instr.Pos()] {
		c.alsoStrands(o, fn, s, cause, names, others, room)
		return
	}
	if c.report(o, i, others, msg, fixes, related...) && !leave.Stall {
		var chans []*channel
		for _, t := range cause {
			chans = append(chans, t.ch)
		}
		c.leaves[o.instr.Pos()] = leaveFinding{at: len(c.out) - 1, fn: fn, room: room, chans: chans}
	}
}

// inRounds reports whether the start's senders send one value a round
// (waitpath.Start.Rounds): a stream paced by the receiver.
func inRounds(s waitpath.Start) bool { return len(s.Rounds) > 0 }

// A leaveFinding is a finding of a receiver's leave: its index in the
// findings, the function whose receiver leaves, and the room its fix
// makes.
type leaveFinding struct {
	at    int
	fn    *ssa.Function
	room  bufferFix
	chans []*channel // the channels whose stranding it reports
}

// A bufferFix is the fix of a leave's finding, as what it buffers: the
// channels made (as the message names them), the capacity it gives
// them, and its edits (none when the capacity cannot be written).
type bufferFix struct {
	made, capacity string
	fixes          []analysis.SuggestedFix
}

// alsoStrands adds to the finding of another function's leave at o (a
// send of a helper or a goroutine function both start) what this
// cause's leave, made by fn, adds: where it leaves, its channels' makes,
// its other sends, and room on its channels in the fix. The send is
// reported once, with every receiver that strands it.
func (c *checker) alsoStrands(o *op, fn *ssa.Function, s *stranding, cause []*stranding, names []string, others []sendOn, room bufferFix) {
	f, ok := c.leaves[o.instr.Pos()]
	if !ok || s.leave.Stall {
		return
	}
	leaves := fmt.Sprintf("the receiver in %s can leave here too", loopName(fn, c.pass.Pkg))
	if f.fn == fn {
		// A helper's send, made for two channels of the function (two
		// goroutines run it, each given its own): the other channel,
		// stranded by another leave, needs room too.
		if slices.Contains(f.chans, s.ch) {
			return
		}
		leaves = "the receiver can leave here too"
	}
	f.chans = append(f.chans, s.ch)
	c.leaves[o.instr.Pos()] = f
	d := &c.out[f.at]
	if !slices.ContainsFunc(d.Related, func(r analysis.RelatedInformation) bool { return r.Pos == s.at }) {
		d.Related = append(d.Related, analysis.RelatedInformation{Pos: s.at, Message: leaves})
	}
	for k, t := range cause {
		d.Related = append(d.Related, c.madeHere(t.ch, names[k]))
	}
	for _, x := range others {
		if key := x.op.instr.Pos(); !c.reported[key] {
			c.reported[key] = true
			at := x.op.pos[x.i]
			d.Related = append(d.Related, analysis.RelatedInformation{Pos: at, End: c.sendEnd(at), Message: "this send blocks too"})
		}
	}
	if merged, ok := f.room.merge(room); ok {
		d.SuggestedFixes = merged.fixes
		f.room = merged
		c.leaves[o.instr.Pos()] = f
	}
}

// merge returns fix a also buffering the channels of fix b, when both
// give the same capacity: one fix for every receiver that strands the
// send. It reports false when they cannot be one.
func (a bufferFix) merge(b bufferFix) (bufferFix, bool) {
	if len(a.fixes) != 1 || len(b.fixes) != 1 || a.capacity == "" || a.capacity != b.capacity {
		return a, false
	}
	made := a.made
	if b.made != a.made {
		made = a.made + " and " + b.made
	}
	edits := slices.Clone(a.fixes[0].TextEdits)
	for _, e := range b.fixes[0].TextEdits {
		if !slices.ContainsFunc(edits, func(x analysis.TextEdit) bool { return x.Pos == e.Pos }) {
			edits = append(edits, e)
		}
	}
	fix := analysis.SuggestedFix{Message: fmt.Sprintf("Buffer %s with capacity %s", made, a.capacity), TextEdits: edits}
	return bufferFix{made: made, capacity: a.capacity, fixes: []analysis.SuggestedFix{fix}}, true
}

// lockedBy returns the mutex a stalling call at locks, as the source
// names it (c.mu, from where, "c.mu.Lock() at x.go:18"), if at locks one.
func lockedBy(at ssa.Instruction, where string) (string, bool) {
	call, ok := at.(*ssa.Call)
	if !ok {
		return "", false
	}
	fn := match.Callee(call)
	text, _, _ := strings.Cut(where, " at ")
	if isLock, _ := match.MutexLock(fn); isLock {
		mu, ok := strings.CutSuffix(text, "."+fn.Name()+"()")
		return mu, ok && mu != ""
	}
	// A method that locks first thing (c.size() locking c.mu): the
	// receiver as written, and the field it locks.
	k, _, param, ok := locksFirst(call)
	if !ok || fn == nil || fn.Signature().Recv() == nil || param != 0 {
		return "", false
	}
	recv, _, found := strings.Cut(text, "."+fn.Name()+"(")
	t := fn.Signature().Recv().Type()
	if ptr, isPtr := t.Underlying().(*types.Pointer); isPtr {
		t = ptr.Elem()
	}
	st, isStruct := t.Underlying().(*types.Struct)
	if !found || recv == "" || !isStruct || k.Field >= st.NumFields() {
		return "", false
	}
	return recv + "." + st.Field(k.Field).Name(), true
}

// joinAnd joins names as a list in prose: "a", "a and b", "a, b and c".
func joinAnd(names []string) string {
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}

// capacityHint says to give the channels made (n of them) capacity text.
func capacityHint(made string, n int, text string) string {
	if n > 1 {
		return fmt.Sprintf("make the capacity of %s %s", made, text)
	}
	return fmt.Sprintf("make %s's capacity %s", made, text)
}

// capacityFixes returns one fix that makes room on every channel of the
// cause, when each one's room can be written at its make: a fix for some
// of them only would leave the leak in place.
func (c *checker) capacityFixes(cause []*stranding, made string) []analysis.SuggestedFix {
	var all analysis.SuggestedFix
	for _, t := range cause {
		fix := c.capacityFix(t.ch, c.madeName(t.ch.mk), t.total, t.starts)
		if fix == nil {
			return nil
		}
		all.TextEdits = append(all.TextEdits, fix[0].TextEdits...)
		all.Message = fix[0].Message
	}
	if len(cause) > 1 {
		text, _ := cause[0].total.Source()
		all.Message = fmt.Sprintf("Buffer %s with capacity %s", made, text)
	}
	return []analysis.SuggestedFix{all}
}

// reportFuture reports the sends that feed a future fn returns, whose
// callers are not all in view.
func (c *checker) reportFuture(fn *ssa.Function, ch *channel, i int, targets []*op) {
	made := c.madeName(ch.mk)
	caller := "its caller"
	if fn.Parent() == nil {
		caller = "the caller of " + fn.Name()
	}
	o := targets[0]
	msg := fmt.Sprintf("send on unbuffered %s blocks forever if %s stops waiting for the result; the goroutine leaks — make %s buffered",
		c.opText(o, i, made), caller, made)
	c.report(o, i, sendsOn(targets[1:], i), msg, c.capacityFix(ch, made, waitpath.One, nil),
		analysis.RelatedInformation{Pos: c.makePos(ch.mk), Message: made + " is made here, unbuffered, and returned"})
}

// A sendOn is a send operation and the channel (its index) it sends on.
type sendOn struct {
	op *op
	i  int
}

// sendsOn pairs each of ops with channel i.
func sendsOn(ops []*op, i int) []sendOn {
	out := make([]sendOn, len(ops))
	for k, o := range ops {
		out[k] = sendOn{o, i}
	}
	return out
}

// report reports the send operation o on channel i, once per
// operation and package, with the other operations the same cause
// strands as related positions (a select reports one of its cases). It
// reports whether it added the finding.
func (c *checker) report(o *op, i int, others []sendOn, msg string, fixes []analysis.SuggestedFix, related ...analysis.RelatedInformation) bool {
	if !o.instr.Pos().IsValid() {
		return c.reportAt(o.instr.Pos(), o.pos[i], msg, fixes, related...) // refused
	}
	if c.reported[o.instr.Pos()] {
		return false
	}
	for _, x := range others {
		if key := x.op.instr.Pos(); key != o.instr.Pos() && !c.reported[key] {
			c.reported[key] = true
			at := x.op.pos[x.i]
			related = append(related, analysis.RelatedInformation{Pos: at, End: c.sendEnd(at), Message: "this send blocks too"})
		}
	}
	return c.reportAt(o.instr.Pos(), o.pos[i], msg, fixes, related...)
}

// sendEnd returns the end of the send statement at pos, if it is one.
func (c *checker) sendEnd(pos token.Pos) token.Pos {
	if send := c.sends[pos]; send != nil {
		return send.End()
	}
	return token.NoPos
}

// reportAt reports at pos, once per key (the operation's position) and
// package, and reports whether it did. A finding without a position (an
// operation in a synthetic function) is dropped: the driver would reject
// it, and with it every finding of the package. The trace should never
// reach such an operation: the method-value cases of testdata
// (structs/methodvalues.go) expect their findings at the method's send.
func (c *checker) reportAt(key, pos token.Pos, msg string, fixes []analysis.SuggestedFix, related ...analysis.RelatedInformation) bool {
	if !key.IsValid() || !pos.IsValid() {
		return false // a trace into synthetic code: nothing a user can act on
	}
	if c.reported[key] {
		return false
	}
	c.reported[key] = true
	c.out = append(c.out, analysis.Diagnostic{Pos: pos, End: c.sendEnd(pos), Message: msg, SuggestedFixes: fixes, Related: related})
	return true
}

// flush reports the findings of the run.
func (c *checker) flush() {
	for _, d := range c.out {
		c.pass.Report(d)
	}
}

func unbuffered(room int64) string {
	if room == 0 {
		return "unbuffered "
	}
	return ""
}

// madeHere is the related position of the make.
func (c *checker) madeHere(ch *channel, made string) analysis.RelatedInformation {
	how := "unbuffered"
	if ch.room > 0 {
		how = fmt.Sprintf("with capacity %d", ch.room)
	}
	return analysis.RelatedInformation{Pos: c.makePos(ch.mk), Message: fmt.Sprintf("%s is made here, %s", made, how)}
}

// makePos returns the position of the make call of mk.
func (c *checker) makePos(mk *ssa.MakeChan) token.Pos {
	if call := c.makes[mk.Pos()]; call != nil {
		return call.Pos()
	}
	return mk.Pos()
}

// opText names the channel operation o sends on as channel i: the
// channel operand of its send as written, or, for a helper that sends
// on the channel passed to it, the channel with the helper and where
// it sends ("results in produce at walk.go:31").
func (c *checker) opText(o *op, i int, made string) string {
	if o.via == nil {
		return c.chanText(o.pos[i], made)
	}
	callee := o.instr.(ssa.CallInstruction).Common().StaticCallee()
	return fmt.Sprintf("%s in %s at %s", made, calleeName(callee, c.pass.Pkg), o.via.At)
}

// calleeName returns how code in pkg refers to fn: produce, (*Pool).run,
// worker.Produce.
func calleeName(fn *ssa.Function, pkg *types.Package) string {
	if fn.Origin() != nil {
		fn = fn.Origin()
	}
	if fn.Pkg != nil && fn.Pkg.Pkg != pkg {
		return fn.Pkg.Pkg.Name() + "." + fn.RelString(fn.Pkg.Pkg)
	}
	return fn.RelString(pkg)
}

// chanText returns the channel operand of the send at pos as written.
func (c *checker) chanText(pos token.Pos, fallback string) string {
	if send := c.sends[pos]; send != nil {
		return types.ExprString(send.Chan)
	}
	return fallback
}

// madeName returns the name the make's result is given: the variable
// or field it is assigned to, or "the channel".
func (c *checker) madeName(mk *ssa.MakeChan) string {
	call := c.makes[mk.Pos()]
	if call == nil {
		return "the channel"
	}
	path := c.pathTo(call)
	if len(path) < 2 {
		return "the channel"
	}
	switch parent := path[1].(type) {
	case *ast.AssignStmt:
		for i, rhs := range parent.Rhs {
			if rhs == call && i < len(parent.Lhs) {
				return types.ExprString(parent.Lhs[i])
			}
		}
	case *ast.ValueSpec:
		for i, v := range parent.Values {
			if v == call && i < len(parent.Names) {
				return parent.Names[i].Name
			}
		}
	case *ast.KeyValueExpr:
		return types.ExprString(parent.Key)
	}
	return "the channel"
}

// pathTo returns the path from node n up to its file.
func (c *checker) pathTo(n ast.Node) []ast.Node {
	for _, f := range c.pass.Files {
		if f.Pos() <= n.Pos() && n.End() <= f.End() {
			path, _ := astutil.PathEnclosingInterval(f, n.Pos(), n.End())
			return path
		}
	}
	return nil
}

// capacityFix returns the fix that gives the channel made by ch.mk room
// for all n values, when n can be written at the make.
func (c *checker) capacityFix(ch *channel, made string, n waitpath.Count, starts []waitpath.Start) []analysis.SuggestedFix {
	call := c.makes[ch.mk.Pos()]
	text, ok := n.Source()
	if call == nil || !ok || len(call.Args) > 2 {
		return nil
	}
	if n.Expr != "" && !c.sameAt(text, ch.mk.Pos(), starts) {
		return nil
	}
	edit := analysis.TextEdit{Pos: call.Rparen, End: call.Rparen, NewText: []byte(", " + text)}
	if len(call.Args) == 2 {
		edit = analysis.TextEdit{Pos: call.Args[1].Pos(), End: call.Args[1].End(), NewText: []byte(text)}
	}
	return []analysis.SuggestedFix{{
		Message:   fmt.Sprintf("Buffer %s with capacity %s", made, text),
		TextEdits: []analysis.TextEdit{edit},
	}}
}

// sameAt reports whether the expression text, which counts the values of
// the start that set going a run-time number of senders, means the same
// thing at the make (pos) as at that start: every name in it denotes the
// same object in both places.
func (c *checker) sameAt(text string, pos token.Pos, starts []waitpath.Start) bool {
	at := token.NoPos
	for _, s := range starts {
		if s.Sends.Expr != "" {
			at = s.Instr.Pos()
		}
	}
	e, err := parser.ParseExpr(text)
	if err != nil || !at.IsValid() {
		return false
	}
	same := true
	ast.Inspect(e, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.SelectorExpr:
			ast.Inspect(n.X, func(n ast.Node) bool { // n.Sel is a field or method
				if id, ok := n.(*ast.Ident); ok && !c.denotesSame(id.Name, pos, at) {
					same = false
				}
				return true
			})
			return false
		case *ast.Ident:
			if !c.denotesSame(n.Name, pos, at) {
				same = false
			}
		}
		return true
	})
	return same
}

// denotesSame reports whether name denotes the same object at a and b.
func (c *checker) denotesSame(name string, a, b token.Pos) bool {
	lookup := func(pos token.Pos) types.Object {
		scope := c.pass.Pkg.Scope().Innermost(pos)
		if scope == nil {
			return nil
		}
		_, obj := scope.LookupParent(name, pos)
		return obj
	}
	x := lookup(a)
	return x != nil && x == lookup(b)
}

// loopName names the function a user wrote fn in: the method or
// function itself, or the one a literal is declared in.
func loopName(fn *ssa.Function, pkg *types.Package) string {
	return outermost(fn).RelString(pkg)
}

// outermost returns fn, or the function its literal is declared in.
func outermost(fn *ssa.Function) *ssa.Function {
	for fn.Parent() != nil {
		fn = fn.Parent()
	}
	return fn
}
