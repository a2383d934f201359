package retainslice

import (
	"golang.org/x/tools/go/ssa"

	"github.com/admitlint/admitlint/internal/match"
	"github.com/admitlint/admitlint/passes/retainslice/internal/borrow"
)

// isCoverage reports whether sink s keeps every record of its buffer, so
// that the pieces together are the buffer and copying them saves nothing:
// a loop that, on every iteration, keeps a piece cut from the cursor it
// advances through the buffer (a record parser), or keeps each field of a
// split as a value. Map keys do not count, since repeated keys keep one
// piece for many; nor do pieces of pieces (a field of each line), nor
// regexp matches, which are a selection.
//
//	loop: s = φ[whole, t3]; t1 = s[i:j]; m[k] = t1; t3 = s[j+n:]; jump loop
func (c *checker) isCoverage(st borrow.State, s sink) bool {
	if st.Nested || s.kind == returned || s.kind == captured {
		return false
	}
	switch {
	case isCursorCut(st.From):
	case isSplit(st.From) && !s.key:
	default:
		return false
	}
	return isEveryIteration(s.instr.Block())
}

// isCursorCut reports whether v is a slice of a loop's cursor: a φ-node
// one of whose edges is a sub-slice of itself.
func isCursorCut(v ssa.Value) bool {
	cut, ok := v.(*ssa.Slice)
	if !ok {
		return false
	}
	phi, ok := cut.X.(*ssa.Phi)
	if !ok {
		return false
	}
	for _, e := range phi.Edges {
		if next, ok := e.(*ssa.Slice); ok && next.X == phi {
			return true
		}
	}
	return false
}

// isSplit reports whether v is a call of bytes or strings Split or Fields
// and their variants, whose fields tile their argument.
func isSplit(v ssa.Value) bool {
	call, ok := v.(*ssa.Call)
	if !ok {
		return false
	}
	fn := match.Callee(call)
	return match.IsFunc(fn, "bytes", "Split", "SplitN", "SplitAfter", "SplitAfterN", "Fields", "FieldsFunc") ||
		match.IsFunc(fn, "strings", "Split", "SplitN", "SplitAfter", "SplitAfterN", "Fields", "FieldsFunc")
}

// isEveryIteration reports whether b is in a loop and runs on every
// iteration of the innermost one: it dominates each of the loop's back
// edges. Iterations that leave the loop (a panic, a return) do not count.
func isEveryIteration(b *ssa.BasicBlock) bool {
	for h := b; h != nil; h = h.Idom() {
		var latches []*ssa.BasicBlock
		for _, p := range h.Preds {
			if h.Dominates(p) {
				latches = append(latches, p)
			}
		}
		if len(latches) == 0 || !reachesLatch(b, h, latches) {
			continue // h heads no loop holding b
		}
		for _, l := range latches {
			if !b.Dominates(l) {
				return false
			}
		}
		return true
	}
	return false
}

// reachesLatch reports whether some latch of the loop headed by h is
// reachable from b without passing through h: then b is in the loop.
func reachesLatch(b, h *ssa.BasicBlock, latches []*ssa.BasicBlock) bool {
	seen := map[*ssa.BasicBlock]bool{h: true}
	stack := []*ssa.BasicBlock{b}
	for len(stack) > 0 {
		x := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, l := range latches {
			if x == l {
				return true
			}
		}
		for _, y := range x.Succs {
			if !seen[y] {
				seen[y] = true
				stack = append(stack, y)
			}
		}
	}
	return false
}
