package replyfields

import (
	"go/token"
	"go/types"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/admitlint/admitlint/internal/ssacfg"
	"github.com/admitlint/admitlint/passes/strandedsend/internal/chanuse"
	"github.com/admitlint/admitlint/passes/strandedsend/internal/waitpath"
)

// A Taker is a requester that takes exactly one reply: it makes an
// unbuffered channel for a request's field, hands the request over, and
// then receives from the channel once, on every path, before it leaves.
// A replier that answers one request twice blocks forever on its second
// answer.
type Taker struct {
	Func string    // the requester, such as "(*Store).Lookup"
	Make token.Pos // its make
	Recv token.Pos // its one receive
}

// takers returns, for each channel field of the package's own structs
// that no other package can set (the field or its struct is
// unexported), the requesters giving it a channel, when every channel
// the package stores in that field is made by one (see takesOne); the
// requesters are in source order.
func takers(pass *analysis.Pass, funcs []*ssa.Function) map[*types.Var][]*Taker {
	found := map[*types.Var][]*Taker{}
	bad := map[*types.Var]bool{}
	for _, fn := range funcs {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				st, ok := instr.(*ssa.Store)
				if !ok {
					continue
				}
				fa, ok := st.Addr.(*ssa.FieldAddr)
				if !ok {
					continue
				}
				field := chanuse.FieldOf(fa)
				if field == nil || field.Pkg() != pass.Pkg || !chanuse.IsChan(field.Type()) || !privateField(fa, field) {
					continue
				}
				if t := takesOne(pass, st); t != nil {
					found[field] = append(found[field], t)
				} else {
					bad[field] = true
				}
			}
		}
	}
	for field := range bad {
		delete(found, field)
	}
	return found
}

// privateField reports whether only the package can set field: the
// field is unexported, or the struct it belongs to is a type the
// package does not export.
func privateField(fa *ssa.FieldAddr, field *types.Var) bool {
	if !field.Exported() {
		return true
	}
	ptr, ok := fa.X.Type().Underlying().(*types.Pointer)
	if !ok {
		return false
	}
	named, ok := types.Unalias(ptr.Elem()).(*types.Named)
	return ok && !named.Obj().Exported()
}

// takesOne returns the requester st's function is when st stores an
// unbuffered channel it makes into a request that it hands over (see
// traceRequest), and the function then receives from that channel
// exactly once, with no way to leave before receiving and no loop
// around the receive; nil otherwise.
func takesOne(pass *analysis.Pass, st *ssa.Store) *Taker {
	mk, ok := st.Val.(*ssa.MakeChan)
	if !ok {
		return nil
	}
	req, u := handedOver(mk)
	if req == nil || req.field.Store != st {
		return nil
	}
	fn := mk.Parent()
	if len(u.Recvs) != 1 || len(u.RecvCases) != 0 || ssacfg.OnCycle(fn)[u.Recvs[0].Block().Index] {
		return nil
	}
	q := &waitpath.Query{Fn: fn, Info: pass.TypesInfo, Made: mk, Chans: u.Values, Starts: req.handoffs}
	if waitpath.Find(q) != nil {
		return nil // it can leave first: a maker (checkMake), not a taker of one
	}
	return &Taker{Func: funcName(fn), Make: mk.Pos(), Recv: u.Recvs[0].Pos()}
}
