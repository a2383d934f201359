package waitpath

import (
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/admitlint/admitlint/internal/match"
)

// findShortWrites finds the ifs that test the count a Write returned
// against the length of what it was given (n != len(p), n < len(p),
// n == len(p), n >= len(p)) once the same call's error was found nil: a
// Write with io.Writer's signature "must return a non-nil error if it
// returns n < len(p)" (io.Writer's contract), so the short-count edge is
// never taken (validation set 40, gatt: a return after a short write to
// a raw socket, named as the receiver's way out while the error return
// beside it was the live one).
func (s *search) findShortWrites() {
	for _, b := range s.q.Fn.Blocks {
		cond, ok := b.Instrs[len(b.Instrs)-1].(*ssa.If)
		if !ok {
			continue
		}
		if short, ok := shortCount(cond.Cond); ok {
			s.dead[cond] = short
		}
	}
}

// shortCount returns the successor of v's if taken on a short count, when
// v compares what a Write returned with len(p) past its nil error.
func shortCount(v ssa.Value) (succ int, ok bool) {
	cmp, ok := v.(*ssa.BinOp)
	if !ok {
		return 0, false
	}
	n, length, op := cmp.X, cmp.Y, cmp.Op
	if _, ok := n.(*ssa.Extract); !ok {
		n, length, op = length, n, mirror(op)
	}
	x, ok := n.(*ssa.Extract)
	if !ok || x.Index != 0 {
		return 0, false
	}
	write, ok := x.Tuple.(*ssa.Call)
	if !ok || !isWrite(write.Common()) || !isLenOf(length, write.Common().Args) || !pastNilError(cmp.Block(), write) {
		return 0, false
	}
	switch op {
	case token.NEQ, token.LSS:
		return 0, true // true on a short count
	case token.EQL, token.GEQ:
		return 1, true
	}
	return 0, false
}

// mirror returns the operator that compares y with x as op compares x
// with y.
func mirror(op token.Token) token.Token {
	switch op {
	case token.LSS:
		return token.GTR
	case token.GTR:
		return token.LSS
	case token.LEQ:
		return token.GEQ
	case token.GEQ:
		return token.LEQ
	}
	return op
}

// isWrite reports whether call is a method call named Write with
// io.Writer's signature, func([]byte) (int, error).
func isWrite(call *ssa.CallCommon) bool {
	var name string
	switch {
	case call.IsInvoke():
		name = call.Method.Name()
	case call.StaticCallee() != nil && call.Signature().Recv() != nil:
		name = call.StaticCallee().Name()
	}
	sig := call.Signature()
	if name != "Write" || sig.Params().Len() != 1 || sig.Results().Len() != 2 {
		return false
	}
	p, ok := sig.Params().At(0).Type().Underlying().(*types.Slice)
	if !ok || !types.Identical(p.Elem(), types.Typ[types.Byte]) {
		return false
	}
	return types.Identical(sig.Results().At(0).Type(), types.Typ[types.Int]) && match.IsError(sig.Results().At(1).Type())
}

// isLenOf reports whether v is len(p), p the last of args (a static
// call's receiver comes first).
func isLenOf(v ssa.Value, args []ssa.Value) bool {
	call, ok := v.(*ssa.Call)
	if !ok || len(args) == 0 {
		return false
	}
	b, ok := call.Call.Value.(*ssa.Builtin)
	return ok && b.Name() == "len" && len(call.Call.Args) == 1 && keptValue(call.Call.Args[0]) == keptValue(args[len(args)-1])
}

// pastNilError reports whether block b is reached only once the error
// write returned was tested and found nil: b is dominated by the nil way
// out of an if testing it, a way only that if enters.
func pastNilError(b *ssa.BasicBlock, write *ssa.Call) bool {
	err := lastResult(write)
	if err == nil {
		return false
	}
	past := false
	onFailure(err, func(cond *ssa.If, failed int) {
		way := cond.Block().Succs[1-failed]
		past = past || len(way.Preds) == 1 && way.Dominates(b)
	})
	return past
}
