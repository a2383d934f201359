package strandedsend

import (
	"golang.org/x/tools/go/ssa"

	"github.com/admitlint/admitlint/internal/match"
	"github.com/admitlint/admitlint/internal/spawn"
)

// waitsForSenders returns the test for waitpath.Query.Stalls: a call that
// waits for the goroutines sending on group g to finish, which they do
// only after their sends. It is the Wait of the errgroup.Group or
// sync.WaitGroup whose Go started them, or of a WaitGroup each of them
// marks Done with a deferred call. Nil if no sender is such a goroutine.
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
	groups := map[ssa.Value]bool{}
	for _, s := range sc.senders {
		if !s.touchesAny(g) {
			continue
		}
		v := waitedBy(s.site)
		if v == nil {
			return nil // a sender nobody waits for as a whole
		}
		groups[v] = true
	}
	if len(groups) == 0 {
		return nil
	}
	return func(call ssa.CallInstruction) bool {
		if _, ok := call.(*ssa.Call); !ok {
			return false // a deferred Wait waits at the return, not here
		}
		fn := match.Callee(call)
		args := call.Common().Args
		return len(args) > 0 && groups[args[0]] &&
			(match.IsMethod(fn, match.ErrgroupPkg, "Group", "Wait") || match.IsMethod(fn, "sync", "WaitGroup", "Wait"))
	}
}

// waitedBy returns the group, as a value of the function that starts the
// goroutine of site, whose Wait returns only once that goroutine has
// returned: the group whose Go started it, or the WaitGroup it marks Done
// in a deferred call. It returns nil for any other goroutine.
func waitedBy(site *spawn.Site) ssa.Value {
	if site.Group != nil {
		return site.Group
	}
	fn := site.Fn
	if fn == nil {
		return nil
	}
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			d, ok := instr.(*ssa.Defer)
			if !ok || !match.IsMethod(match.Callee(d), "sync", "WaitGroup", "Done") || len(d.Call.Args) == 0 {
				continue
			}
			if v := outerValue(site, d.Call.Args[0]); v != nil {
				return v
			}
		}
	}
	return nil
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
