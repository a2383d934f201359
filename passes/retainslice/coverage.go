package retainslice

import (
	"go/constant"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/admitlint/admitlint/internal/match"
	"github.com/admitlint/admitlint/internal/ssacfg"
	"github.com/admitlint/admitlint/passes/retainslice/internal/borrow"
)

// A kept is one piece of the root being checked and one place where it
// outlives the function.
type kept struct {
	v  ssa.Value
	st borrow.State
	s  sink
}

// isRecordKept reports whether k is where a loop over the records of its
// buffer keeps what it parses: the pieces kept together are the buffer,
// and copying them would cost what they pin.
//
// The records are the parts of a split (for _, line := range
// strings.Split(s, "\n")) or the pieces a cursor cuts as it advances
// through the buffer (for len(s) > 0 { …; s = s[j:] }). The loop keeps
// its records when every iteration that goes round keeps a piece of the
// root (stores, appends or sends one: any place in keeps), except
// iterations that discard a blank or comment record (line == "",
// strings.HasPrefix(line, "#")); an iteration that ends the loop (a
// return, a panic, log.Fatal) does not go round. A test of a record's
// field against a constant (switch verb { case "packagefile": … })
// dispatches on the kind of record, and only the kind tested must keep.
//
// Not records kept: a piece returned or captured (it leaves once, so it
// is a fixed handful); a piece of a record cut at constant bounds
// (line[:2], a short fixed part of each record); a map key stored with a
// constant (seen[word] = true), or counted (counts[word]++): keys repeat
// there, so one piece stands for many
// occurrences and pins the buffer for them; and any loop that keeps some records and skips others
// for what they hold (a filter, a search), which is a selection.
func (c *checker) isRecordKept(fn *ssa.Function, k kept, keeps map[*ssa.BasicBlock]bool) bool {
	if k.s.kind == returned || k.s.kind == captured || isFixedCut(k.v) {
		return false
	}
	if k.s.key && (isSetUpdate(k.s.instr) || isCounter(k.s.instr)) {
		return false
	}
	loop := c.recordLoop(fn, k.st.From)
	if loop == nil || !loop.Has(k.s.instr.Block()) {
		return false
	}
	return !c.goesRoundWithoutKeeping(loop, keeps)
}

// isStoredBack reports whether k stores a piece back into the container
// it was read out of (for i, run := range runs { …; runs[i] = run[:m] }):
// the container holds a piece of the root already, so this keeps nothing
// more, and the place that first stored it is the cause.
func isStoredBack(k kept) bool {
	var into ssa.Value // the container: a slice, a map, or a field's address
	switch instr := k.s.instr.(type) {
	case *ssa.Store:
		switch addr := instr.Addr.(type) {
		case *ssa.IndexAddr:
			into = addr.X
		case *ssa.FieldAddr:
			into = addr
		}
	case *ssa.MapUpdate:
		into = instr.Map
	}
	if into == nil || k.s.key {
		return false
	}
	seen := map[ssa.Value]bool{}
	var readFrom func(v ssa.Value, depth int) bool
	readFrom = func(v ssa.Value, depth int) bool {
		if v == nil || seen[v] || depth > 8 {
			return false
		}
		seen[v] = true
		switch v := v.(type) {
		case *ssa.Slice:
			return readFrom(v.X, depth+1)
		case *ssa.Phi:
			for _, e := range v.Edges {
				if readFrom(e, depth+1) {
					return true
				}
			}
		case *ssa.Call:
			return isAppend(v) && readFrom(v.Call.Args[0], depth+1)
		case *ssa.UnOp:
			if v.Op == token.MUL {
				return sameContainer(v.X, into)
			}
		case *ssa.Index:
			return v.X == into
		case *ssa.Lookup:
			return v.X == into
		}
		return false
	}
	return readFrom(k.v, 0)
}

// sameContainer reports whether addr, the address a piece was loaded
// from, lies in into: an element of the slice into, or the same field of
// the same object as the field address into.
func sameContainer(addr, into ssa.Value) bool {
	switch addr := addr.(type) {
	case *ssa.IndexAddr:
		return addr.X == into
	case *ssa.FieldAddr:
		f, ok := into.(*ssa.FieldAddr)
		return ok && f.X == addr.X && f.Field == addr.Field
	}
	return false
}

