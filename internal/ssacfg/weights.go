package ssacfg

import "golang.org/x/tools/go/ssa"

// MostWeight returns the largest total weight of the instructions on any
// path through fn from its entry, and whether an instruction of positive
// weight lies on a cycle (then no number bounds it).
//
// It condenses the control-flow graph into strongly connected components
// (Tarjan) and takes the longest path through the resulting DAG.
func MostWeight(fn *ssa.Function, weights map[ssa.Instruction]int) (int, bool) {
	if len(weights) == 0 || len(fn.Blocks) == 0 {
		return 0, false
	}
	comp := SCCs(fn)
	n := 0
	for _, c := range comp {
		n = max(n, c+1)
	}
	weight := make([]int, n)
	size := make([]int, n)
	for _, b := range fn.Blocks {
		size[comp[b.Index]]++
		for _, instr := range b.Instrs {
			weight[comp[b.Index]] += weights[instr]
		}
	}
	for _, b := range fn.Blocks {
		c := comp[b.Index]
		if weight[c] == 0 {
			continue
		}
		if size[c] > 1 {
			return 0, true
		}
		for _, s := range b.Succs {
			if s == b {
				return 0, true
			}
		}
	}
	// Tarjan numbers components in reverse topological order: a
	// component's successors have smaller numbers.
	best := make([]int, n)
	for c := 0; c < n; c++ {
		best[c] = weight[c]
	}
	succs := make([][]int, n)
	for _, b := range fn.Blocks {
		for _, s := range b.Succs {
			if comp[s.Index] != comp[b.Index] {
				succs[comp[b.Index]] = append(succs[comp[b.Index]], comp[s.Index])
			}
		}
	}
	for c := 0; c < n; c++ {
		for _, s := range succs[c] {
			best[c] = max(best[c], weight[c]+best[s])
		}
	}
	return best[comp[fn.Blocks[0].Index]], false
}

// LeastWeight returns the smallest total weight of the instructions on a
// path from fn's entry to a return, or, if no return is reachable, the
// weight of no path at all (0).
func LeastWeight(fn *ssa.Function, weights map[ssa.Instruction]int) int {
	if len(fn.Blocks) == 0 {
		return 0
	}
	blockWeight := func(b *ssa.BasicBlock) int {
		w := 0
		for _, instr := range b.Instrs {
			w += weights[instr]
		}
		return w
	}
	dist := make([]int, len(fn.Blocks))
	for i := range dist {
		dist[i] = -1
	}
	entry := fn.Blocks[0]
	dist[entry.Index] = blockWeight(entry)
	work := []*ssa.BasicBlock{entry}
	for len(work) > 0 { // weights are small and non-negative: relax until stable
		b := work[0]
		work = work[1:]
		for _, s := range b.Succs {
			d := dist[b.Index] + blockWeight(s)
			if dist[s.Index] < 0 || d < dist[s.Index] {
				dist[s.Index] = d
				work = append(work, s)
			}
		}
	}
	best := -1
	for _, b := range fn.Blocks {
		if _, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return); ok && dist[b.Index] >= 0 {
			if best < 0 || dist[b.Index] < best {
				best = dist[b.Index]
			}
		}
	}
	return max(best, 0)
}
