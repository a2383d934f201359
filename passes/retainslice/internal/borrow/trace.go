package borrow

import (
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"

	"github.com/admitlint/admitlint/internal/match"
	"github.com/admitlint/admitlint/internal/ssacfg"
)

// A Kind says how much of its root's backing array a value covers.
type Kind uint8

const (
	// Whole: all of the root, or all but a few bytes at its ends (the
	// root itself, buf[:n] after a read, data[4:], bytes.TrimSpace(data)).
	Whole Kind = iota
	// Piece: possibly a small part of the root (data[i:j] with a computed
	// bound, a field of bytes.Split, a regexp match).
	Piece
)

// A State describes a value that shares a root's backing array.
type State struct {
	Kind Kind
	// Depth is 0 when the value itself aliases the root, 1 when its
	// elements do ([][]byte from bytes.Split), and so on. For Depth > 0,
	// Kind is the kind of the innermost elements.
	Depth uint8
	// Ptr is set when the value is the address of a variable (or of a
	// container's element) holding such a value: loading it yields one.
	Ptr bool
	// From is where the value first became a piece: the *ssa.Slice or
	// *ssa.Call that cut it. Nil while the value is Whole.
	From ssa.Value
	// Nested is set when a piece was cut again: a field of a line, as
	// opposed to the line itself.
	Nested bool
}

// A Lookup returns what a callee borrows from its parameters.
type Lookup func(*types.Func) []Borrow

// Trace follows root, a value of fn in state st, forward through fn and
// returns the state of every value of fn that shares root's backing array,
// root included. It follows sub-slicing, conversions that keep the backing
// array (named types, interfaces), φ-nodes, calls of borrowing functions
// (per lookup), append, and memory: a store into a local variable or a
// container's element, and the loads back out of them. Conversions
// between strings and byte slices copy, so Trace stops there; so do calls
// of functions that borrow nothing and calls through function values.
func Trace(fn *ssa.Function, root ssa.Value, st State, lookup Lookup) map[ssa.Value]State {
	t := &tracer{fn: fn, lookup: lookup, states: map[ssa.Value]State{}}
	t.set(root, st)
	for len(t.work) > 0 {
		v := t.work[len(t.work)-1]
		t.work = t.work[:len(t.work)-1]
		t.visit(v, t.states[v])
	}
	return t.states
}

type tracer struct {
	fn     *ssa.Function
	lookup Lookup
	states map[ssa.Value]State
	work   []ssa.Value
}

// set records that v is in state st, merging with what is known: a value
// that may be a piece on any path is a piece.
func (t *tracer) set(v ssa.Value, st State) {
	old, ok := t.states[v]
	switch {
	case !ok:
	case old.Depth == st.Depth && old.Ptr == st.Ptr && old.Kind == Whole && st.Kind == Piece:
	case old.Depth == st.Depth && old.Ptr == st.Ptr && old.Kind == Piece && st.Kind == Piece && !old.Nested && st.Nested:
	default:
		return
	}
	t.states[v] = st
	t.work = append(t.work, v)
}

// visit propagates v's state to the values its referrers compute.
func (t *tracer) visit(v ssa.Value, st State) {
	refs := v.Referrers()
	if refs == nil {
		return
	}
	for _, instr := range *refs {
		switch instr := instr.(type) {
		case *ssa.Slice:
			if instr.X == v && !st.Ptr {
				t.set(instr, t.sliced(instr, st))
			}
		case *ssa.Phi, *ssa.ChangeType, *ssa.MakeInterface, *ssa.ChangeInterface:
			t.set(instr.(ssa.Value), st)
		case *ssa.Convert:
			if st.Ptr && isUnsafeRecast(instr) {
				t.set(instr, st)
			}
		case *ssa.TypeAssert:
			t.typeAssert(instr, st)
		case *ssa.UnOp:
			if instr.Op == token.MUL && st.Ptr && !storedBefore(instr, v) {
				next := st
				next.Ptr = false
				t.set(instr, next)
			}
		case *ssa.IndexAddr:
			if instr.X == v && st.Depth > 0 && !st.Ptr {
				next := st
				next.Depth, next.Ptr = st.Depth-1, true
				t.set(instr, next)
			}
		case *ssa.Index:
			if instr.X == v && st.Depth > 0 && !st.Ptr {
				next := st
				next.Depth--
				t.set(instr, next)
			}
		case *ssa.Store:
			if instr.Val == v && !st.Ptr {
				t.store(instr, st)
			}
		case *ssa.Call:
			t.call(instr, v, st)
		}
	}
}

