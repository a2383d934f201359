package waitpath

import (
	"go/token"
	"slices"

	"golang.org/x/tools/go/ssa"

	"github.com/admitlint/admitlint/internal/match"
)

// findPeers finds, for each start whose senders await values of Fn
// (Start.Awaits), the calls of Fn aimed at one of those values: the step
// the senders wait for, which Fn makes itself (it dials the address of
// the listener they accept on). Such a start is gated until the path
// makes one of those calls, and refused on the edge where the call
// reported failure: nothing came for the senders to deliver. A start
// whose awaited values Fn aims no call at keeps its sends pending from
// the start on: what it waits for comes from elsewhere.
func (s *search) findPeers() {
	for i, start := range s.q.Starts {
		if len(start.Awaits) == 0 {
			continue
		}
		bit := uint64(1) << i
		for _, b := range s.q.Fn.Blocks {
			for _, instr := range b.Instrs {
				call, ok := instr.(*ssa.Call)
				if !ok || !aimedAt(call, start.Awaits) {
					continue
				}
				s.awaited |= bit
				s.peerAt[call] |= bit
				if v := lastResult(call); v != nil {
					onFailure(v, func(cond *ssa.If, succ int) { s.refuse(cond, succ, bit) })
				}
			}
		}
	}
}

// aimedAt reports whether call takes, as an argument other than its
// receiver, a value computed from one of awaits by a call of its methods
// (l.Addr(), l.Addr().String()): a step towards that value, not a call
// on it.
func aimedAt(call *ssa.Call, awaits []ssa.Value) bool {
	args := call.Call.Args
	if recv := match.Receiver(call.Common()); recv != nil {
		if isAwaited(recv, awaits) {
			return false // a method of the awaited value itself
		}
		if !call.Call.IsInvoke() {
			args = args[1:]
		}
	}
	for _, arg := range args {
		if derivedFrom(arg, awaits, 0) {
			return true
		}
	}
	return false
}

// maxDerive bounds the steps derivedFrom follows back from a value.
const maxDerive = 6

// derivedFrom reports whether v is the result of a method call on one of
// awaits, or is computed from such a result by further method calls,
// conversions, type assertions, field reads and result extractions.
func derivedFrom(v ssa.Value, awaits []ssa.Value, depth int) bool {
	if depth > maxDerive {
		return false
	}
	next := func(x ssa.Value) bool { return derivedFrom(x, awaits, depth+1) }
	if x := match.Converted(v); x != nil {
		return next(x)
	}
	switch v := v.(type) {
	case *ssa.Call:
		recv := match.Receiver(v.Common())
		return recv != nil && (isAwaited(recv, awaits) || next(recv))
	case *ssa.Extract:
		return next(v.Tuple)
	case *ssa.TypeAssert:
		return next(v.X)
	case *ssa.Field:
		return next(v.X)
	case *ssa.FieldAddr:
		return next(v.X)
	case *ssa.UnOp:
		return v.Op == token.MUL && next(v.X)
	}
	return false
}

// isAwaited reports whether v is one of awaits, or a load of a variable
// that is one.
func isAwaited(v ssa.Value, awaits []ssa.Value) bool {
	if slices.Contains(awaits, v) {
		return true
	}
	load, ok := v.(*ssa.UnOp)
	return ok && load.Op == token.MUL && slices.Contains(awaits, load.X)
}
