package strandedsend

import (
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"

	"github.com/admitlint/admitlint/internal/match"
	"github.com/admitlint/admitlint/internal/spawn"
	"github.com/admitlint/admitlint/internal/ssacfg"
)

// waitsForSenders returns the test for waitpath.Query.Stalls: a call that
// waits for the goroutines sending on group g to finish, which they do
// only after their sends. It is the Wait of the errgroup.Group or
// sync.WaitGroup whose Go started them, or of a WaitGroup each of them
// marks Done with a deferred call or with a call after which it sends no
// more. Nil if no sender is such a goroutine.
//
//	var wg sync.WaitGroup
//	for _, j := range jobs {
//		wg.Add(1)
//		go func() {
//			defer wg.Done()
//			results <- run(j) // blocks: nothing receives until Wait returns
//		}()
//	}
//	wg.Wait()
//	for range jobs { … <-results … }
func waitsForSenders(sc *scope, g []int) func(ssa.CallInstruction) bool {
	waits := waitedGroups(sc, g)
	locks := heldLocks(sc, g)
	if len(waits) == 0 && len(locks) == 0 {
		return nil
	}
	return func(call ssa.CallInstruction) bool {
		if _, ok := call.(*ssa.Call); !ok {
			return false // a deferred Wait waits at the return, not here
		}
		fn := match.Callee(call)
		args := call.Common().Args
		if len(args) == 0 {
			return false
		}
		k := ssacfg.KeyOf(args[0])
		switch {
		case match.IsMethod(fn, match.ErrgroupPkg, "Group", "Wait"), match.IsMethod(fn, "sync", "WaitGroup", "Wait"):
			return waits[k]
		}
		if isLock, write := match.MutexLock(fn); isLock {
			return waitsForLock(locks, k, write)
		}
		if k, write, _, ok := locksFirst(call); ok {
			return waitsForLock(locks, k, write)
		}
		return false
	}
}

// waitsForLock reports whether locking k (for writing or not) waits for
// a sender holding it as locks says: a read lock waits only for a writer.
func waitsForLock(locks map[ssacfg.SyncKey]bool, k ssacfg.SyncKey, write bool) bool {
	heldForWriting, held := locks[k]
	return held && (write || heldForWriting)
}

// locksFirst returns the mutex, keyed in the caller, that the callee of
// call locks first thing (in its entry block, so on every path), on a
// field of its receiver or of a parameter: func (c *cache) size() int {
// c.mu.Lock(); defer c.mu.Unlock(); … }. write is false for RLock;
// param is the index of the parameter (the receiver first) whose field
// it locks.
func locksFirst(call ssa.CallInstruction) (k ssacfg.SyncKey, write bool, param int, ok bool) {
	callee := call.Common().StaticCallee()
	if callee == nil || callee.Blocks == nil || len(call.Common().Args) != len(callee.Params) {
		return ssacfg.SyncKey{}, false, 0, false
	}
	for _, instr := range callee.Blocks[0].Instrs {
		mu, write, isLock := ssacfg.LockCall(instr)
		fa, isField := mu.(*ssa.FieldAddr)
		if !isLock || !isField {
			continue
		}
		p, isParam := fa.X.(*ssa.Parameter)
		if !isParam {
			continue
		}
		i := slices.Index(callee.Params, p)
		return ssacfg.KeyOfField(call.Common().Args[i], fa.Field), write, i, true
	}
	return ssacfg.SyncKey{}, false, 0, false
}

// outerKey returns the key, in the function that starts the goroutine of
// site, of the address v of the goroutine's function (a free variable, a
// parameter, a field of either, or a global); false if v is not bound to
// a value there.
func outerKey(site *spawn.Site, v ssa.Value) (ssacfg.SyncKey, bool) {
	k := ssacfg.KeyOf(v)
	if _, global := k.Base.(*ssa.Global); global {
		return k, true
	}
	k.Base = outerValue(site, k.Base)
	return k, k.Base != nil
}

// waitedGroups returns the groups whose Wait waits for every sender on g
// to have made its sends; none if some sender is not waited for so.
func waitedGroups(sc *scope, g []int) map[ssacfg.SyncKey]bool {
	groups := map[ssacfg.SyncKey]bool{}
	for _, s := range sc.senders {
		if !s.touchesAny(g) {
			continue
		}
		k, ok := waitedBy(s.site)
		if !ok {
			return nil // a sender nobody waits for as a whole
		}
		groups[k] = true
	}
	return groups
}

