package waitpath

import (
	"go/token"

	"golang.org/x/tools/go/ssa"

	"github.com/admitlint/admitlint/internal/match"
	"github.com/admitlint/admitlint/internal/ssacfg"
)

// OnceInLoop reports whether block b, inside a loop of fn that does not
// contain block outside, runs on one trip of the innermost such loop at
// most: a test on the way to it requires the loop's index to equal a
// value the loop does not change (if i == len(cmds)-1, if i+1 == n, if
// i == 0).
func OnceInLoop(fn *ssa.Function, b, outside *ssa.BasicBlock) bool {
	l := innermost(ssacfg.Loops(fn), b, outside)
	if l == nil {
		return false
	}
	for d := b; d != nil && l.Has(d); d = d.Idom() {
		if d == b {
			continue
		}
		cond, ok := d.Instrs[len(d.Instrs)-1].(*ssa.If)
		if !ok {
			continue
		}
		cmp, ok := cond.Cond.(*ssa.BinOp)
		if !ok {
			continue
		}
		var want int // the edge on which the index equals the value
		switch cmp.Op {
		case token.EQL:
			want = 0
		case token.NEQ:
			want = 1
		default:
			continue
		}
		if succ := d.Succs[want]; len(succ.Preds) != 1 || !succ.Dominates(b) {
			continue // b is reached other than through that edge
		}
		if indexed(cmp.X, l, 0) && invariant(cmp.Y, l, 0) || indexed(cmp.Y, l, 0) && invariant(cmp.X, l, 0) {
			return true
		}
	}
	return false
}

// indexed reports whether v is an index of loop l (a phi of its header
// that grows by a constant round the loop), plus or minus a constant.
func indexed(v ssa.Value, l *ssacfg.Loop, depth int) bool {
	if depth > 3 {
		return false
	}
	switch v := v.(type) {
	case *ssa.Phi:
		return v.Block() == l.Header && steps(v, l)
	case *ssa.BinOp:
		if v.Op != token.ADD && v.Op != token.SUB {
			return false
		}
		_, cy := v.Y.(*ssa.Const)
		_, cx := v.X.(*ssa.Const)
		return cy && indexed(v.X, l, depth+1) || cx && v.Op == token.ADD && indexed(v.Y, l, depth+1)
	}
	return false
}

// steps reports whether header phi k of loop l takes, from inside the
// loop, only k plus a nonzero constant: a loop index, distinct on every
// trip.
func steps(k *ssa.Phi, l *ssacfg.Loop) bool {
	inside := 0
	for j, e := range k.Edges {
		if !l.Has(l.Header.Preds[j]) {
			continue
		}
		add, ok := e.(*ssa.BinOp)
		if !ok || add.Op != token.ADD || add.X != k {
			return false
		}
		if n, ok := match.ConstInt(add.Y); !ok || n == 0 {
			return false
		}
		inside++
	}
	return inside > 0
}

// invariant reports whether v has the same value on every trip of loop
// l: made outside it, a constant, a parameter, or computed inside it
// from such values by arithmetic, len, a field's address or a load.
func invariant(v ssa.Value, l *ssacfg.Loop, depth int) bool {
	if depth > 4 {
		return false
	}
	instr, ok := v.(ssa.Instruction)
	if !ok || !l.Has(instr.Block()) {
		return true // a constant, a parameter, a global, a free variable, or made before the loop
	}
	switch v := v.(type) {
	case *ssa.BinOp:
		return invariant(v.X, l, depth+1) && invariant(v.Y, l, depth+1)
	case *ssa.UnOp:
		return v.Op == token.MUL && invariant(v.X, l, depth+1)
	case *ssa.FieldAddr:
		return invariant(v.X, l, depth+1)
	case *ssa.Call:
		b, ok := v.Call.Value.(*ssa.Builtin)
		return ok && (b.Name() == "len" || b.Name() == "cap") && invariant(v.Call.Args[0], l, depth+1)
	}
	return false
}
