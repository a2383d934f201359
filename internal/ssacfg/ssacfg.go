// Package ssacfg answers questions about the control-flow graph of an SSA
// function that more than one pass asks: which blocks form loops.
package ssacfg

import "golang.org/x/tools/go/ssa"

// SCCs returns, for each block index of fn, the number of the strongly
// connected component the block belongs to, numbered in the order
// Tarjan's algorithm completes them: a component's successors outside it
// have smaller numbers (reverse topological order).
func SCCs(fn *ssa.Function) []int {
	n := len(fn.Blocks)
	index := make([]int, n)
	low := make([]int, n)
	onStack := make([]bool, n)
	comp := make([]int, n)
	for i := range index {
		index[i] = -1
	}
	var stack []int
	next, count := 0, 0
	var visit func(v int)
	visit = func(v int) {
		index[v], low[v] = next, next
		next++
		stack = append(stack, v)
		onStack[v] = true
		for _, s := range fn.Blocks[v].Succs {
			w := s.Index
			if index[w] < 0 {
				visit(w)
				low[v] = min(low[v], low[w])
			} else if onStack[w] {
				low[v] = min(low[v], index[w])
			}
		}
		if low[v] == index[v] {
			for {
				w := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				onStack[w] = false
				comp[w] = count
				if w == v {
					break
				}
			}
			count++
		}
	}
	for v := range n {
		if index[v] < 0 {
			visit(v)
		}
	}
	return comp
}

// OnCycle returns, for each block index of fn, whether the block lies on a
// cycle of the control-flow graph: its component has another block, or the
// block is its own successor.
func OnCycle(fn *ssa.Function) []bool {
	comp := SCCs(fn)
	size := make([]int, len(fn.Blocks))
	for _, c := range comp {
		size[c]++
	}
	result := make([]bool, len(fn.Blocks))
	for i, b := range fn.Blocks {
		result[i] = size[comp[i]] > 1
		for _, s := range b.Succs {
			if s == b {
				result[i] = true
			}
		}
	}
	return result
}