// sliced returns the state of s, a sub-slice of a value in state st.
func (t *tracer) sliced(s *ssa.Slice, st State) State {
	if st.Depth > 0 || !t.isPieceSlice(s) {
		return st
	}
	if st.Kind == Whole {
		return State{Kind: Piece, From: s}
	}
	st.Nested = true
	return st
}

// typeAssert propagates through x.(T), whose comma-ok form yields a tuple.
func (t *tracer) typeAssert(ta *ssa.TypeAssert, st State) {
	if !ta.CommaOk {
		t.set(ta, st)
		return
	}
	for _, ref := range *ta.Referrers() {
		if ex, ok := ref.(*ssa.Extract); ok && ex.Index == 0 {
			t.set(ex, st)
		}
	}
}

// store records a value in state st stored by store: into a local
// variable, whose loads then yield it, or into an element of a container
// (x[i] = v, a slice literal, append's variadic arguments), which then
// holds it. A variable of the enclosing function that the body of a
// range-over-func loop assigns is that function's local variable.
func (t *tracer) store(store *ssa.Store, st State) {
	switch addr := store.Addr.(type) {
	case *ssa.Alloc:
		t.loadsAfter(store, st)
		st.Ptr = true
		t.set(addr, st)
		t.intoBodies(addr, st)
	case *ssa.FreeVar:
		if outer := OuterVar(addr); outer != nil {
			st.Ptr = true
			t.set(addr, st)
			t.set(outer, st)
			t.intoBodies(outer, st)
		}
	case *ssa.IndexAddr:
		if st.Depth < 8 {
			st.Depth++
			t.set(addr.X, st)
		}
	}
}

// intoBodies records that the variable addr, in state st, is in that
// state in the bodies of the range-over-func loops that capture it.
func (t *tracer) intoBodies(addr ssa.Value, st State) {
	for _, ref := range *addr.Referrers() {
		mc, ok := ref.(*ssa.MakeClosure)
		if !ok || !ssacfg.IsYieldBody(mc.Fn.(*ssa.Function)) {
			continue
		}
		for i, b := range mc.Bindings {
			if b == addr {
				t.set(mc.Fn.(*ssa.Function).FreeVars[i], st)
			}
		}
	}
}

// YieldBody returns the body of the range-over-func loop that the
// iterator call c runs, or nil if c is no such call.
func YieldBody(c *ssa.Call) *ssa.Function {
	if len(c.Call.Args) != 1 || c.Call.IsInvoke() {
		return nil
	}
	mc, ok := c.Call.Args[0].(*ssa.MakeClosure)
	if !ok {
		return nil
	}
	if fn := mc.Fn.(*ssa.Function); ssacfg.IsYieldBody(fn) {
		return fn
	}
	return nil
}

// OuterVar returns the variable of the enclosing function that fv, a
// free variable of the body of a range-over-func loop, denotes, or nil.
func OuterVar(fv *ssa.FreeVar) ssa.Value {
	body := fv.Parent()
	if !ssacfg.IsYieldBody(body) || body.Parent() == nil {
		return nil
	}
	i := slices.Index(body.FreeVars, fv)
	for _, b := range body.Parent().Blocks {
		for _, instr := range b.Instrs {
			if mc, ok := instr.(*ssa.MakeClosure); ok && mc.Fn == body && i >= 0 && i < len(mc.Bindings) {
				return mc.Bindings[i]
			}
		}
	}
	return nil
}

// loadsAfter records that the loads of store's local variable that
// follow it in its block, up to the next store there, yield a value in
// state st. Loads of the variable elsewhere take the state through the
// variable itself; these are the ones storedBefore excludes from that.
func (t *tracer) loadsAfter(store *ssa.Store, st State) {
	instrs := store.Block().Instrs
	for _, instr := range instrs[slices.Index(instrs, ssa.Instruction(store))+1:] {
		switch instr := instr.(type) {
		case *ssa.Store:
			if instr.Addr == store.Addr {
				return
			}
		case *ssa.UnOp:
			if instr.Op == token.MUL && instr.X == store.Addr {
				t.set(instr, st)
			}
		}
	}
}