// recordLoop returns the loop over the records that from, where a piece
// was first cut, produces: the loop whose header holds the cursor from
// cuts, or the innermost loop that reads the elements of the split from
// is. It returns nil if from cuts no records.
func (c *checker) recordLoop(fn *ssa.Function, from ssa.Value) *ssacfg.Loop {
	if cursor := cursorOf(from); cursor != nil {
		return innermost(c.loops(fn), cursor.Block())
	}
	if run, ok := from.(*ssa.Slice); ok && isAppendedRun(run) {
		if l := innermost(c.loops(fn), run.Block()); l != nil && carries(l, run.X) {
			return l
		}
		return nil
	}
	if !isSplit(from) {
		return nil
	}
	if body := yieldBodyOf(from); body != nil {
		return bodyLoop(body)
	}
	var best *ssacfg.Loop
	for _, ref := range *from.Referrers() {
		switch ref.(type) {
		case *ssa.IndexAddr, *ssa.Index:
			if l := innermost(c.loops(fn), ref.Block()); l != nil && (best == nil || l.Size < best.Size) {
				best = l
			}
		}
	}
	return best
}

// yieldBodyOf returns the body of the range-over-func loop that runs
// the iterator seq, or nil.
func yieldBodyOf(seq ssa.Value) *ssa.Function {
	for _, ref := range *seq.Referrers() {
		if c, ok := ref.(*ssa.Call); ok && c.Call.Value == seq {
			return borrow.YieldBody(c)
		}
	}
	return nil
}

// bodyLoop returns the body of a range-over-func loop as a loop of its
// own: each call of it is one iteration, entered at its first block, and
// one that returns true goes round (returnsRound).
func bodyLoop(body *ssa.Function) *ssacfg.Loop {
	l := &ssacfg.Loop{Header: body.Blocks[0], Blocks: make([]bool, len(body.Blocks)), Size: len(body.Blocks)}
	for i := range l.Blocks {
		l.Blocks[i] = true
	}
	return l
}

// returnsRound reports whether b, a block of loop, ends an iteration that
// goes round: in the body of a range-over-func loop (the loop entered at
// its function's first block), a return of true, as continue compiles to.
func returnsRound(loop *ssacfg.Loop, b *ssa.BasicBlock) bool {
	if loop.Header.Index != 0 {
		return false
	}
	ret, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return)
	if !ok || len(ret.Results) != 1 {
		return false
	}
	k, ok := ret.Results[0].(*ssa.Const)
	return ok && k.Value != nil && constant.BoolVal(k.Value)
}

// loops returns fn's natural loops, memoised for the function checked.
func (c *checker) loops(fn *ssa.Function) []*ssacfg.Loop {
	if c.loopsOf != fn {
		c.loopsOf, c.fnLoops = fn, ssacfg.Loops(fn)
	}
	return c.fnLoops
}

// innermost returns the smallest loop holding b, or nil.
func innermost(loops []*ssacfg.Loop, b *ssa.BasicBlock) *ssacfg.Loop {
	var best *ssacfg.Loop
	for _, l := range loops {
		if l.Has(b) && (best == nil || l.Size < best.Size) {
			best = l
		}
	}
	return best
}

// cursorOf returns the φ-node a cut advances through the buffer, when v
// is a piece cut from one: a slice of it, or the part before the
// separator of a Cut of it, where one of the φ's edges is a later part of
// itself (s = s[j:], or the rest of the Cut).
//
//	loop: s = φ[whole, t3]; t1 = s[i:j]; …; t3 = s[j+n:]; jump loop
func cursorOf(v ssa.Value) *ssa.Phi {
	var x ssa.Value
	switch v := v.(type) {
	case *ssa.Slice:
		x = v.X
	case *ssa.Extract:
		call, ok := v.Tuple.(*ssa.Call)
		if !ok || v.Index != 0 || !isCut(call) {
			return nil
		}
		x = call.Call.Args[0]
	case *ssa.Call:
		if !isCut(v) {
			return nil
		}
		x = v.Call.Args[0]
	default:
		return nil
	}
	phi, ok := x.(*ssa.Phi)
	if !ok {
		return nil
	}
	for _, e := range phi.Edges {
		if advances(e, phi) {
			return phi
		}
	}
	return nil
}

