package ssacfg

import (
	"go/token"
	"go/types"
	"go/version"

	"golang.org/x/tools/go/ssa"

	"github.com/admitlint/admitlint/internal/match"
)

// OnceByStoppedTicker reports whether instr, on a cycle of its function,
// runs at most once: every way from it back to it stops a ticker the
// function makes, and every way on from that Stop back to instr waits
// for that ticker's tick alone (a receive from its channel, or a select
// with no default whose cases all receive from it). A stopped ticker
// sends no more ticks, and since Go 1.23 (the package's go version) not
// even one that was already due, so such a loop never comes back round.
// The ticker must be the function's own: made by time.NewTicker, used
// only for its channel and its Stop calls (no Reset, not stored, not
// passed on, not captured).
//
//	ticker := time.NewTicker(5 * time.Second)
//	for {
//		select {
//		case <-ticker.C:
//			if err := poll(); err != nil {
//				errc <- err // at most once
//				ticker.Stop()
//				break
//			}
//		}
//	}
func OnceByStoppedTicker(instr ssa.Instruction) bool {
	fn := instr.Parent()
	if fn == nil || fn.Pkg == nil || !OnCycle(fn)[instr.Block().Index] || !stopDrains(fn.Pkg.Pkg.GoVersion()) {
		return false
	}
	stops := map[ssa.Instruction]ssa.Value{}
	for _, b := range fn.Blocks {
		for _, x := range b.Instrs {
			if t := stoppedTicker(x); t != nil {
				stops[x] = t
			}
		}
	}
	if len(stops) == 0 {
		return false
	}
	isInstr := func(x ssa.Instruction) bool { return x == instr }
	isStop := func(x ssa.Instruction) bool { _, ok := stops[x]; return ok }
	if ReachableFrom(instr, isInstr, isStop) {
		return false // a way round that stops nothing
	}
	for stop, t := range stops {
		if !ownTicker(t) {
			return false
		}
		tick := func(x ssa.Instruction) bool { return waitsForTickAlone(x, t) }
		if ReachableFrom(stop, isInstr, tick) {
			return false // a way back that does not wait for the stopped ticker
		}
	}
	return true
}

// stopDrains reports whether a package written for Go version v gets
// Go 1.23's timers, whose Stop also discards a tick already due (an
// unknown version is the toolchain's own).
func stopDrains(v string) bool {
	return v == "" || version.Compare(v, "go1.23") >= 0
}

// stoppedTicker returns the ticker a plain call (not deferred) stops.
func stoppedTicker(x ssa.Instruction) ssa.Value {
	call, ok := x.(*ssa.Call)
	if !ok || !match.IsMethod(match.Callee(call), "time", "Ticker", "Stop") || len(call.Call.Args) != 1 {
		return nil
	}
	return call.Call.Args[0]
}

// ownTicker reports whether t is made by time.NewTicker in the function
// and used only to read its channel (field C) and to stop it.
func ownTicker(t ssa.Value) bool {
	made, ok := t.(*ssa.Call)
	if !ok || !match.IsFunc(match.Callee(made), "time", "NewTicker") {
		return false
	}
	for _, ref := range *t.Referrers() {
		switch ref := ref.(type) {
		case *ssa.DebugRef:
		case *ssa.FieldAddr:
			if !isTickerC(ref) || !onlyLoaded(ref) {
				return false
			}
		case ssa.CallInstruction:
			c := ref.Common()
			if !match.IsMethod(match.Callee(ref), "time", "Ticker", "Stop") || len(c.Args) != 1 || c.Args[0] != t {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// isTickerC reports whether fa addresses the field C of a time.Ticker.
func isTickerC(fa *ssa.FieldAddr) bool {
	return match.IsTickerC(fa.X.Type(), fa.Field)
}

// onlyLoaded reports whether the address v is only read through.
func onlyLoaded(v ssa.Value) bool {
	for _, ref := range *v.Referrers() {
		switch ref := ref.(type) {
		case *ssa.DebugRef:
		case *ssa.UnOp:
			if ref.Op != token.MUL {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// tickOf reports whether ch is ticker t's channel, loaded from t.C.
func tickOf(ch, t ssa.Value) bool {
	load, ok := ch.(*ssa.UnOp)
	if !ok || load.Op != token.MUL {
		return false
	}
	fa, ok := load.X.(*ssa.FieldAddr)
	return ok && fa.X == t && isTickerC(fa)
}

// waitsForTickAlone reports whether x blocks until ticker t ticks: a
// receive from its channel, or a blocking select whose every case
// receives from it.
func waitsForTickAlone(x ssa.Instruction, t ssa.Value) bool {
	switch x := x.(type) {
	case *ssa.UnOp:
		return x.Op == token.ARROW && tickOf(x.X, t)
	case *ssa.Select:
		if !x.Blocking || len(x.States) == 0 {
			return false
		}
		for _, st := range x.States {
			if st.Dir != types.RecvOnly || !tickOf(st.Chan, t) {
				return false
			}
		}
		return true
	}
	return false
}