// storedBefore reports whether load, a load of the local variable addr,
// follows a store to it in its block: that store, not the variable's
// other stores, decides what it yields. With a defer, every return
// statement stores its results into the result variables and loads them
// back, and an early return of constants must not take the piece a later
// return keeps.
func storedBefore(load *ssa.UnOp, addr ssa.Value) bool {
	if _, ok := addr.(*ssa.Alloc); !ok {
		return false
	}
	for _, instr := range load.Block().Instrs {
		if instr == load {
			return false
		}
		if st, ok := instr.(*ssa.Store); ok && st.Addr == addr {
			return true
		}
	}
	return false
}

// call propagates v, an argument of c, to c's results: through append,
// and through callees that borrow from the parameter v is passed to. When
// v is an iterator of pieces (strings.Lines(s)) that c runs, v's
// elements go to the body of the range loop c runs it with.
func (t *tracer) call(c *ssa.Call, v ssa.Value, st State) {
	common := c.Common()
	if common.Value == v {
		if body := YieldBody(c); body != nil && st.Depth > 0 && !st.Ptr && len(body.Params) > 0 {
			next := st
			next.Depth--
			t.set(body.Params[0], next)
		}
		return
	}
	if b, ok := common.Value.(*ssa.Builtin); ok {
		// append(v, …) may reuse v's array; append(x, v...) copies v's
		// elements, which for a container are themselves pieces.
		if b.Name() == "append" && !st.Ptr && len(common.Args) == 2 &&
			(common.Args[0] == v || common.Args[1] == v && st.Depth > 0) {
			t.set(c, st)
		}
		if (b.Name() == "SliceData" || b.Name() == "StringData") && !st.Ptr && st.Depth == 0 {
			t.zeroCopy(c, st)
		}
		return
	}
	if st.Ptr || st.Depth > 0 || common.IsInvoke() {
		return
	}
	for _, b := range t.lookup(match.Callee(c)) {
		if int(b.Param) >= len(common.Args) || common.Args[b.Param] != v {
			continue
		}
		next := State{Kind: st.Kind, Depth: b.Depth, From: st.From, Nested: st.Nested}
		switch {
		case b.Piece && st.Kind == Whole:
			next.Kind, next.From = Piece, c
		case b.Piece:
			next.Nested = true
		}
		t.result(c, int(b.Result), next)
	}
}

// zeroCopy records that the strings and slices made without copying
// from data, the pointer to v's first element, share v's array:
// unsafe.String(unsafe.SliceData(v), n), unsafe.Slice(unsafe.StringData(v), n).
func (t *tracer) zeroCopy(data *ssa.Call, st State) {
	for _, ref := range *data.Referrers() {
		c, ok := ref.(*ssa.Call)
		if !ok || len(c.Call.Args) == 0 || c.Call.Args[0] != data {
			continue
		}
		if b, ok := c.Call.Value.(*ssa.Builtin); ok && (b.Name() == "String" || b.Name() == "Slice") {
			t.set(c, st)
		}
	}
}

// isUnsafeRecast reports whether conv reinterprets a pointer to a string
// or slice variable as a pointer to another string or slice type through
// unsafe.Pointer, the "yolo" conversion *(*string)(unsafe.Pointer(&b)):
// the value loaded back shares the variable's array.
func isUnsafeRecast(conv *ssa.Convert) bool {
	switch {
	case isUnsafePointer(conv.Type()):
		return pointsToSliceOrString(conv.X.Type())
	case isUnsafePointer(conv.X.Type()):
		return pointsToSliceOrString(conv.Type())
	}
	return false
}

func isUnsafePointer(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Kind() == types.UnsafePointer
}

func pointsToSliceOrString(t types.Type) bool {
	p, ok := t.Underlying().(*types.Pointer)
	return ok && IsSliceOrString(p.Elem())
}

// result records that result i of c is in state st.
func (t *tracer) result(c *ssa.Call, i int, st State) {
	if _, ok := c.Type().(*types.Tuple); !ok {
		if i == 0 {
			t.set(c, st)
		}
		return
	}
	for _, ref := range *c.Referrers() {
		if ex, ok := ref.(*ssa.Extract); ok && ex.Index == i {
			t.set(ex, st)
		}
	}
}

