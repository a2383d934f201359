package ssacfg

import (
	"go/token"
	"slices"

	"golang.org/x/tools/go/ssa"

	"github.com/admitlint/admitlint/internal/match"
)

// A SyncKey identifies a WaitGroup, errgroup or mutex within a function:
// the value of its address, or, for a field, the struct's address and the
// field's index, since each c.mu is an instruction of its own.
type SyncKey struct {
	Base   ssa.Value
	Field  int  // -1: Base is the address itself
	Loaded bool // the struct's address is loaded from Base (a variable a closure shares)
}

// KeyOf returns the key of the address v, in v's function.
func KeyOf(v ssa.Value) SyncKey {
	fa, ok := v.(*ssa.FieldAddr)
	if !ok {
		return SyncKey{v, -1, false}
	}
	return KeyOfField(fa.X, fa.Field)
}

// KeyOfField returns the key of field of the struct at address x.
func KeyOfField(x ssa.Value, field int) SyncKey {
	if load, ok := x.(*ssa.UnOp); ok && load.Op == token.MUL {
		return SyncKey{load.X, field, true}
	}
	return SyncKey{x, field, false}
}

// LockCall returns the mutex instr locks, and whether for writing, if
// instr is a plain call of Lock or RLock.
func LockCall(instr ssa.Instruction) (mu ssa.Value, write, ok bool) {
	call, isCall := instr.(*ssa.Call)
	if !isCall || len(call.Call.Args) == 0 {
		return nil, false, false
	}
	locks, write := match.MutexLock(match.Callee(call))
	return call.Call.Args[0], write, locks
}

// Unlocks reports whether instr is a plain call unlocking the mutex k
// (Unlock or RUnlock); a deferred one is not, as it runs only on return.
func Unlocks(instr ssa.Instruction, k SyncKey) bool {
	call, ok := instr.(*ssa.Call)
	if !ok || len(call.Call.Args) == 0 || KeyOf(call.Call.Args[0]) != k {
		return false
	}
	fn := match.Callee(call)
	return match.IsMethod(fn, "sync", "Mutex", "Unlock") || match.IsMethod(fn, "sync", "RWMutex", "Unlock", "RUnlock")
}

// LockedAt reports whether at can run after lock, a call locking mu, on a
// path that does not unlock the same mutex.
func LockedAt(lock ssa.Instruction, mu ssa.Value, at ssa.Instruction) bool {
	k := KeyOf(mu)
	return ReachableFrom(lock, func(instr ssa.Instruction) bool { return instr == at },
		func(instr ssa.Instruction) bool { return Unlocks(instr, k) })
}

// HeldAt returns a call of at's function that locks a mutex still held
// when at runs (at can run after it on a path that does not unlock that
// mutex), or nil: c.mu.Lock(); defer c.mu.Unlock(); for … { go … }.
func HeldAt(at ssa.Instruction) *ssa.Call {
	for _, b := range at.Parent().Blocks {
		for _, instr := range b.Instrs {
			if mu, _, ok := LockCall(instr); ok && LockedAt(instr, mu, at) {
				return instr.(*ssa.Call)
			}
		}
	}
	return nil
}

// ReachableFrom reports whether an instruction for which hit holds can
// run after from, in from's function, on a path that passes no
// instruction for which stop holds (stop may be nil).
func ReachableFrom(from ssa.Instruction, hit, stop func(ssa.Instruction) bool) bool {
	seen := map[*ssa.BasicBlock]bool{}
	var scan func(b *ssa.BasicBlock, instrs []ssa.Instruction) bool
	scan = func(b *ssa.BasicBlock, instrs []ssa.Instruction) bool {
		for _, instr := range instrs {
			if hit(instr) {
				return true
			}
			if stop != nil && stop(instr) {
				return false
			}
		}
		for _, succ := range b.Succs {
			if !seen[succ] {
				seen[succ] = true
				if scan(succ, succ.Instrs) {
					return true
				}
			}
		}
		return false
	}
	b := from.Block()
	return scan(b, b.Instrs[slices.Index(b.Instrs, from)+1:])
}
