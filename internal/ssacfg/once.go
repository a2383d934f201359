package ssacfg

import (
	"go/constant"
	"go/token"
	"slices"

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
	return reached([]*ssa.BasicBlock{b}, h)
}

// Reached returns the blocks reached from those of from, them included.
func Reached(from []*ssa.BasicBlock) map[*ssa.BasicBlock]bool {
	return reached(from, nil)
}

func reached(from []*ssa.BasicBlock, avoid *ssa.BasicBlock) map[*ssa.BasicBlock]bool {
	seen := map[*ssa.BasicBlock]bool{}
	stack := slices.Clone(from)
	for _, b := range from {
		seen[b] = true
	}
	for len(stack) > 0 {
		x := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, s := range x.Succs {
			if s != avoid && !seen[s] {
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

// OnceByVariable reports whether instr runs at most once in a run of fn
// under a flag kept in a variable rather than carried by a loop (a
// variable a closure captures, or one a range-over-func loop's body
// sets): instr's block runs only while the variable is false, it or a
// block on every way to it from that test sets the variable to true, it
// cannot run again without passing the test, and nothing but the
// variable's declaration, made once in fn outside its loops, sets it to
// false. instr is in fn itself or in the body of a range-over-func loop
// of fn, which its iterator calls one element at a time.
//
//	seen := false
//	for line := range strings.Lines(out) {
//		if line == "READY\n" && !seen {
//			seen = true
//			ready <- true // at most once
//		}
//	}
func OnceByVariable(instr ssa.Instruction, fn *ssa.Function) bool {
	for g := instr.Parent(); g != fn; g = g.Parent() {
		if g == nil || !IsYieldBody(g) {
			return false
		}
	}
	var cyclic []bool // fn's blocks on a cycle, once a variable is met
	b := instr.Block()
	for d := b; d != nil; d = d.Idom() {
		test := d.Idom()
		if test == nil || len(d.Preds) != 1 || len(test.Succs) != 2 || test.Succs[1] != d {
			continue // not the else edge of an if
		}
		cond, ok := test.Instrs[len(test.Instrs)-1].(*ssa.If)
		if !ok {
			continue
		}
		load, ok := cond.Cond.(*ssa.UnOp)
		if !ok || load.Op != token.MUL {
			continue
		}
		cell := Variable(load.X)
		if cell == nil || cell.Parent() != fn {
			continue
		}
		if cyclic == nil {
			cyclic = OnCycle(fn)
		}
		if !cyclic[cell.Block().Index] && setOnTheWay(b, d, cell) && !repeatsAvoiding(b, test) && onlySetTrue(cell) {
			return true
		}
	}
	return false
}

// Variable returns the local variable v addresses: v itself when it is
// one (an Alloc), or the variable a closure captured as the free
// variable v, through any number of enclosing closures; nil otherwise.
func Variable(v ssa.Value) *ssa.Alloc {
	for {
		switch x := v.(type) {
		case *ssa.Alloc:
			return x
		case *ssa.FreeVar:
			bound := Binding(x)
			if bound == nil {
				return nil
			}
			v = bound
		default:
			return nil
		}
	}
}

// ClosureOf returns the function a call of v runs when v is a closure
// made in view: a MakeClosure, or a load of a variable (local or
// captured) that is only ever set to one; nil otherwise.
//
//	run := func() <-chan error { … }
//	wait := func() error { return <-run() } // calls the closure of run
func ClosureOf(v ssa.Value) *ssa.Function {
	switch x := v.(type) {
	case *ssa.MakeClosure:
		return x.Fn.(*ssa.Function)
	case *ssa.UnOp:
		if x.Op != token.MUL {
			return nil
		}
		if cell := Variable(x.X); cell != nil {
			if mc, ok := storedOnce(cell).(*ssa.MakeClosure); ok {
				return mc.Fn.(*ssa.Function)
			}
		}
	}
	return nil
}

// OnlyCalled reports whether the closure mc is only ever called: by its
// function, or kept in a variable set only to it whose every load, in
// its function and in the closures capturing it, is called.
func OnlyCalled(mc *ssa.MakeClosure) bool {
	for _, ref := range *mc.Referrers() {
		switch ref := ref.(type) {
		case *ssa.Call:
			if ref.Call.Value != mc || slices.Contains(ref.Call.Args, ssa.Value(mc)) {
				return false
			}
		case *ssa.Store:
			cell, ok := ref.Addr.(*ssa.Alloc)
			if !ok || ref.Val != mc || storedOnce(cell) != mc || !loadsCalled(cell) {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// storedOnce returns the one value ever stored in cell, when it is
// only stored once and otherwise only loaded or captured; nil otherwise.
func storedOnce(cell *ssa.Alloc) ssa.Value {
	var val ssa.Value
	ok := walkVariable(cell, func(ref ssa.Instruction, addr ssa.Value) bool {
		switch ref := ref.(type) {
		case *ssa.Store:
			if ref.Addr != addr || val != nil {
				return false
			}
			val = ref.Val
			return true
		case *ssa.UnOp:
			return ref.Op == token.MUL
		case *ssa.DebugRef:
			return true
		}
		return false
	})
	if !ok {
		return nil
	}
	return val
}

// KeptValue returns the one value the variable cell ever holds: it is
// stored once (storedOnce), in cell's own function, before each load
// there and before any closure captures it. A variable declared without
// a value and set on one branch holds its zero value until then, so the
// store must come first. Nil otherwise.
func KeptValue(cell *ssa.Alloc) ssa.Value {
	val := storedOnce(cell)
	if val == nil {
		return nil
	}
	var store *ssa.Store
	for _, ref := range *cell.Referrers() {
		if st, ok := ref.(*ssa.Store); ok {
			store = st
		}
	}
	if store == nil {
		return nil // stored by a closure: not before the reads
	}
	for _, ref := range *cell.Referrers() {
		switch ref.(type) {
		case *ssa.UnOp, *ssa.MakeClosure:
			if !precedes(store, ref) {
				return nil
			}
		}
	}
	return val
}

// loadsCalled reports whether every load of cell is only called.
func loadsCalled(cell *ssa.Alloc) bool {
	return walkVariable(cell, func(ref ssa.Instruction, _ ssa.Value) bool {
		load, ok := ref.(*ssa.UnOp)
		if !ok {
			return true // the store, checked by storedOnce
		}
		for _, use := range *load.Referrers() {
			call, ok := use.(*ssa.Call)
			if !ok || call.Call.Value != load || slices.Contains(call.Call.Args, ssa.Value(load)) {
				return false
			}
		}
		return true
	})
}

// walkVariable calls f for each use of the variable cell, in its
// function and in the closures capturing it (with the address it is
// used through: cell, or the closure's free variable), but for the
// captures themselves; it stops and returns false when f does.
func walkVariable(cell *ssa.Alloc, f func(ref ssa.Instruction, addr ssa.Value) bool) bool {
	var visit func(v ssa.Value) bool
	visit = func(v ssa.Value) bool {
		for _, ref := range *v.Referrers() {
			if mc, ok := ref.(*ssa.MakeClosure); ok {
				fn := mc.Fn.(*ssa.Function)
				for i, bound := range mc.Bindings {
					if bound == v && !visit(fn.FreeVars[i]) {
						return false
					}
				}
				continue
			}
			if !f(ref, v) {
				return false
			}
		}
		return true
	}
	return visit(cell)
}

// setOnTheWay reports whether a store of true to cell is in b or in a
// block on the dominator path from d down to b: every run of b has set
// the variable by the time it ends.
func setOnTheWay(b, d *ssa.BasicBlock, cell *ssa.Alloc) bool {
	for x := b; x != nil; x = x.Idom() {
		for _, instr := range x.Instrs {
			if st, ok := instr.(*ssa.Store); ok && isBool(st.Val, true) && Variable(st.Addr) == cell {
				return true
			}
		}
		if x == d {
			break
		}
	}
	return false
}

// repeatsAvoiding reports whether b can run again without passing the
// block test first.
func repeatsAvoiding(b, test *ssa.BasicBlock) bool {
	return slices.ContainsFunc(b.Succs, func(s *ssa.BasicBlock) bool {
		return s != test && reachedAvoiding(s, test)[b]
	})
}

// onlySetTrue reports whether every store to cell, in its function and
// in the closures that capture it, stores true, but for stores of false
// in the block that declares it; and whether it is used only so (loaded,
// stored, captured), its address going nowhere else.
func onlySetTrue(cell *ssa.Alloc) bool {
	return walkVariable(cell, func(ref ssa.Instruction, addr ssa.Value) bool {
		switch ref := ref.(type) {
		case *ssa.Store:
			return ref.Addr == addr && (isBool(ref.Val, true) || isBool(ref.Val, false) && ref.Block() == cell.Block())
		case *ssa.UnOp:
			return ref.Op == token.MUL
		case *ssa.DebugRef:
			return true
		}
		return false
	})
}

// IsYieldBody reports whether fn is the body of a range-over-func loop:
// a closure with the loop's own instructions and positions, which the
// iterator calls once per element, synchronously, within its enclosing
// function's call of the iterator.
func IsYieldBody(fn *ssa.Function) bool {
	return fn.Synthetic == "range-over-func yield"
}