// isPieceSlice reports whether s, a sub-slice of a whole buffer, may be a
// small part of it. A slice that runs to the end (or to a fixed distance
// from it: data[i:], data[i:len(data)-8]) is the rest of the buffer,
// nearly all of it in general, unless it starts at a fixed distance from
// the end (data[len(data)-8:]). Otherwise it is a piece when its low bound
// is computed (data[i:j]) or its high bound is a constant or computed from
// the content (data[:4], data[:bytes.IndexByte(data, 0)]). A high bound
// from a read's count (buf[:n]) and a constant low bound alone (data[4:])
// leave nearly the whole buffer.
func (t *tracer) isPieceSlice(s *ssa.Slice) bool {
	if a, ok := s.X.(*ssa.Alloc); ok && a.Comment == "makeslice" {
		return false // make([]T, n, N) is built as new([N]T)[:n]: the whole buffer
	}
	if s.High == nil || isLenRelative(s.High) {
		return s.Low != nil && isLenRelative(s.Low)
	}
	if s.Low != nil {
		if _, ok := s.Low.(*ssa.Const); !ok {
			return true
		}
	}
	if k, ok := s.High.(*ssa.Const); ok {
		return !isArrayLen(s.X, k) // make([]T, N) is built as new([N]T)[:N]
	}
	return t.isContentBound(s.High, 0)
}

// isLenRelative reports whether the integer v is len(x) or len(x)-k: a
// position at a fixed distance from the end.
func isLenRelative(v ssa.Value) bool {
	if b, ok := v.(*ssa.BinOp); ok && b.Op == token.SUB {
		v = b.X
	}
	return isLenCall(v)
}

// isArrayLen reports whether x points to an array of length k.
func isArrayLen(x ssa.Value, k *ssa.Const) bool {
	ptr, ok := x.Type().Underlying().(*types.Pointer)
	if !ok {
		return false
	}
	arr, ok := ptr.Elem().Underlying().(*types.Array)
	return ok && k.Value != nil && k.Int64() == arr.Len()
}

// isContentBound reports whether the integer v is computed from the
// content of the buffer rather than from its length or a read's count: a
// search (bytes.Index, strings.LastIndexByte), a parsed number
// (strconv.Atoi, binary.BigEndian.Uint32, binary.Uvarint), a byte loaded
// from a traced value, or arithmetic on those.
func (t *tracer) isContentBound(v ssa.Value, depth int) bool {
	if depth > 6 {
		return false
	}
	switch v := v.(type) {
	case *ssa.Call:
		return isContentCall(v)
	case *ssa.Extract:
		call, ok := v.Tuple.(*ssa.Call)
		return ok && v.Index == 0 && isContentCall(call)
	case *ssa.Convert:
		return t.isContentBound(v.X, depth+1)
	case *ssa.BinOp:
		if isLenCall(v.X) { // len(data)-k: relative to the whole
			return false
		}
		return t.isContentBound(v.X, depth+1) || t.isContentBound(v.Y, depth+1)
	case *ssa.Phi:
		for _, e := range v.Edges {
			if t.isContentBound(e, depth+1) {
				return true
			}
		}
	case *ssa.UnOp:
		if addr, ok := v.X.(*ssa.IndexAddr); ok && v.Op == token.MUL {
			_, traced := t.states[addr.X]
			return traced
		}
	case *ssa.Index:
		_, traced := t.states[v.X]
		return traced
	}
	return false
}

// isContentCall reports whether c searches or parses bytes: its result
// depends on what the buffer holds.
func isContentCall(c *ssa.Call) bool {
	fn := match.Callee(c)
	if fn == nil || fn.Pkg() == nil {
		return false
	}
	name := fn.Name()
	switch fn.Pkg().Path() {
	case "bytes", "strings":
		return fn.Signature().Recv() == nil && (hasPrefix(name, "Index") || hasPrefix(name, "LastIndex"))
	case "encoding/binary":
		return name == "Uvarint" || name == "Varint" || name == "Uint16" || name == "Uint32" || name == "Uint64"
	case "strconv":
		return name == "Atoi" || name == "ParseInt" || name == "ParseUint"
	}
	return false
}

func hasPrefix(s, prefix string) bool { return len(s) >= len(prefix) && s[:len(prefix)] == prefix }

// isLenCall reports whether v is len(x) or cap(x).
func isLenCall(v ssa.Value) bool {
	c, ok := v.(*ssa.Call)
	if !ok {
		return false
	}
	b, ok := c.Call.Value.(*ssa.Builtin)
	return ok && (b.Name() == "len" || b.Name() == "cap")
}
