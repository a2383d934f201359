package lateacquire

import (
	"go/token"
	"slices"

	"golang.org/x/tools/go/ssa"

	"github.com/admitlint/admitlint/internal/match"
)

// idleAfter reports whether the goroutine does nothing after the acquire
// a but end: on every path from a, in its function and in each function
// of the goroutine that called it, there is no call other than
// bookkeeping, no channel operation, no defer and no go statement before
// the function returns. A permit taken and then neither used nor given
// back bounds no work: the "acquire" is the goroutine telling someone it
// is done (a throttler's Done, sent on an early-exit path), and the
// admission, if any, is the spawner's.
func idleAfter(a act) bool {
	at := a.instr
	for f := a.fr; f != nil && f.goroutine; f = f.parent {
		if at == nil || !idleFrom(at) {
			return false
		}
		at = f.via
	}
	return true
}

// idleFrom reports whether every path from instr to a return of its
// function does nothing that waits or works.
func idleFrom(instr ssa.Instruction) bool {
	seen := map[*ssa.BasicBlock]bool{}
	var idle func(b *ssa.BasicBlock, from int) bool
	idle = func(b *ssa.BasicBlock, from int) bool {
		for _, in := range b.Instrs[from:] {
			if works(in) {
				return false
			}
		}
		for _, s := range b.Succs {
			if !seen[s] {
				seen[s] = true
				if !idle(s, 0) {
					return false
				}
			}
		}
		return true
	}
	b := instr.Block()
	i := slices.Index(b.Instrs, instr)
	return i >= 0 && idle(b, i+1)
}

// works reports whether instr may wait or do work: a call that is not a
// builtin or bookkeeping, a channel operation, a defer, a go statement or
// a panic.
func works(instr ssa.Instruction) bool {
	switch x := instr.(type) {
	case *ssa.Call:
		if _, ok := x.Call.Value.(*ssa.Builtin); ok {
			return false
		}
		callee := match.Callee(x)
		return callee == nil || !match.IsBookkeeping(callee)
	case *ssa.UnOp:
		return x.Op == token.ARROW
	case *ssa.Send, *ssa.Select, *ssa.Defer, *ssa.Go, *ssa.Panic:
		return true
	}
	return false
}
