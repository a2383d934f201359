package ssacfg

import (
	"go/constant"

	"golang.org/x/tools/go/ssa"
)

// AtMostOnce reports whether block b, on a cycle of its function, runs at
// most once however often the cycle turns: it runs only while a boolean
// flag is false, and every way from b back round the cycle sets the flag
// to true, while no way round sets it back to false.
//
//	got := false
//	for req := range requests {
//		if req.Type == "forward" && !got {
//			got = true
//			addr <- req // at most once
//		}
//	}
//
// The flag is a local the loop's header merges (an SSA phi): a variable
// captured by a closure or whose address is taken is not followed.
func AtMostOnce(b *ssa.BasicBlock) bool {
	if !OnCycle(b.Parent())[b.Index] {
		return false
	}
	comp := SCCs(b.Parent())
	return GuardedBy(b, func(cond ssa.Value, succ int) bool {
		flag, ok := cond.(*ssa.Phi)
		if !ok || succ != 1 { // if flag { … } else { b }
			return false
		}
		h := flag.Block()
		if comp[h.Index] != comp[b.Index] {
			return false
		}
		return setOnEveryWayRound(flag, b, comp)
	})
}

// setOnEveryWayRound reports whether flag, merged at the head of the
// cycle holding b, is true on every edge back to that head from a block b
// reaches, and never made false on another edge back.
func setOnEveryWayRound(flag *ssa.Phi, b *ssa.BasicBlock, comp []int) bool {
	h := flag.Block()
	after := reachedAvoiding(b, h)
	for i, pred := range h.Preds {
		if comp[pred.Index] != comp[h.Index] {
			continue // the way in: whatever the flag starts as
		}
		v := flag.Edges[i]
		if after[pred] {
			if !isTrueAfter(v, flag, after, map[*ssa.Phi]bool{}) {
				return false
			}
		} else if !keeps(v, flag, map[*ssa.Phi]bool{}) {
			return false
		}
	}
	return true
}

// reachedAvoiding returns the blocks reached from b without passing h, b
// included.
func reachedAvoiding(b, h *ssa.BasicBlock) map[*ssa.BasicBlock]bool {
	seen := map[*ssa.BasicBlock]bool{b: true}
	stack := []*ssa.BasicBlock{b}
	for len(stack) > 0 {
		x := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, s := range x.Succs {
			if s != h && !seen[s] {
				seen[s] = true
				stack = append(stack, s)
			}
		}
	}
	return seen
}

// isTrueAfter reports whether v, the flag's value at the end of a block
// reached from the guarded block, is true on every way from there: the
// constant true, or a merge whose edges from blocks the guarded block
// reaches are true and whose other edges keep the flag.
func isTrueAfter(v ssa.Value, flag *ssa.Phi, after map[*ssa.BasicBlock]bool, seen map[*ssa.Phi]bool) bool {
	if isBool(v, true) {
		return true
	}
	phi, ok := v.(*ssa.Phi)
	if !ok || phi == flag || seen[phi] || !after[phi.Block()] {
		return false
	}
	seen[phi] = true
	for i, pred := range phi.Block().Preds {
		if after[pred] {
			if !isTrueAfter(phi.Edges[i], flag, after, seen) {
				return false
			}
		} else if !keeps(phi.Edges[i], flag, map[*ssa.Phi]bool{}) {
			return false
		}
	}
	return true
}

// keeps reports whether v is the flag unchanged or set to true: the
// flag itself, the constant true, or a merge of those.
func keeps(v ssa.Value, flag *ssa.Phi, seen map[*ssa.Phi]bool) bool {
	if v == flag || isBool(v, true) {
		return true
	}
	phi, ok := v.(*ssa.Phi)
	if !ok || seen[phi] {
		return ok // a merge met again adds nothing
	}
	seen[phi] = true
	for _, e := range phi.Edges {
		if !keeps(e, flag, seen) {
			return false
		}
	}
	return true
}

// isBool reports whether v is the boolean constant want.
func isBool(v ssa.Value, want bool) bool {
	c, ok := v.(*ssa.Const)
	return ok && c.Value != nil && c.Value.Kind() == constant.Bool && constant.BoolVal(c.Value) == want
}
