package replyfields

import (
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/admitlint/admitlint/passes/strandedsend/internal/chanuse"
	"github.com/admitlint/admitlint/passes/strandedsend/internal/waitpath"
)

// interruptedBy returns the field of the request through which only its
// taker can make the requester skip the reply, when that is the only
// way the requester's leave q found strands the reply's sender: the
// request carries a method value (interrupt: w.interrupt) whose method
// closes a channel field of its receiver, the requester waits on that
// channel instead of the reply, and nothing else sends on or closes it
// or calls the method. A taker that never calls the field cannot be
// skipped (validation set 22, tunny: Process sends the payload plainly,
// ProcessTimed interrupts and its own send gives up).
func interruptedBy(funcs []*ssa.Function, base *ssa.Alloc, q *waitpath.Query, handoffs []waitpath.Start) *types.Var {
	if len(handoffs) != 1 {
		return nil
	}
	for _, ref := range *base.Referrers() {
		fa, ok := ref.(*ssa.FieldAddr)
		if !ok {
			continue
		}
		mc, method := storedMethodValue(fa)
		if method == nil {
			continue
		}
		withdrawn := map[ssa.Value]ssa.Instruction{}
		for _, k := range closedFields(method) {
			if !onlyClosedBy(funcs, k, method, mc) {
				continue
			}
			for _, v := range caseLoads(q.Fn, k) {
				withdrawn[v] = handoffs[0].Instr
			}
		}
		if len(withdrawn) == 0 {
			continue
		}
		again := *q
		again.Withdrawn = withdrawn
		if waitpath.Find(&again) == nil {
			return chanuse.FieldOf(fa)
		}
	}
	return nil
}

// storedMethodValue returns the bound method value stored in field fa,
// and its method.
func storedMethodValue(fa *ssa.FieldAddr) (*ssa.MakeClosure, *ssa.Function) {
	for _, ref := range *fa.Referrers() {
		st, ok := ref.(*ssa.Store)
		if !ok || st.Addr != fa {
			continue
		}
		mc, ok := st.Val.(*ssa.MakeClosure)
		if !ok || len(mc.Bindings) != 1 {
			return nil, nil
		}
		thunk, ok := mc.Fn.(*ssa.Function)
		if !ok || !strings.HasPrefix(thunk.Synthetic, "bound method wrapper") {
			return nil, nil
		}
		for _, b := range thunk.Blocks {
			for _, instr := range b.Instrs {
				if call, ok := instr.(ssa.CallInstruction); ok {
					if m := call.Common().StaticCallee(); m != nil {
						return mc, m
					}
				}
			}
		}
	}
	return nil, nil
}

// closedFields returns the channel fields of its receiver that method
// closes.
func closedFields(method *ssa.Function) []*types.Var {
	if len(method.Params) == 0 {
		return nil
	}
	recv := method.Params[0]
	var fields []*types.Var
	for _, b := range method.Blocks {
		for _, instr := range b.Instrs {
			if k := closeOf(instr); k != nil && k.X == recv {
				fields = append(fields, chanuse.FieldOf(k))
			}
		}
	}
	return fields
}

// closeOf returns the field address whose channel instr closes, if instr
// is close(x.f).
func closeOf(instr ssa.Instruction) *ssa.FieldAddr {
	call, ok := instr.(*ssa.Call)
	if !ok {
		return nil
	}
	if b, ok := call.Call.Value.(*ssa.Builtin); !ok || b.Name() != "close" || len(call.Call.Args) != 1 {
		return nil
	}
	load, ok := call.Call.Args[0].(*ssa.UnOp)
	if !ok {
		return nil
	}
	fa, _ := load.X.(*ssa.FieldAddr)
	return fa
}

// onlyClosedBy reports whether, in funcs (the package), channel field k
// is closed only by method and sent on by no one, method is called only
// by its bound wrapper, and that wrapper is made into a value only by
// mc.
func onlyClosedBy(funcs []*ssa.Function, k *types.Var, method *ssa.Function, mc *ssa.MakeClosure) bool {
	for _, fn := range funcs {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				switch instr := instr.(type) {
				case *ssa.Send:
					if loadsField(instr.Chan, k) {
						return false
					}
				case *ssa.Select:
					for _, st := range instr.States {
						if st.Dir == types.SendOnly && loadsField(st.Chan, k) {
							return false
						}
					}
				case *ssa.MakeClosure:
					if instr != mc && instr.Fn == mc.Fn {
						return false
					}
				}
				if fa := closeOf(instr); fa != nil && chanuse.FieldOf(fa) == k && fn != method {
					return false
				}
				if call, ok := instr.(ssa.CallInstruction); ok && call.Common().StaticCallee() == method && fn != mc.Fn {
					return false
				}
			}
		}
	}
	return true
}

// loadsField reports whether v is a load of field k.
func loadsField(v ssa.Value, k *types.Var) bool {
	load, ok := v.(*ssa.UnOp)
	if !ok {
		return false
	}
	fa, ok := load.X.(*ssa.FieldAddr)
	return ok && chanuse.FieldOf(fa) == k
}

// caseLoads returns the loads of field k that fn's selects receive from.
func caseLoads(fn *ssa.Function, k *types.Var) []ssa.Value {
	var vals []ssa.Value
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			sel, ok := instr.(*ssa.Select)
			if !ok {
				continue
			}
			for _, st := range sel.States {
				if st.Dir == types.RecvOnly && loadsField(st.Chan, k) && !slices.Contains(vals, st.Chan) {
					vals = append(vals, st.Chan)
				}
			}
		}
	}
	return vals
}