// advances reports whether e is a later part of the cursor phi: a slice
// of it, or the rest of a Cut of it.
func advances(e ssa.Value, phi *ssa.Phi) bool {
	switch e := e.(type) {
	case *ssa.Slice:
		return e.X == phi
	case *ssa.Extract:
		call, ok := e.Tuple.(*ssa.Call)
		return ok && e.Index == 1 && isCut(call) && call.Call.Args[0] == phi
	}
	return false
}

// isAppendedRun reports whether run is what one append added to a
// buffer: buf[n:] where n is len of the buffer the append grew, by the
// builtin or by a function taking the buffer first and returning it
// grown (strconv.AppendInt, an appendFields(dst, s) helper).
//
//	n = len(p); t = append(p, …); run = t[n:]
func isAppendedRun(run *ssa.Slice) bool {
	if run.High != nil {
		return false
	}
	length, ok := run.Low.(*ssa.Call)
	if !ok || len(length.Call.Args) != 1 {
		return false
	}
	if b, ok := length.Call.Value.(*ssa.Builtin); !ok || b.Name() != "len" {
		return false
	}
	grown, ok := run.X.(*ssa.Call)
	if !ok || len(grown.Call.Args) == 0 || grown.Call.Args[0] != length.Call.Args[0] {
		return false
	}
	return types.Identical(grown.Type(), grown.Call.Args[0].Type())
}

// carries reports whether the buffer grown reaches loop's header again
// through φ-nodes: the next trip appends after this one's run, so the
// runs lie one after another in the buffer.
func carries(loop *ssacfg.Loop, grown ssa.Value) bool {
	seen := map[ssa.Value]bool{}
	work := []ssa.Value{grown}
	for len(work) > 0 {
		v := work[len(work)-1]
		work = work[:len(work)-1]
		for _, ref := range *v.Referrers() {
			phi, ok := ref.(*ssa.Phi)
			if !ok || seen[phi] || !loop.Has(phi.Block()) {
				continue
			}
			if phi.Block() == loop.Header {
				return true
			}
			seen[phi] = true
			work = append(work, phi)
		}
	}
	return false
}

// isCut reports whether call is bytes.Cut or strings.Cut.
func isCut(call *ssa.Call) bool {
	fn := match.Callee(call)
	return match.IsFunc(fn, "bytes", "Cut") || match.IsFunc(fn, "strings", "Cut")
}

// splitters are the functions of bytes and strings whose fields tile
// their argument: in a slice, or yielded by an iterator.
var splitters = []string{
	"Split", "SplitN", "SplitAfter", "SplitAfterN", "Fields", "FieldsFunc",
	"Lines", "SplitSeq", "SplitAfterSeq", "FieldsSeq", "FieldsFuncSeq",
}

// isSplit reports whether v is a call of bytes or strings Split or Fields
// and their variants, whose fields tile their argument.
func isSplit(v ssa.Value) bool {
	call, ok := v.(*ssa.Call)
	if !ok {
		return false
	}
	fn := match.Callee(call)
	return match.IsFunc(fn, "bytes", splitters...) || match.IsFunc(fn, "strings", splitters...)
}

// isFixedCut reports whether v is a slice with constant bounds (line[:2],
// hdr[4:12]): a short part of fixed size, whatever the record's length.
func isFixedCut(v ssa.Value) bool {
	s, ok := v.(*ssa.Slice)
	if !ok || s.High == nil {
		return false
	}
	_, low := s.Low.(*ssa.Const)
	_, high := s.High.(*ssa.Const)
	return (s.Low == nil || low) && high
}

// isSetUpdate reports whether the map update instr stores a constant
// (seen[w] = true, set[k] = struct{}{}): a set, whose keys repeat.
func isSetUpdate(instr ssa.Instruction) bool {
	up, ok := instr.(*ssa.MapUpdate)
	if !ok {
		return false
	}
	_, constant := up.Value.(*ssa.Const)
	return constant
}

