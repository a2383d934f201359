package retainslice

import (
	"go/constant"
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"

	"github.com/admitlint/admitlint/passes/retainslice/internal/borrow"
)

// A sinkKind says how a piece outlives the function.
type sinkKind uint8

const (
	returned sinkKind = iota // return piece
	sent                     // ch <- piece, ch outliving the function
	stored                   // x.f = piece, m[k] = piece, g = piece, T{f: piece} … that outlives
	appended                 // s = append(s, piece), s outliving the function
	captured                 // a closure that outlives the function captures piece
	passed                   // f(piece), f keeping its parameter in memory that outlives the function
)

// A sink is where a piece leaves the function: the instruction, and the
// index of the piece among the return's results or append's arguments.
type sink struct {
	kind  sinkKind
	instr ssa.Instruction
	index int
	key   bool      // the piece is a map key
	pos   token.Pos // for a select's send case, its arrow; else the instruction's position
}

// sinks returns the places where v, a piece, outlives its function. A
// store counts only when the memory stored into outlives the function; a
// call passing v (other than append) counts only when the callee is known
// to keep that parameter (a Keeps fact) in memory that outlives the
// function: otherwise what the callee does with it is unknown, and
// precision comes first.
func (c *checker) sinks(v ssa.Value) []sink {
	var sinks []sink
	for _, ref := range *v.Referrers() {
		switch ref := ref.(type) {
		case *ssa.Return:
			for i, r := range ref.Results {
				if r == v {
					sinks = append(sinks, sink{kind: returned, instr: ref, index: i})
				}
			}
		case *ssa.Send:
			if ref.X == v && c.outlivesNow(ref.Chan) {
				sinks = append(sinks, sink{kind: sent, instr: ref})
			}
		case *ssa.Select:
			for _, state := range ref.States {
				if state.Dir == types.SendOnly && state.Send == v && c.outlivesNow(state.Chan) {
					sinks = append(sinks, sink{kind: sent, instr: ref, pos: state.Pos})
				}
			}
		case *ssa.Store:
			if ref.Val == v {
				if s, ok := c.storeSink(ref); ok {
					sinks = append(sinks, s)
				}
			}
		case *ssa.MapUpdate:
			if (ref.Value == v || ref.Key == v) && c.outlivesNow(ref.Map) {
				sinks = append(sinks, sink{kind: stored, instr: ref, key: ref.Key == v})
			}
		case *ssa.MakeClosure:
			if slices.Contains(ref.Bindings, v) && c.escapesNow(ref) {
				sinks = append(sinks, sink{kind: captured, instr: ref})
			}
		case *ssa.Call:
			sinks = append(sinks, c.keptSinks(ref, v)...)
		}
	}
	return sinks
}

// storeSink classifies *addr = piece:
//
//	*t0 = piece  where t0 = local tok, captured by a closure that escapes
//	*t1 = piece  where t1 = &varargs[i] of an append whose result escapes
//	*t2 = piece  where t2 = &x.f, &s[i], or a global, that outlives fn
//
// A store into a local variable that no escaping closure captures is not
// a sink: the tracer follows the loads back out of it.
func (c *checker) storeSink(st *ssa.Store) (sink, bool) {
	addr := st.Addr
	if fv, ok := addr.(*ssa.FreeVar); ok {
		if outer := borrow.OuterVar(fv); outer != nil {
			addr = outer // assigned in the body of a range-over-func loop
		}
	}
	switch addr := addr.(type) {
	case *ssa.Alloc:
		for _, ref := range *addr.Referrers() {
			if mc, ok := ref.(*ssa.MakeClosure); ok && slices.Contains(mc.Bindings, ssa.Value(addr)) && c.escapesNow(mc) {
				return sink{kind: captured, instr: st}, true
			}
		}
		return sink{}, false
	case *ssa.IndexAddr:
		if call, i := appendOf(addr); call != nil {
			return sink{kind: appended, instr: call, index: i}, c.escapesNow(call)
		}
	}
	return sink{kind: stored, instr: st}, c.outlivesNow(st.Addr) && !c.isCarved(st.Addr) && !c.isBesideWhole(st.Addr) && !c.isBesidePart(st)
}

// isBesidePart reports whether st stores a piece into a field of a struct
// another field of which holds the next or the previous part of the same
// buffer: consecutive parts stored together are a record split into its
// fields, and copying them saves only what lies outside them.
//
//	*&t0.types = data[12:12+n]; *&t0.facts = data[12+n:12+n+m]
func (c *checker) isBesidePart(st *ssa.Store) bool {
	cut, ok := c.states[st.Val].From.(*ssa.Slice)
	if !ok {
		return false
	}
	for _, v := range siblings(st.Addr) {
		next, ok := c.states[v].From.(*ssa.Slice)
		if ok && next.X == cut.X && (sameInt(cut.High, next.Low, 0) || sameInt(next.High, cut.Low, 0)) {
			return true
		}
	}
	return false
}

