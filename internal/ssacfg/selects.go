package ssacfg

import (
	"go/constant"
	"go/token"

	"golang.org/x/tools/go/ssa"
)

// CaseBody returns the block that runs when select sel takes its case i
// (an index in sel.States), or nil if it cannot be found.
func CaseBody(sel *ssa.Select, i int) *ssa.BasicBlock {
	if br := CaseIf(sel, i); br != nil {
		return br.Block().Succs[0]
	}
	return nil
}

// CaseIf returns the if of sel's dispatch chain that leads to its case i
// (an index in sel.States), or nil if it cannot be found. go/ssa
// compares the select's chosen index with each case in turn:
//
//	t1 = select blocking [ch<-v, <-tick.C] (index int, ok bool, …)
//	t2 = extract t1 #0
//	t3 = t2 == 0:int
//	if t3 goto 2 else 3   // 2: select.body of case 0
func CaseIf(sel *ssa.Select, i int) *ssa.If {
	for _, ref := range *sel.Referrers() {
		idx, ok := ref.(*ssa.Extract)
		if !ok || idx.Index != 0 {
			continue
		}
		for _, r := range *idx.Referrers() {
			cmp, ok := r.(*ssa.BinOp)
			if !ok || cmp.Op != token.EQL || cmp.X != idx {
				continue
			}
			if c, ok := cmp.Y.(*ssa.Const); !ok || !isInt(c, i) {
				continue
			}
			for _, u := range *cmp.Referrers() {
				if br, ok := u.(*ssa.If); ok {
					return br
				}
			}
		}
	}
	return nil
}

// isInt reports whether the integer constant c is i (a nil value is the
// zero value).
func isInt(c *ssa.Const, i int) bool {
	if c.Value == nil {
		return i == 0
	}
	if c.Value.Kind() != constant.Int {
		return false
	}
	v, exact := constant.Int64Val(c.Value)
	return exact && v == int64(i)
}