// isCounter reports whether the map update instr adds a constant to what
// the map holds under the same key: counts[k]++, counts[k] += 2.
func isCounter(instr ssa.Instruction) bool {
	up, ok := instr.(*ssa.MapUpdate)
	if !ok {
		return false
	}
	add, ok := up.Value.(*ssa.BinOp)
	if !ok || add.Op != token.ADD {
		return false
	}
	x, k := add.X, add.Y
	if _, isConst := x.(*ssa.Const); isConst {
		x, k = k, x
	}
	if ex, ok := x.(*ssa.Extract); ok { // v, ok := m[k]
		x = ex.Tuple
	}
	l, ok := x.(*ssa.Lookup)
	_, isConst := k.(*ssa.Const)
	return ok && isConst && l.X == up.Map && l.Index == up.Key
}

// goesRoundWithoutKeeping reports whether some iteration of loop can go
// from its header back to it without passing a block in keeps. At a test
// that discards blank or comment records it follows only the edge that
// keeps the record; at a dispatch on a record's kind it stops when some
// kind is kept from there on.
func (c *checker) goesRoundWithoutKeeping(loop *ssacfg.Loop, keeps map[*ssa.BasicBlock]bool) bool {
	parser := c.isPrefixParser(loop, keeps)
	seen := map[*ssa.BasicBlock]bool{}
	stack := []*ssa.BasicBlock{loop.Header}
	for len(stack) > 0 {
		b := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if seen[b] || keeps[b] {
			continue
		}
		seen[b] = true
		if returnsRound(loop, b) {
			return true
		}
		succs := b.Succs
		test, keep := c.recordTest(b)
		if test == prefixTest && parser {
			test = dispatch
		}
		switch test {
		case discard:
			succs = b.Succs[keep : keep+1]
		case dispatch:
			if reachesKeep(b, loop, keeps) {
				continue // a parser: some kind of record is kept
			}
		}
		for _, s := range succs {
			if s == loop.Header {
				return true
			}
			if loop.Has(s) {
				stack = append(stack, s)
			}
		}
	}
	return false
}

// isPrefixParser reports whether loop tells its records apart by their
// prefix, as a parser does: at least two tests of a record's prefix
// (strings.HasPrefix(line, "  ")) are each followed, in the same
// iteration, by a keep. One such test is a filter, which is reported.
func (c *checker) isPrefixParser(loop *ssacfg.Loop, keeps map[*ssa.BasicBlock]bool) bool {
	n := 0
	for _, b := range loop.Header.Parent().Blocks {
		if !loop.Has(b) {
			continue
		}
		if test, _ := c.recordTest(b); test == prefixTest && reachesKeep(b, loop, keeps) {
			n++
		}
	}
	return n >= 2
}

// reachesKeep reports whether a block in keeps can follow b in the same
// iteration of loop.
func reachesKeep(b *ssa.BasicBlock, loop *ssacfg.Loop, keeps map[*ssa.BasicBlock]bool) bool {
	seen := map[*ssa.BasicBlock]bool{b: true}
	stack := append([]*ssa.BasicBlock(nil), b.Succs...)
	for len(stack) > 0 {
		x := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if seen[x] || x == loop.Header || !loop.Has(x) {
			continue
		}
		if keeps[x] {
			return true
		}
		seen[x] = true
		stack = append(stack, x.Succs...)
	}
	return false
}

// A recordTestKind says what an if testing a piece of a record does.
type recordTestKind int

const (
	notRecordTest recordTestKind = iota
	discard                      // drops a blank or comment record: x == "", len(x) == 0, strings.HasPrefix(x, "#"), x[0] == '#'
	dispatch                     // tests the record's kind: x == "packagefile", switch verb { … }
	prefixTest                   // tests a prefix: strings.HasPrefix(x, "  "); a dispatch in a parser
)

// recordTest classifies the if ending b, and for a discard returns the
// index of the successor on which the record is not dropped.
func (c *checker) recordTest(b *ssa.BasicBlock) (recordTestKind, int) {
	cond, ok := b.Instrs[len(b.Instrs)-1].(*ssa.If)
	if !ok {
		return notRecordTest, 0
	}
	v, negated := cond.Cond, false
	for {
		not, ok := v.(*ssa.UnOp)
		if !ok || not.Op != token.NOT {
			break
		}
		v, negated = not.X, !negated
	}
	kind, whenTrue := c.classifyTest(v)
	// whenTrue: the test holds when the record is dropped (discard).
	if kind == discard && whenTrue == negated {
		return discard, 0 // the true edge keeps it
	}
	return kind, 1
}

