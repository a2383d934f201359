package ssacfg

import "golang.org/x/tools/go/ssa"

// Stores returns the values stored into the variable alloc (a captured
// local, a parameter moved to the heap), in the order of alloc's
// referrers.
func Stores(alloc *ssa.Alloc) []ssa.Value {
	var vals []ssa.Value
	for _, ref := range *alloc.Referrers() {
		if st, ok := ref.(*ssa.Store); ok && st.Addr == alloc {
			vals = append(vals, st.Val)
		}
	}
	return vals
}

// Binding returns the value of the enclosing function that fv, a free
// variable of an anonymous function, is bound to, when the enclosing
// function makes that closure exactly once; otherwise nil.
func Binding(fv *ssa.FreeVar) ssa.Value {
	fn := fv.Parent()
	if fn == nil || fn.Parent() == nil {
		return nil
	}
	i := -1
	for k, v := range fn.FreeVars {
		if v == fv {
			i = k
		}
	}
	var bound ssa.Value
	for _, b := range fn.Parent().Blocks {
		for _, instr := range b.Instrs {
			mc, ok := instr.(*ssa.MakeClosure)
			if !ok || mc.Fn != fn || i < 0 || i >= len(mc.Bindings) {
				continue
			}
			if bound != nil {
				return nil
			}
			bound = mc.Bindings[i]
		}
	}
	return bound
}
