package spawn

import (
	"golang.org/x/tools/go/ssa"

	"github.com/admitlint/admitlint/internal/ssacfg"
)

// Wrapped returns the goroutines fn starts by calling a spawning wrapper
// of its own package: a function or method whose body starts one
// goroutine, outside any loop, running a function or method named in the
// go statement, with arguments that are the wrapper's own parameters (or
// constants), and which does nothing else with the parameters it passes:
//
//	func (s *server) start(out chan<- event) { go s.watch(out) }
//
// The site is the call of the wrapper (s.start(events)), with Args the
// caller's values for the goroutine's parameters: the goroutine is
// started by the caller, one call removed.
func Wrapped(fn *ssa.Function) []Site {
	var sites []Site
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			call, ok := instr.(*ssa.Call)
			if !ok {
				continue
			}
			w := call.Call.StaticCallee()
			if w != nil {
				w = Body(w)
			}
			if w == nil || w.Blocks == nil || w.Pkg != fn.Pkg || w == fn || len(call.Call.Args) != len(w.Params) {
				continue
			}
			if g := wrapperGo(w); g != nil {
				sites = append(sites, Site{Instr: call, Kind: GoStmt, Fn: Body(g.Call.StaticCallee()), Args: mapArgs(g, w, call)})
			}
		}
	}
	return sites
}

// wrapperGo returns the go statement of w if w is a spawning wrapper.
func wrapperGo(w *ssa.Function) *ssa.Go {
	var g *ssa.Go
	for _, b := range w.Blocks {
		for _, instr := range b.Instrs {
			if _, ok := siteOf(instr); !ok {
				continue
			}
			next, ok := instr.(*ssa.Go)
			if !ok || g != nil {
				return nil // another kind of start, or a second one
			}
			g = next
		}
	}
	if g == nil || g.Call.IsInvoke() || g.Call.StaticCallee() == nil || g.Call.StaticCallee().Blocks == nil {
		return nil
	}
	if _, closure := g.Call.Value.(*ssa.MakeClosure); closure {
		return nil
	}
	for _, l := range ssacfg.Loops(w) {
		if l.Has(g.Block()) {
			return nil // one goroutine per trip: not one start per call
		}
	}
	for _, a := range g.Call.Args {
		switch a := a.(type) {
		case *ssa.Const:
		case *ssa.Parameter:
			for _, ref := range *a.Referrers() {
				if ref != g {
					if _, debug := ref.(*ssa.DebugRef); !debug {
						return nil // the wrapper uses what it hands over
					}
				}
			}
		default:
			return nil
		}
	}
	return g
}

// mapArgs returns the caller's values, at call of wrapper w, for the
// arguments of w's go statement g.
func mapArgs(g *ssa.Go, w *ssa.Function, call *ssa.Call) []ssa.Value {
	args := make([]ssa.Value, len(g.Call.Args))
	for i, a := range g.Call.Args {
		args[i] = a
		if p, ok := a.(*ssa.Parameter); ok {
			for k, param := range w.Params {
				if param == p {
					args[i] = call.Call.Args[k]
				}
			}
		}
	}
	return args
}