// classifyTest classifies a condition on a piece of the root, and for a
// discard reports whether the condition holds when the record is dropped
// (x == "") rather than when it is kept (x != "").
func (c *checker) classifyTest(v ssa.Value) (recordTestKind, bool) {
	switch v := v.(type) {
	case *ssa.BinOp:
		if v.Op != token.EQL && v.Op != token.NEQ {
			return notRecordTest, false
		}
		x, k := v.X, v.Y
		if _, isConst := x.(*ssa.Const); isConst {
			x, k = k, x
		}
		konst, isConst := k.(*ssa.Const)
		if !isConst || konst.Value == nil || !c.isPieceOrByte(x) {
			return notRecordTest, false
		}
		switch {
		case isLenOf(x) && isZero(konst), isBlank(konst), isCommentByte(konst) && !isLenOf(x):
			return discard, v.Op == token.EQL
		case isLenOf(x):
			return notRecordTest, false
		}
		return dispatch, false
	case *ssa.Call:
		fn := match.Callee(v)
		if (match.IsFunc(fn, "strings", "HasPrefix") || match.IsFunc(fn, "bytes", "HasPrefix")) && len(v.Call.Args) == 2 &&
			c.isPieceOrByte(v.Call.Args[0]) && isCommentPrefix(v.Call.Args[1]) {
			return discard, true
		}
		if (match.IsFunc(fn, "strings", "HasPrefix", "HasSuffix") || match.IsFunc(fn, "bytes", "HasPrefix", "HasSuffix")) && len(v.Call.Args) == 2 &&
			c.isPieceOrByte(v.Call.Args[0]) && isStringConst(v.Call.Args[1]) {
			return prefixTest, false
		}
	}
	return notRecordTest, false
}

// isPieceOrByte reports whether v is a piece of the root, its length, or
// a byte of it.
func (c *checker) isPieceOrByte(v ssa.Value) bool {
	if st, ok := c.states[v]; ok && st.Depth == 0 && !st.Ptr {
		return true // a piece itself, such as an element of a split
	}
	switch x := v.(type) {
	case *ssa.Call:
		if isLenOf(x) {
			v = x.Call.Args[0]
		}
	case *ssa.Index:
		v = x.X
	case *ssa.UnOp:
		if addr, ok := x.X.(*ssa.IndexAddr); ok && x.Op == token.MUL {
			v = addr.X
		}
	}
	st, ok := c.states[v]
	return ok && st.Depth == 0 && !st.Ptr
}

// isLenOf reports whether v is len(x).
func isLenOf(v ssa.Value) bool {
	call, ok := v.(*ssa.Call)
	if !ok {
		return false
	}
	b, ok := call.Call.Value.(*ssa.Builtin)
	return ok && b.Name() == "len"
}

func isBlank(k *ssa.Const) bool {
	return k.Value.Kind() == constant.String && constant.StringVal(k.Value) == ""
}

func isZero(k *ssa.Const) bool {
	return k.Value.Kind() == constant.Int && constant.Sign(k.Value) == 0
}

// commentMarks are what comment lines of line-oriented formats begin with.
var commentMarks = []string{"#", "//", ";", "--", "%", "!"}

// isCommentByte reports whether k is the first byte of a comment mark.
func isCommentByte(k *ssa.Const) bool {
	if k.Value.Kind() != constant.Int {
		return false
	}
	b, ok := constant.Int64Val(k.Value)
	return ok && (b == '#' || b == '/' || b == ';' || b == '%' || b == '!')
}

// isStringConst reports whether v is a constant string, or its []byte.
func isStringConst(v ssa.Value) bool {
	if conv, ok := v.(*ssa.Convert); ok {
		v = conv.X
	}
	k, ok := v.(*ssa.Const)
	return ok && k.Value != nil && k.Value.Kind() == constant.String
}

// isCommentPrefix reports whether v is a constant comment mark.
func isCommentPrefix(v ssa.Value) bool {
	if conv, ok := v.(*ssa.Convert); ok { // []byte("#")
		v = conv.X
	}
	k, ok := v.(*ssa.Const)
	if !ok || k.Value == nil || k.Value.Kind() != constant.String {
		return false
	}
	s := constant.StringVal(k.Value)
	for _, m := range commentMarks {
		if s == m {
			return true
		}
	}
	return false
}
