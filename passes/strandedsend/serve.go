package strandedsend

import (
	"go/token"
	"go/types"

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

// The endless server: Serve(l) returns only when l's Accept fails or the
// server is shut down or closed. A server the function makes itself and
// uses for nothing but setting its fields, calling setters that cannot
// stop it and serving cannot be shut down or closed by anyone. A
// listener whose whole lineage is the function's own (made by calls
// given nothing that could close it later: no context, channel, function
// or closer from elsewhere) and used for nothing but serving, making
// more listeners and reading its address is closed by nobody, so
// its Accept does not fail. Such a Serve never returns, and what follows
// it never runs (validation set 19: two serving goroutines that send
// their errors to a receiver leaving on ctx.Done, on listeners nothing
// closes). ServeTLS and ListenAndServe are not counted: they fail at once
// when a certificate does not load or the address is in use.

// afterEndlessServe reports whether instr runs only once a Serve that
// cannot return (see above) has returned: never.
func afterEndlessServe(instr ssa.Instruction) bool {
	fn, b := instr.Parent(), instr.Block()
	if fn == nil || b == nil {
		return false
	}
	for _, blk := range fn.Blocks {
		if !blk.Dominates(b) {
			continue
		}
		for _, x := range blk.Instrs {
			if x == instr {
				break
			}
			if call, ok := x.(*ssa.Call); ok && servesForever(call) {
				return true
			}
		}
	}
	return false
}

// servesForever reports whether call serves HTTP on a server and a
// listener nothing can stop: it does not return.
func servesForever(call *ssa.Call) bool {
	fn, args := match.Callee(call), call.Call.Args
	switch {
	case match.IsMethod(fn, "net/http", "Server", "Serve") && len(args) == 2:
		return ownServer(args[0], call) && ownListener(args[1], call)
	case match.IsFunc(fn, "net/http", "Serve") && len(args) == 2:
		return ownListener(args[0], call)
	}
	return false
}

// ownServer reports whether v is a server the function allocates and
// uses only to set or read its fields and to make the call serve.
func ownServer(v ssa.Value, serve *ssa.Call) bool {
	alloc, ok := v.(*ssa.Alloc)
	if !ok {
		return false
	}
	for _, ref := range *alloc.Referrers() {
		switch ref := ref.(type) {
		case *ssa.DebugRef:
		case *ssa.Store:
			if ref.Addr != alloc {
				return false
			}
		case *ssa.FieldAddr:
			if !onlyAccessed(ref) {
				return false
			}
		case *ssa.Call:
			if ref != serve && !configures(ref) {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// configures reports whether call is a method of http.Server that sets
// how it serves and cannot stop it (validation set 32, go-swagger:
// docServer.SetKeepAlivesEnabled(true)).
func configures(call *ssa.Call) bool {
	return match.IsMethod(match.Callee(call), "net/http", "Server", "SetKeepAlivesEnabled", "RegisterOnShutdown")
}

// onlyAccessed reports whether the field at addr is only stored to and
// loaded.
func onlyAccessed(addr *ssa.FieldAddr) bool {
	for _, ref := range *addr.Referrers() {
		switch ref := ref.(type) {
		case *ssa.Store:
			if ref.Addr != addr {
				return false
			}
		case *ssa.UnOp:
			if ref.Op != token.MUL {
				return false
			}
		case *ssa.DebugRef:
		default:
			return false
		}
	}
	return true
}

// A lineage is a listener and everything it was made from, traced up
// through the calls that made each: the values that must stay open for
// its Accept not to fail.
type lineage struct {
	serve   *ssa.Call
	members map[ssa.Value]bool
	checked map[ssa.Value]bool
}

// ownListener reports whether the listener v given to serve, and every
// value it was made from, is the function's own and nothing but serve
// and calls making listeners use it: nothing closes it.
func ownListener(v ssa.Value, serve *ssa.Call) bool {
	l := &lineage{serve: serve, members: map[ssa.Value]bool{}, checked: map[ssa.Value]bool{}}
	if !l.up(v) {
		return false
	}
	for m := range l.members {
		if !l.usedOnlyToMake(m) {
			return false
		}
	}
	return true
}

// up adds v and what it was made from to the lineage, reporting false
// when any of it comes from outside the function's own calls (a
// parameter, a field, a global) or from a call given something that
// could close it later.
func (l *lineage) up(v ssa.Value) bool {
	if l.members[v] {
		return true
	}
	switch x := v.(type) {
	case *ssa.MakeInterface:
		return l.up(x.X)
	case *ssa.ChangeInterface:
		return l.up(x.X)
	case *ssa.ChangeType:
		return l.up(x.X)
	case *ssa.FreeVar:
		b := ssacfg.Binding(x)
		return b != nil && l.up(b)
	case *ssa.UnOp:
		// A captured variable, read: the one value ever stored in it.
		if x.Op != token.MUL {
			return false
		}
		cell := x.X
		if fv, ok := cell.(*ssa.FreeVar); ok {
			cell = ssacfg.Binding(fv)
		}
		alloc, ok := cell.(*ssa.Alloc)
		if !ok {
			return false
		}
		stored := ssacfg.Stores(alloc)
		l.members[alloc] = true
		return len(stored) == 1 && l.up(stored[0])
	case *ssa.Extract:
		call, ok := x.Tuple.(*ssa.Call)
		l.members[v] = true
		return ok && l.made(call)
	case *ssa.Call:
		l.members[v] = true
		return l.made(x)
	}
	return false
}

// made adds to the lineage what call, which made one of its members,
// was given that could hold it open or close it: listeners and other
// closers are traced up; a context, a channel or a function, which could
// close it later, end the trace.
func (l *lineage) made(call *ssa.Call) bool {
	if _, ok := call.Call.Value.(*ssa.Function); !ok && !call.Call.IsInvoke() {
		return false // a function value: unknown
	}
	for _, a := range callOperands(call.Common()) {
		switch {
		case couldSignal(a.Type()):
			return false
		case isCloser(a.Type()):
			if !l.up(a) {
				return false
			}
		}
	}
	return true
}

// couldSignal reports whether a value of type t can tell a callee to
// act later: a context, a channel, a function.
func couldSignal(t types.Type) bool {
	switch t.Underlying().(type) {
	case *types.Chan, *types.Signature:
		return true
	}
	return match.IsNamed(t, "context", "Context")
}

// isCloser reports whether values of type t can be closed, or are
// interfaces that could hold something that can.
func isCloser(t types.Type) bool {
	if types.IsInterface(t) {
		return true
	}
	return hasMethods(t, "Close") || hasMethods(types.NewPointer(t), "Close")
}

// readsAddr reports whether call asks listener v for its address
// (ln.Addr(), to print where it serves), which cannot close it.
func readsAddr(v ssa.Value, call *ssa.Call) bool {
	c := call.Common()
	if c.IsInvoke() {
		return c.Value == v && c.Method.Name() == "Addr" && len(c.Args) == 0 && isListener(v.Type())
	}
	fn := match.Callee(call)
	return fn != nil && fn.Name() == "Addr" && len(c.Args) == 1 && c.Args[0] == v && isListener(v.Type())
}

// isListener reports whether t has the methods of a net.Listener.
func isListener(t types.Type) bool {
	return hasMethods(t, "Accept", "Addr", "Close")
}

// hasMethods reports whether t's method set has every one of names.
func hasMethods(t types.Type, names ...string) bool {
	ms := types.NewMethodSet(t)
	for _, name := range names {
		if ms.Lookup(nil, name) == nil {
			return false
		}
	}
	return true
}

// usedOnlyToMake reports whether every use of v serves (the call the
// lineage is of), makes another member or a listener, or only carries v
// on: a conversion, a variable it is kept in, a closure capturing it.
func (l *lineage) usedOnlyToMake(v ssa.Value) bool {
	if l.checked[v] {
		return true
	}
	l.checked[v] = true
	refs := v.Referrers()
	if refs == nil {
		return true
	}
	for _, ref := range *refs {
		if !l.carries(v, ref) {
			return false
		}
	}
	return true
}

// carries reports whether ref, a use of v, is one usedOnlyToMake allows.
func (l *lineage) carries(v ssa.Value, ref ssa.Instruction) bool {
	switch ref := ref.(type) {
	case *ssa.DebugRef:
		return true
	case *ssa.MakeInterface, *ssa.ChangeInterface, *ssa.ChangeType:
		return l.usedOnlyToMake(ref.(ssa.Value))
	case *ssa.UnOp:
		return ref.Op == token.MUL && l.usedOnlyToMake(ref)
	case *ssa.Store:
		// Kept in a variable: the lineage's own cell, or another one whose
		// uses are checked the same way.
		alloc, ok := ref.Addr.(*ssa.Alloc)
		return ok && (ref.Addr == v || l.usedOnlyToMake(alloc))
	case *ssa.MakeClosure:
		fn := ref.Fn.(*ssa.Function)
		for i, b := range ref.Bindings {
			if b == v && !l.usedOnlyToMake(fn.FreeVars[i]) {
				return false
			}
		}
		return true
	case *ssa.Call:
		if ref == l.serve || l.members[ref] || readsAddr(v, ref) {
			return true
		}
		t := ref.Type()
		if tuple, ok := t.(*types.Tuple); ok && tuple.Len() > 0 {
			t = tuple.At(0).Type()
		}
		if isListener(t) {
			return true // another listener made from it
		}
		for _, x := range *ref.Referrers() {
			if xv, ok := x.(ssa.Value); ok && l.members[xv] {
				return true // the call made a member
			}
		}
	}
	return false
}
