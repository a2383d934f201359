// Package match recognises, in types and SSA, the APIs admitlint's passes
// reason about: semaphores, limiters, errgroups, contexts, timers and the
// callees of calls. Every predicate here is cheap and allocation-free, so
// passes can call it on every instruction.
package match

import (
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// Import paths of the third-party APIs the passes know by name.
const (
	SemaphorePkg = "golang.org/x/sync/semaphore"
	ErrgroupPkg  = "golang.org/x/sync/errgroup"
	RatePkg      = "golang.org/x/time/rate"
)

// Imports reports whether pkg is, or directly imports, a package whose path
// is among paths. Passes use it as their first, cheapest guard.
func Imports(pkg *types.Package, paths ...string) bool {
	for _, path := range paths {
		if pkg.Path() == path {
			return true
		}
	}
	for _, imp := range pkg.Imports() {
		for _, path := range paths {
			if imp.Path() == path {
				return true
			}
		}
	}
	return false
}

// IsNamed reports whether t, or the type t points to, is the named type
// pkgPath.name (aliases resolved, type arguments ignored).
func IsNamed(t types.Type, pkgPath, name string) bool {
	t = types.Unalias(t)
	if ptr, ok := t.(*types.Pointer); ok {
		t = types.Unalias(ptr.Elem())
	}
	named, ok := t.(*types.Named)
	if !ok {
		return false
	}
	obj := named.Origin().Obj()
	return obj.Name() == name && obj.Pkg() != nil && obj.Pkg().Path() == pkgPath
}

// IsFunc reports whether fn is a package-level function of pkgPath named
// one of names.
func IsFunc(fn *types.Func, pkgPath string, names ...string) bool {
	if fn == nil || fn.Pkg() == nil || fn.Pkg().Path() != pkgPath {
		return false
	}
	if sig := fn.Signature(); sig.Recv() != nil {
		return false
	}
	return hasName(fn.Name(), names)
}

// MutexLock reports whether fn locks a sync.Mutex or sync.RWMutex, and
// whether for writing (Lock) rather than reading (RLock).
func MutexLock(fn *types.Func) (locks, write bool) {
	switch {
	case IsMethod(fn, "sync", "Mutex", "Lock"), IsMethod(fn, "sync", "RWMutex", "Lock"):
		return true, true
	case IsMethod(fn, "sync", "RWMutex", "RLock"):
		return true, false
	}
	return false, false
}

// IsError reports whether t is the predeclared type error.
func IsError(t types.Type) bool {
	return types.Identical(t, types.Universe.Lookup("error").Type())
}

// IsMethod reports whether fn is a method named one of names whose receiver
// is the named type pkgPath.typeName or a pointer to it. Interface methods
// count: context.Context's Done is IsMethod(fn, "context", "Context", "Done").
func IsMethod(fn *types.Func, pkgPath, typeName string, names ...string) bool {
	if fn == nil {
		return false
	}
	recv := fn.Signature().Recv()
	return recv != nil && hasName(fn.Name(), names) && IsNamed(recv.Type(), pkgPath, typeName)
}

func hasName(name string, names []string) bool {
	for _, n := range names {
		if n == name {
			return true
		}
	}
	return false
}

// Callee returns the function or method a call instruction calls, when it
// is known statically or is an interface method (an "invoke"); it returns
// nil for calls of function values and builtins. Generic instantiations
// map to their origin.
func Callee(call ssa.CallInstruction) *types.Func {
	common := call.Common()
	if common.IsInvoke() {
		return common.Method
	}
	fn, ok := common.Value.(*ssa.Function)
	if !ok {
		return nil
	}
	if fn.Origin() != nil { // an instantiation of a generic function
		fn = fn.Origin()
	}
	obj, _ := fn.Object().(*types.Func)
	return obj
}

// Receiver returns the receiver of a method call, an interface's
// (invoke) or a concrete method's called statically, or nil when the call
// is not of a method.
func Receiver(c *ssa.CallCommon) ssa.Value {
	if c.IsInvoke() {
		return c.Value
	}
	if c.Signature().Recv() != nil && len(c.Args) > 0 {
		return c.Args[0]
	}
	return nil
}

// Converted returns the value v is a conversion of (to an interface,
// between interfaces, between types of one underlying type, or a value
// conversion), or nil when v is no conversion.
func Converted(v ssa.Value) ssa.Value {
	switch v := v.(type) {
	case *ssa.MakeInterface:
		return v.X
	case *ssa.ChangeInterface:
		return v.X
	case *ssa.ChangeType:
		return v.X
	case *ssa.Convert:
		return v.X
	}
	return nil
}

// IsCancelSignal reports whether v is a channel that becomes ready when a
// waiter should give up: a context's Done channel (or any Done() method
// returning a receive-only channel, as cancellable types conventionally
// provide), time.After, time.Tick, or a time.Timer's or time.Ticker's C.
// A waiter that selects on such a channel can leave.
func IsCancelSignal(v ssa.Value) bool {
	switch v := v.(type) {
	case *ssa.Call:
		fn := Callee(v)
		if fn == nil {
			return false
		}
		if IsFunc(fn, "time", "After", "Tick") {
			return true
		}
		return fn.Name() == "Done" && isDoneSignature(fn.Signature())
	case *ssa.UnOp: // load of a field: timer.C
		if field, ok := v.X.(*ssa.FieldAddr); ok {
			return isTimerC(field.X.Type(), field.Field)
		}
	case *ssa.Field:
		return isTimerC(v.X.Type(), v.Field)
	}
	return false
}

// isDoneSignature reports whether sig is func() <-chan T.
func isDoneSignature(sig *types.Signature) bool {
	if sig.Params().Len() != 0 || sig.Results().Len() != 1 {
		return false
	}
	ch, ok := sig.Results().At(0).Type().Underlying().(*types.Chan)
	return ok && ch.Dir() == types.RecvOnly
}

// IsTickerC reports whether field index i of struct type t (or *t) is
// the C field of time.Ticker.
func IsTickerC(t types.Type, i int) bool {
	return IsNamed(t, "time", "Ticker") && isTimerC(t, i)
}

// isTimerC reports whether field index i of struct type t (or *t) is the C
// field of time.Timer or time.Ticker.
func isTimerC(t types.Type, i int) bool {
	if !IsNamed(t, "time", "Timer") && !IsNamed(t, "time", "Ticker") {
		return false
	}
	if ptr, ok := t.Underlying().(*types.Pointer); ok {
		t = ptr.Elem()
	}
	st, ok := t.Underlying().(*types.Struct)
	return ok && i < st.NumFields() && st.Field(i).Name() == "C"
}

// ChanCap returns the capacity of the channel made by mk when it is a
// constant, and whether it is.
func ChanCap(mk *ssa.MakeChan) (int64, bool) {
	return ConstInt(mk.Size)
}

// ConstInt returns v as an integer constant, and whether it is one.
func ConstInt(v ssa.Value) (int64, bool) {
	c, ok := v.(*ssa.Const)
	if !ok || c.Value == nil {
		return 0, false
	}
	if b, ok := c.Type().Underlying().(*types.Basic); !ok || b.Info()&types.IsInteger == 0 {
		return 0, false
	}
	return c.Int64(), true
}

// IsTest reports whether call computes a value from its arguments alone,
// as a condition does: a function (not a method) of strings, bytes,
// errors, unicode, unicode/utf8 or strconv, or the builtin len. A
// condition made of such calls is decided by the values it is given.
func IsTest(call *ssa.Call) bool {
	if b, ok := call.Call.Value.(*ssa.Builtin); ok {
		return b.Name() == "len"
	}
	fn := Callee(call)
	if fn == nil || fn.Pkg() == nil || fn.Signature().Recv() != nil {
		return false
	}
	switch fn.Pkg().Path() {
	case "strings", "bytes", "errors", "unicode", "unicode/utf8", "strconv":
		return true
	}
	return false
}