// sameInt reports whether the integers a and b are computed alike: the
// same value, equal constants, or the same operation on operands computed
// alike (12+n written twice is two instructions).
func sameInt(a, b ssa.Value, depth int) bool {
	if a == nil || b == nil || depth > 4 {
		return false
	}
	if a == b {
		return true
	}
	switch a := a.(type) {
	case *ssa.Const:
		b, ok := b.(*ssa.Const)
		return ok && a.Value != nil && b.Value != nil && constant.Compare(a.Value, token.EQL, b.Value)
	case *ssa.BinOp:
		b, ok := b.(*ssa.BinOp)
		return ok && a.Op == b.Op && sameInt(a.X, b.X, depth+1) && sameInt(a.Y, b.Y, depth+1)
	case *ssa.Convert:
		b, ok := b.(*ssa.Convert)
		return ok && types.Identical(a.Type(), b.Type()) && sameInt(a.X, b.X, depth+1)
	}
	return false
}

// isBesideWhole reports whether addr is a field of a struct that another
// field keeps nearly all of the traced buffer in: a decoder's header piece
// stored beside the payload pins nothing more.
//
//	t1 = &t0.peers; *t1 = buf[20:20+n]; t2 = &t0.data; *t2 = buf[20+n:len(buf)-8]
func (c *checker) isBesideWhole(addr ssa.Value) bool {
	for _, v := range siblings(addr) {
		if s, ok := c.states[v]; ok && s.Kind == borrow.Whole && s.Depth == 0 && !s.Ptr {
			return true
		}
	}
	return false
}

// siblings returns the values stored into the other fields of the struct
// that addr, if it is a field's address, belongs to.
func siblings(addr ssa.Value) []ssa.Value {
	fa, ok := addr.(*ssa.FieldAddr)
	if !ok {
		return nil
	}
	var vals []ssa.Value
	for _, ref := range *fa.X.Referrers() {
		other, ok := ref.(*ssa.FieldAddr)
		if !ok || other.Field == fa.Field {
			continue
		}
		for _, use := range *other.Referrers() {
			if st, ok := use.(*ssa.Store); ok && st.Addr == other {
				vals = append(vals, st.Val)
			}
		}
	}
	return vals
}

// isCarved reports whether addr is where the traced buffer itself was
// loaded from, as a slab allocator keeps the rest of its buffer:
//
//	t1 = *t0 (&p.slab); t2 = φ[t1, fresh]; t3 = t2[n:]; *&p.slab = t3
//
// The location owns the buffer already; keeping a piece there pins
// nothing new.
func (c *checker) isCarved(addr ssa.Value) bool {
	for v := range c.states {
		phi, ok := v.(*ssa.Phi)
		if !ok {
			continue
		}
		for _, e := range phi.Edges {
			if load, ok := e.(*ssa.UnOp); ok && load.Op == token.MUL && sameLocation(load.X, addr) {
				return true
			}
		}
	}
	return false
}

// sameLocation reports whether addresses a and b denote the same
// variable: the same global, or the same field of the same value.
func sameLocation(a, b ssa.Value) bool {
	if a == b {
		return true
	}
	fa, ok1 := a.(*ssa.FieldAddr)
	fb, ok2 := b.(*ssa.FieldAddr)
	return ok1 && ok2 && fa.X == fb.X && fa.Field == fb.Field
}

// appendOf returns the append call whose variadic arguments addr is the
// address of, and the index of the argument: append(s, a, b) is built as
//
//	t0 = new [2]T (varargs); t1 = &t0[0]; *t1 = a; …; t3 = slice t0[:]; t4 = append(s, t3...)
func appendOf(addr *ssa.IndexAddr) (*ssa.Call, int) {
	arr, ok := addr.X.(*ssa.Alloc)
	if !ok || arr.Comment != "varargs" {
		return nil, 0
	}
	idx, ok := addr.Index.(*ssa.Const)
	if !ok {
		return nil, 0
	}
	for _, ref := range *arr.Referrers() {
		s, ok := ref.(*ssa.Slice)
		if !ok {
			continue
		}
		for _, use := range *s.Referrers() {
			if call, ok := use.(*ssa.Call); ok && isAppend(call) && len(call.Call.Args) == 2 && call.Call.Args[1] == s {
				return call, int(idx.Int64())
			}
		}
	}
	return nil, 0
}

// isAppend reports whether call calls the append builtin.
func isAppend(call *ssa.Call) bool {
	b, ok := call.Call.Value.(*ssa.Builtin)
	return ok && b.Name() == "append"
}

// outlivesNow and escapesNow ask outlives and escapes afresh.
func (c *checker) outlivesNow(v ssa.Value) bool {
	clear(c.visited)
	return c.outlives(v)
}

func (c *checker) escapesNow(v ssa.Value) bool {
	clear(c.visited)
	return c.escapes(v)
}

