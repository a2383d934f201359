package ssacfg

import (
	"slices"

	"golang.org/x/tools/go/ssa"
)

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

// MostWeightBetween returns the largest total weight of the instructions
// on a stretch of a path of fn that passes no barrier: from the entry, or
// from just after a barrier, up to the next barrier or the path's end.
// It reports false when a cycle that passes no barrier carries weight:
// the stretch is then unbounded.
//
//	for {
//		if err != nil {
//			errs <- err // weighted
//		}
//		conns <- conn // a barrier
//	}
//
// Here each stretch holds one send on errs: however often the loop
// turns, the goroutine sends once on errs per pass through conns.
func MostWeightBetween(fn *ssa.Function, weights map[ssa.Instruction]int, barriers map[ssa.Instruction]bool) (int, bool) {
	if len(fn.Blocks) == 0 {
		return 0, true
	}
	// Each block is cut into pieces after each barrier: piece k of a
	// block runs from just after its k-th barrier (or its start) to its
	// next barrier, which ends the piece and the stretch.
	first := make([]int, len(fn.Blocks)) // the node of each block's first piece
	var weight []int
	var ends []bool  // the piece ends at a barrier
	var starts []int // the nodes a stretch starts at
	for _, b := range fn.Blocks {
		first[b.Index] = len(weight)
		weight, ends = append(weight, 0), append(ends, false)
		for _, instr := range b.Instrs {
			weight[len(weight)-1] += weights[instr]
			if barriers[instr] {
				ends[len(ends)-1] = true
				starts = append(starts, len(weight))
				weight, ends = append(weight, 0), append(ends, false)
			}
		}
	}
	last := func(b *ssa.BasicBlock) int { // the node of a block's last piece
		if b.Index+1 < len(fn.Blocks) {
			return first[b.Index+1] - 1
		}
		return len(weight) - 1
	}
	succs := make([][]int, len(weight))
	for _, b := range fn.Blocks {
		// The pieces of one block are joined only by their barriers,
		// which end stretches: only the last piece flows on.
		if v := last(b); !ends[v] {
			for _, s := range b.Succs {
				succs[v] = append(succs[v], first[s.Index])
			}
		}
	}
	comp := components(len(weight), func(v int, each func(int)) {
		for _, w := range succs[v] {
			each(w)
		}
	})
	n := 0
	for _, c := range comp {
		n = max(n, c+1)
	}
	cw, members := make([]int, n), make([][]int, n)
	for v, c := range comp {
		cw[c] += weight[v]
		members[c] = append(members[c], v)
	}
	for v, c := range comp {
		if cw[c] == 0 {
			continue
		}
		if len(members[c]) > 1 || slices.Contains(succs[v], v) {
			return 0, false
		}
	}
	best := slices.Clone(cw)
	for c := 0; c < n; c++ { // successors have smaller numbers
		for _, v := range members[c] {
			for _, w := range succs[v] {
				if comp[w] != c {
					best[c] = max(best[c], cw[c]+best[comp[w]])
				}
			}
		}
	}
	most := best[comp[first[0]]]
	for _, v := range starts {
		most = max(most, best[comp[v]])
	}
	return most, true
}
