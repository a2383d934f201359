// Package ssacfg answers questions about the control-flow graph of an SSA
// function that more than one pass asks: which blocks form loops, and
// how much weight a path through them can carry, which block a select
// case runs, and which mutex is still held when an instruction runs.
package ssacfg

import "golang.org/x/tools/go/ssa"

// SCCs returns, for each block index of fn, the number of the strongly
// connected component the block belongs to, numbered in the order
// Tarjan's algorithm completes them: a component's successors outside it
// have smaller numbers (reverse topological order).
func SCCs(fn *ssa.Function) []int {
	return components(len(fn.Blocks), func(v int, visit func(int)) {
		for _, s := range fn.Blocks[v].Succs {
			visit(s.Index)
		}
	})
}

// components numbers the strongly connected components of a graph of n
// nodes whose edges succs enumerates, as SCCs does for blocks.
func components(n int, succs func(v int, each func(w int))) []int {
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
		succs(v, func(w int) {
			if index[w] < 0 {
				visit(w)
				low[v] = min(low[v], low[w])
			} else if onStack[w] {
				low[v] = min(low[v], index[w])
			}
		})
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

// A Loop is a natural loop of a function's control-flow graph: a header
// that dominates every block of the loop, entered only through it.
type Loop struct {
	Header *ssa.BasicBlock
	Blocks []bool // indexed by block index
	Size   int    // the number of its blocks
}

// Has reports whether block b belongs to the loop.
func (l *Loop) Has(b *ssa.BasicBlock) bool { return l.Blocks[b.Index] }

// Loops returns fn's natural loops, one per header.
func Loops(fn *ssa.Function) []*Loop {
	var loops []*Loop
	byHeader := map[*ssa.BasicBlock]*Loop{}
	for _, b := range fn.Blocks {
		for _, h := range b.Succs {
			if !h.Dominates(b) {
				continue
			}
			l := byHeader[h]
			if l == nil {
				l = &Loop{Header: h, Blocks: make([]bool, len(fn.Blocks))}
				l.Blocks[h.Index] = true
				l.Size = 1
				byHeader[h] = l
				loops = append(loops, l)
			}
			// The blocks that reach the back edge without passing the
			// header belong to the loop.
			stack := []*ssa.BasicBlock{b}
			for len(stack) > 0 {
				x := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				if l.Blocks[x.Index] {
					continue
				}
				l.Blocks[x.Index] = true
				l.Size++
				stack = append(stack, x.Preds...)
			}
		}
	}
	return loops
}

// precedes reports whether instruction a runs before b on every path to
// b: earlier in their common block, or in a block that dominates b's.
func precedes(a, b ssa.Instruction) bool {
	ab, bb := a.Block(), b.Block()
	if ab != bb {
		return ab.Dominates(bb)
	}
	for _, x := range ab.Instrs {
		switch x {
		case a:
			return true
		case b:
			return false
		}
	}
	return false
}