// A visit is one question about one value, to stop on cycles.
type visit struct {
	v        ssa.Value
	outlives bool // the question is outlives(v), not escapes(v)
}

// escapes reports whether v, a value made in the function (an allocation,
// a map, a channel, a closure, an append's result), outlives it: it is
// returned, sent on or stored into something that outlives the function,
// captured by a closure that escapes, or flows to one of those through
// φ-nodes, conversions, slicing and append. Passing v to a call does not
// count.
func (c *checker) escapes(v ssa.Value) bool {
	if c.visiting(visit{v, false}) {
		return false
	}
	refs := v.Referrers()
	if refs == nil {
		return false
	}
	for _, ref := range *refs {
		var next ssa.Value // a value carrying v on
		switch ref := ref.(type) {
		case *ssa.Return:
			return true
		case *ssa.Send:
			if ref.X == v && c.outlives(ref.Chan) {
				return true
			}
		case *ssa.Store:
			if ref.Val == v && c.outlives(ref.Addr) {
				return true
			}
		case *ssa.MapUpdate:
			if (ref.Value == v || ref.Key == v) && c.outlives(ref.Map) {
				return true
			}
		case *ssa.Call:
			if isAppend(ref) {
				next = ref
			}
		case *ssa.MakeClosure:
			if slices.Contains(ref.Bindings, v) {
				next = ref
			}
		case *ssa.UnOp:
			if ref.Op == token.MUL { // a copy of the struct v points to
				next = ref
			}
		case *ssa.Phi, *ssa.ChangeType, *ssa.MakeInterface, *ssa.ChangeInterface, *ssa.Slice, *ssa.TypeAssert:
			next = ref.(ssa.Value)
		}
		if next != nil && c.escapes(next) {
			return true
		}
	}
	return false
}

// outlives reports whether the memory or object v denotes (an address, a
// map, a channel) lives on after the function returns: a global, a
// parameter or captured variable (the caller's), a field or element of
// something that outlives, or a fresh object that escapes. The result of
// a call (other than append) is not known to outlive.
func (c *checker) outlives(v ssa.Value) bool {
	if c.visiting(visit{v, true}) {
		return false
	}
	switch v := v.(type) {
	case *ssa.FreeVar:
		if outer := borrow.OuterVar(v); outer != nil { // the body of a range loop: the enclosing function's variable
			return c.outlives(outer)
		}
		return true
	case *ssa.Global, *ssa.Parameter:
		return true
	case *ssa.Alloc, *ssa.MakeMap, *ssa.MakeChan, *ssa.MakeSlice, *ssa.MakeClosure:
		return c.escapes(v)
	case *ssa.Call:
		return isAppend(v) && c.escapes(v)
	case *ssa.Phi:
		for _, e := range v.Edges {
			if c.outlives(e) {
				return true
			}
		}
		return false
	}
	if x := holder(v); x != nil {
		// A load also yields what a local variable holds.
		_, load := v.(*ssa.UnOp)
		return c.outlives(x) || load && c.holdsOutliving(x)
	}
	return false
}

// holder returns the value v is a part of or a view of: x for &x.f,
// &x[i], x.f, x[i], m[k], *x, x[i:j], and conversions of x that keep its
// memory (named types, interfaces, type assertions). It returns nil for
// anything else.
func holder(v ssa.Value) ssa.Value {
	switch v := v.(type) {
	case *ssa.FieldAddr:
		return v.X
	case *ssa.IndexAddr:
		return v.X
	case *ssa.Field:
		return v.X
	case *ssa.Index:
		return v.X
	case *ssa.Lookup:
		return v.X
	case *ssa.UnOp:
		if v.Op == token.MUL {
			return v.X
		}
	case *ssa.Slice:
		return v.X
	case *ssa.ChangeType:
		return v.X
	case *ssa.MakeInterface:
		return v.X
	case *ssa.ChangeInterface:
		return v.X
	case *ssa.TypeAssert:
		return v.X
	}
	return nil
}

// holdsOutliving reports whether addr is a local variable (of the
// function, or of the one enclosing the body of a range-over-func loop,
// which captures the variables it uses by reference) that something
// outliving the function is stored into: a parameter kept in a variable,
// a receiver the loop body uses.
func (c *checker) holdsOutliving(addr ssa.Value) bool {
	if fv, ok := addr.(*ssa.FreeVar); ok {
		addr = borrow.OuterVar(fv)
	}
	a, ok := addr.(*ssa.Alloc)
	if !ok {
		return false
	}
	for _, ref := range *a.Referrers() {
		if st, ok := ref.(*ssa.Store); ok && st.Addr == a && c.outlives(st.Val) {
			return true
		}
	}
	return false
}

// visiting reports whether the question q is already being answered
// within the current top-level one, and marks it.
func (c *checker) visiting(q visit) bool {
	if c.visited[q] {
		return true
	}
	c.visited[q] = true
	return false
}
