package ssacfg

import "golang.org/x/tools/go/ssa"

// GuardedBy reports whether block b runs only on an edge of an if that
// ok accepts: ok(cond, i) for the if's condition and the successor i
// that leads to b.
func GuardedBy(b *ssa.BasicBlock, ok func(cond ssa.Value, succ int) bool) bool {
	for d := b; d != nil; d = d.Idom() {
		idom := d.Idom()
		if idom == nil || len(d.Preds) != 1 {
			continue
		}
		cond, isIf := idom.Instrs[len(idom.Instrs)-1].(*ssa.If)
		if !isIf {
			continue
		}
		for i, succ := range idom.Succs {
			if succ == d && ok(cond.Cond, i) {
				return true
			}
		}
	}
	return false
}

// RepeatsByKind reports whether every weighted instruction of fn that
// lies on a cycle runs only for one kind of value met on that cycle:
// under a comma-ok type assertion tested on the same cycle, as each case
// of a type switch in a loop is.
//
//	for {
//		switch m := recv().(type) {
//		case *Started:
//			started <- m // once per *Started the loop receives
//		…
func RepeatsByKind(fn *ssa.Function, weights map[ssa.Instruction]int) bool {
	comp, cyclic := SCCs(fn), OnCycle(fn)
	for instr, w := range weights {
		b := instr.Block()
		if w == 0 || !cyclic[b.Index] {
			continue
		}
		byKind := GuardedBy(b, func(cond ssa.Value, succ int) bool {
			ok, isExtract := cond.(*ssa.Extract)
			if !isExtract || ok.Index != 1 || succ != 0 || comp[ok.Block().Index] != comp[b.Index] {
				return false
			}
			assert, isAssert := ok.Tuple.(*ssa.TypeAssert)
			return isAssert && assert.CommaOk
		})
		if !byKind {
			return false
		}
	}
	return true
}
