package waitpath

import (
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/admitlint/admitlint/internal/match"
)

// A refusal is the edge of an if on which a call that starts senders
// (hands a request over through a helper) has reported that it failed:
// the request was not delivered, so nothing it would set going is
// pending.
type refusal struct {
	succ  int    // the successor index of the failure edge
	start uint64 // the starts the call made
}

// findRefusals finds the ifs that test a starting call's own failure
// report: its boolean result being false (if !dispatch(req) { return }),
// or its error result being non-nil (if err := submit(req); err != nil).
func (s *search) findRefusals() {
	for instr, bits := range s.startAt {
		call, ok := instr.(*ssa.Call)
		if !ok {
			continue
		}
		v := lastResult(call)
		if v == nil {
			continue
		}
		if isBool(v.Type()) {
			s.refuseOn(v, 1, bits)
			for _, ref := range *v.Referrers() {
				if not, ok := ref.(*ssa.UnOp); ok && not.Op == token.NOT {
					s.refuseOn(not, 0, bits)
				}
			}
			continue
		}
		onFailure(v, func(cond *ssa.If, succ int) { s.refuse(cond, succ, bits) })
	}
}

// findInfallible finds the ifs that test the error of a call that never
// fails: one documented never to fail ((*io.PipeWriter).Close,
// (*bytes.Buffer).Write, …), or a function of this package every return of
// which gives a nil error. The edge on which it failed is never taken.
func (s *search) findInfallible() {
	for _, b := range s.q.Fn.Blocks {
		for _, instr := range b.Instrs {
			call, ok := instr.(*ssa.Call)
			if !ok || !neverFails(call) {
				continue
			}
			if v := lastResult(call); v != nil {
				onFailure(v, func(cond *ssa.If, succ int) { s.dead[cond] = succ })
			}
		}
	}
}

// lastResult returns the value of call's last result, or nil if it has
// none or drops it.
func lastResult(call *ssa.Call) ssa.Value {
	res := call.Call.Signature().Results()
	switch res.Len() {
	case 0:
		return nil
	case 1:
		return call
	}
	return extractOf(call, res.Len()-1)
}

// onFailure calls f for each if that tests the error err against nil,
// with the index of the successor on which err is non-nil.
func onFailure(err ssa.Value, f func(cond *ssa.If, succ int)) {
	if !match.IsError(err.Type()) {
		return
	}
	for _, ref := range *err.Referrers() {
		cmp, ok := ref.(*ssa.BinOp)
		if !ok || !IsNilConst(cmp.X) && !IsNilConst(cmp.Y) {
			continue
		}
		for _, ref := range *cmp.Referrers() {
			if cond, ok := ref.(*ssa.If); ok {
				switch cmp.Op {
				case token.NEQ:
					f(cond, 0)
				case token.EQL:
					f(cond, 1)
				}
			}
		}
	}
}

// neverFails reports whether call is of a method whose error result is
// documented to be nil always: called on the concrete type, or through
// an interface holding it (w.Close() on an io.WriteCloser that is an
// *io.PipeWriter, made here or returned by a function of the package);
// or of a function in view whose every return gives the error as a nil
// constant (a stub of this build: func (noBatch) DoWork() error { return
// nil }), called statically.
func neverFails(call *ssa.Call) bool {
	if nilErrorAlways(call.Call.StaticCallee()) {
		return true
	}
	fn := match.Callee(call)
	if call.Call.IsInvoke() {
		t := concreteType(call.Call.Value)
		if t == nil {
			return false
		}
		sel := types.NewMethodSet(t).Lookup(call.Call.Method.Pkg(), call.Call.Method.Name())
		if sel == nil {
			return false
		}
		fn, _ = sel.Obj().(*types.Func)
	}
	switch {
	case match.IsMethod(fn, "io", "PipeWriter", "Close"),
		match.IsMethod(fn, "io", "PipeReader", "Close"),
		match.IsMethod(fn, "bytes", "Buffer", "Write", "WriteString", "WriteByte", "WriteRune"),
		match.IsMethod(fn, "strings", "Builder", "Write", "WriteString", "WriteByte", "WriteRune"):
		return true
	}
	return false
}

// nilErrorAlways reports whether fn, a function with a body, returns an
// error as its last result, and every return it makes gives that result
// as the constant nil. A named result set by a deferred call is loaded,
// not constant, and does not count.
func nilErrorAlways(fn *ssa.Function) bool {
	if fn == nil || len(fn.Blocks) == 0 {
		return false
	}
	res := fn.Signature.Results()
	if res.Len() == 0 || !match.IsError(res.At(res.Len()-1).Type()) {
		return false
	}
	returns := 0
	for _, b := range fn.Blocks {
		ret, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return)
		if !ok {
			continue
		}
		if !IsNilConst(ret.Results[len(ret.Results)-1]) {
			return false
		}
		returns++
	}
	return returns > 0
}

// concreteType returns the one concrete type the interface value v can
// hold, when v is made from it here (make I <- T) or is result k of a
// static call whose every return gives result k that way; nil otherwise.
func concreteType(v ssa.Value) types.Type {
	switch v := v.(type) {
	case *ssa.MakeInterface:
		return v.X.Type()
	case *ssa.Extract:
		call, ok := v.Tuple.(*ssa.Call)
		if !ok {
			return nil
		}
		return returnedType(call.Call.StaticCallee(), v.Index)
	case *ssa.Call:
		return returnedType(v.Call.StaticCallee(), 0)
	}
	return nil
}

// returnedType returns the concrete type every return of fn gives as
// result k through a MakeInterface, or nil.
func returnedType(fn *ssa.Function, k int) types.Type {
	if fn == nil || len(fn.Blocks) == 0 {
		return nil
	}
	var t types.Type
	for _, b := range fn.Blocks {
		ret, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return)
		if !ok {
			continue
		}
		if k >= len(ret.Results) {
			return nil
		}
		mi, ok := ret.Results[k].(*ssa.MakeInterface)
		if !ok || t != nil && !types.Identical(t, mi.X.Type()) {
			return nil
		}
		t = mi.X.Type()
	}
	return t
}

// refuseOn records that the edge succ of each if on cond is a refusal of
// the starts bits.
func (s *search) refuseOn(cond ssa.Value, succ int, bits uint64) {
	for _, ref := range *cond.Referrers() {
		if cond, ok := ref.(*ssa.If); ok {
			s.refuse(cond, succ, bits)
		}
	}
}

// refuse records that edge succ of cond is a refusal of the starts bits.
func (s *search) refuse(cond *ssa.If, succ int, bits uint64) {
	r := s.refused[cond]
	s.refused[cond] = refusal{succ: succ, start: r.start | bits}
}

// extractOf returns the extraction of result k of call, if any.
func extractOf(call *ssa.Call, k int) ssa.Value {
	for _, ref := range *call.Referrers() {
		if x, ok := ref.(*ssa.Extract); ok && x.Index == k {
			return x
		}
	}
	return nil
}

func isBool(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Kind() == types.Bool
}

// IsNilConst reports whether v is the constant nil (a nil channel, error
// or pointer).
func IsNilConst(v ssa.Value) bool {
	c, ok := v.(*ssa.Const)
	return ok && c.IsNil()
}
