package strandedsend

import (
	"go/token"

	"golang.org/x/tools/go/ssa"

	"github.com/admitlint/admitlint/internal/match"
	"github.com/admitlint/admitlint/internal/ssacfg"
)

// The server idiom: a goroutine runs an HTTP server and sends its error
// only when it is not http.ErrServerClosed; the function that waits for
// it shuts the server down when it stops waiting. Shutdown (or Close)
// makes Serve return ErrServerClosed, which is not sent, so a path that
// has shut a server down has no send of such a sender pending.

// serverGuarded reports whether every plain send of the senders on group
// g runs only when an error is not http.ErrServerClosed.
func serverGuarded(senders []*sender, g []int) bool {
	found := false
	for _, s := range senders {
		for _, o := range s.ops {
			if !o.plainFor(g) {
				continue
			}
			if !ssacfg.GuardedBy(o.instr.Block(), notServerClosed) {
				return false
			}
			found = true
		}
	}
	return found
}

// notServerClosed reports whether taking successor succ of an if on cond
// means an error is not http.ErrServerClosed: err != ErrServerClosed
// true, err == ErrServerClosed false, errors.Is(err, ErrServerClosed)
// false.
func notServerClosed(cond ssa.Value, succ int) bool {
	switch c := cond.(type) {
	case *ssa.BinOp:
		if !isServerClosed(c.X) && !isServerClosed(c.Y) {
			return false
		}
		return c.Op == token.NEQ && succ == 0 || c.Op == token.EQL && succ == 1
	case *ssa.Call:
		fn := match.Callee(c)
		if !match.IsFunc(fn, "errors", "Is") || len(c.Call.Args) != 2 {
			return false
		}
		return isServerClosed(c.Call.Args[1]) && succ == 1
	case *ssa.UnOp:
		if c.Op == token.NOT {
			return notServerClosed(c.X, 1-succ)
		}
	}
	return false
}

// isServerClosed reports whether v is a load of http.ErrServerClosed.
func isServerClosed(v ssa.Value) bool {
	load, ok := v.(*ssa.UnOp)
	if !ok || load.Op != token.MUL {
		return false
	}
	g, ok := load.X.(*ssa.Global)
	return ok && g.Pkg != nil && g.Pkg.Pkg.Path() == "net/http" && g.Name() == "ErrServerClosed"
}

// isServerStop reports whether call shuts an HTTP server down.
func isServerStop(call ssa.CallInstruction) bool {
	return match.IsMethod(match.Callee(call), "net/http", "Server", "Shutdown", "Close")
}