// waitedBy returns the group, keyed in the function that starts the
// goroutine of site, whose Wait returns only once that goroutine has
// made its sends: the group whose Go started it, or the WaitGroup it
// marks Done in a deferred call or in a call after which it cannot send.
// It returns false for any other goroutine.
func waitedBy(site *spawn.Site) (ssacfg.SyncKey, bool) {
	if site.Group != nil {
		return ssacfg.KeyOf(site.Group), true
	}
	fn := site.Fn
	if fn == nil {
		return ssacfg.SyncKey{}, false
	}
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			call, ok := instr.(ssa.CallInstruction)
			if !ok || !match.IsMethod(match.Callee(call), "sync", "WaitGroup", "Done") || len(call.Common().Args) == 0 {
				continue
			}
			switch call := call.(type) {
			case *ssa.Go:
				continue
			case *ssa.Call:
				if !sendsNoMoreAfter(call) {
					continue
				}
			}
			if k, ok := outerKey(site, call.Common().Args[0]); ok {
				return k, true
			}
		}
	}
	return ssacfg.SyncKey{}, false
}

// heldLocks returns the mutexes, keyed in the function that starts the
// senders on g, that every one of them holds across each of its sends on
// g, with whether the hold is a write lock. A receiver that locks one
// before it receives waits for a sender that waits for it:
//
//	go func() {
//		c.mu.Lock()
//		defer c.mu.Unlock()
//		updates <- c.reload() // blocks: the receiver waits for c.mu
//	}()
//	c.mu.Lock()
//	…
//	n := <-updates
//
// Only the goroutine's own body is read: a send in a helper or a closure
// it calls, or a lock taken there, makes the sender hold nothing.
func heldLocks(sc *scope, g []int) map[ssacfg.SyncKey]bool {
	var held map[ssacfg.SyncKey]bool
	for _, s := range sc.senders {
		if !s.touchesAny(g) {
			continue
		}
		mine := locksAcross(s, g)
		if held == nil {
			held = mine
			continue
		}
		for k, write := range held {
			if w, ok := mine[k]; !ok {
				delete(held, k)
			} else {
				held[k] = write && w
			}
		}
	}
	return held
}

// locksAcross returns the mutexes the goroutine of s holds across every
// one of its sends on g, as heldLocks keys them.
func locksAcross(s *sender, g []int) map[ssacfg.SyncKey]bool {
	fn := s.site.Fn
	if fn == nil {
		return nil
	}
	var sends []ssa.Instruction
	for _, o := range s.ops {
		if !o.touchesAny(g) {
			continue
		}
		if o.instr.Parent() != fn || !o.plainFor(g) {
			return nil
		}
		sends = append(sends, o.instr)
	}
	held := map[ssacfg.SyncKey]bool{}
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			mu, write, isLock := ssacfg.LockCall(instr)
			if !isLock {
				continue
			}
			k, ok := outerKey(s.site, mu)
			if !ok || !lockedAtAll(instr, mu, sends) {
				continue
			}
			held[k] = held[k] || write
		}
	}
	return held
}

// lockedAtAll reports whether each of sends can run after lock, a call
// locking mu, on a path that does not unlock the same mutex.
func lockedAtAll(lock ssa.Instruction, mu ssa.Value, sends []ssa.Instruction) bool {
	for _, send := range sends {
		if !ssacfg.LockedAt(lock, mu, send) {
			return false
		}
	}
	return true
}

// outerValue returns the value, in the function starting the goroutine of
// site, that v (a free variable or parameter of the goroutine's function)
// is bound to.
func outerValue(site *spawn.Site, v ssa.Value) ssa.Value {
	switch v := v.(type) {
	case *ssa.FreeVar:
		for i, fv := range site.Fn.FreeVars {
			if fv == v && i < len(site.Bindings) {
				return site.Bindings[i]
			}
		}
	case *ssa.Parameter:
		for i, p := range site.Fn.Params {
			if p == v && i < len(site.Args) {
				return site.Args[i]
			}
		}
	}
	return nil
}

// sendsNoMoreAfter reports whether nothing the goroutine does after call
// (a plain wg.Done()) can send: no send, select or go statement, and no
// call that is handed a channel or calls a closure or function value, on
// any path from it. Its sends then all come before its Done, as with a
// deferred Done, and Wait returning means they completed.
func sendsNoMoreAfter(call *ssa.Call) bool {
	return !ssacfg.ReachableFrom(call, func(instr ssa.Instruction) bool {
		switch instr := instr.(type) {
		case *ssa.Send, *ssa.Select, *ssa.Go:
			return true
		case ssa.CallInstruction:
			common := instr.Common()
			if _, static := common.Value.(*ssa.Function); !static && !common.IsInvoke() {
				return true
			}
			for _, arg := range common.Args {
				if _, ok := arg.Type().Underlying().(*types.Chan); ok {
					return true
				}
			}
		}
		return false
	}, nil)
}

// senderLock returns where the function sending with send locks the mutex
// it holds across it, if it holds exactly one.
func senderLock(send ssa.Instruction) token.Pos {
	fn := send.Parent()
	var at []token.Pos
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			if mu, _, isLock := ssacfg.LockCall(instr); isLock && lockedAtAll(instr, mu, []ssa.Instruction{send}) {
				at = append(at, instr.Pos())
			}
		}
	}
	if len(at) != 1 {
		return token.NoPos
	}
	return at[0]
}
