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
