package lateacquire

import (
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/admitlint/admitlint/internal/match"
	"github.com/admitlint/admitlint/internal/ssacfg"
)

// A frame is one function on the way from the spawner to an acquire,
// with what its free variables and parameters are bound to by the frame
// that entered it. The chain starts at the function holding the acquire
// and ends at the spawner (or, past closures the spawner is immediately
// called as, at the function that owns the spawn's loop).
type frame struct {
	fn        *ssa.Function
	bindings  []ssa.Value     // parallel to fn.FreeVars; nil if unbound
	args      []ssa.Value     // parallel to fn.Params; nil if unbound
	parent    *frame          // the frame bindings and args belong to
	via       ssa.Instruction // the instruction of parent that entered fn
	goroutine bool            // fn runs on the spawned goroutine
}

// A place is a semaphore's location as far as it can be traced: a root
// value and the fields selected from it, outermost first. Two operands
// denote the same semaphore when their places are equal.
type place struct {
	root   ssa.Value
	fields [4]int
	depth  int
}

// A where says where a semaphore comes from, relative to the spawn.
type where struct {
	place place
	// inGoroutine: the goroutine made it itself (make, new, a
	// constructor), so it bounds the goroutine's sub-work only.
	inGoroutine bool
	// outside: it reaches the spawner from its caller (a parameter, a
	// captured variable, the receiver, a global, or a field of one).
	outside bool
	// pos is where the spawner made or obtained it, when it did.
	pos token.Pos
}

// resolve traces a semaphore operand of fr back to where it comes from.
// A nil operand is a package-level permit.
func (c *checker) resolve(v ssa.Value, fr *frame) where {
	if v == nil {
		return where{outside: true}
	}
	var p place
	for steps := 0; steps < 64 && fr != nil; steps++ {
		switch x := v.(type) {
		case *ssa.UnOp:
			if x.Op != token.MUL {
				return c.rootAt(x, fr, p)
			}
			v = x.X
		case *ssa.FieldAddr:
			if !p.push(x.Field) {
				return where{} // too deep to compare: neither inside nor shared
			}
			v = x.X
		case *ssa.Field:
			if !p.push(x.Field) {
				return where{}
			}
			v = x.X
		case *ssa.ChangeType:
			v = x.X
		case *ssa.FreeVar:
			if fr.bindings == nil {
				return c.rootAt(x, fr, p)
			}
			v, fr = fr.bindings[indexOfFreeVar(fr.fn, x)], fr.parent
		case *ssa.Parameter:
			if fr.args == nil {
				return c.rootAt(x, fr, p)
			}
			i := indexOfParam(fr.fn, x)
			if i >= len(fr.args) {
				return where{}
			}
			v, fr = fr.args[i], fr.parent
		case *ssa.Alloc:
			stored := storedValue(x)
			if stored == nil {
				return c.rootAt(x, fr, p)
			}
			v = stored
		default:
			return c.rootAt(v, fr, p)
		}
	}
	return where{}
}

// push appends field i to the place's path; it reports false when the
// path is too long to record.
func (p *place) push(i int) bool {
	if p.depth == len(p.fields) {
		return false
	}
	p.fields[p.depth] = i
	p.depth++
	return true
}

// rootAt classifies the root v of place p, reached in frame fr. A root
// on the goroutine is its own only if the goroutine made it; anything else
// it reached (a call's result, a map lookup) is taken to be shared.
func (c *checker) rootAt(v ssa.Value, fr *frame, p place) where {
	p.root = v
	w := where{place: p}
	if fr.goroutine {
		w.inGoroutine = isMade(v)
		w.outside = !w.inGoroutine
		return w
	}
	switch v.(type) {
	case *ssa.FreeVar, *ssa.Parameter, *ssa.Global:
		w.outside = true
		return w
	}
	w.pos = v.Pos()
	if instr, ok := v.(ssa.Instruction); ok && w.pos == token.NoPos {
		w.pos = blockPos(instr.Block())
	}
	return w
}

// blockPos returns a position within block b's source: that of its first
// instruction that has one, or of its function.
func blockPos(b *ssa.BasicBlock) token.Pos {
	for _, instr := range b.Instrs {
		if pos := instr.Pos(); pos.IsValid() {
			return pos
		}
	}
	return b.Parent().Pos()
}

// isMade reports whether v makes a new semaphore: a channel, an
// allocation, or a call of a constructor (semaphore.NewWeighted,
// rate.NewLimiter, any function named New… or new…).
func isMade(v ssa.Value) bool {
	switch v := v.(type) {
	case *ssa.MakeChan, *ssa.Alloc:
		return true
	case *ssa.Call:
		fn := match.Callee(v)
		return fn != nil && fn.Signature().Recv() == nil &&
			(strings.HasPrefix(fn.Name(), "New") || strings.HasPrefix(fn.Name(), "new"))
	}
	return false
}

// storedValue returns the value first stored into the variable alloc,
// when that is how the variable is set (a captured local, a parameter
// moved to the heap), or nil.
func storedValue(alloc *ssa.Alloc) ssa.Value {
	if vals := ssacfg.Stores(alloc); len(vals) > 0 {
		return vals[0]
	}
	return nil
}

// outer returns what v, a parameter or free variable of fr's function,
// is bound to in the frame that entered it, with that frame; nil when fr
// does not bind it.
func (fr *frame) outer(v ssa.Value) (ssa.Value, *frame) {
	if fr == nil {
		return nil, nil
	}
	switch x := v.(type) {
	case *ssa.Parameter:
		if fr.fn == x.Parent() && fr.args != nil {
			if i := indexOfParam(fr.fn, x); i < len(fr.args) {
				return fr.args[i], fr.parent
			}
		}
	case *ssa.FreeVar:
		if fr.fn == x.Parent() && fr.bindings != nil {
			return fr.bindings[indexOfFreeVar(fr.fn, x)], fr.parent
		}
	}
	return nil, nil
}

func indexOfFreeVar(fn *ssa.Function, fv *ssa.FreeVar) int {
	for i, v := range fn.FreeVars {
		if v == fv {
			return i
		}
	}
	panic("internal error: free variable not of its function")
}

func indexOfParam(fn *ssa.Function, p *ssa.Parameter) int {
	for i, v := range fn.Params {
		if v == p {
			return i
		}
	}
	panic("internal error: parameter not of its function")
}

// samePlace reports whether operands a (of frame fa) and b (of frame fb)
// denote the same semaphore.
func (c *checker) samePlace(a ssa.Value, fa *frame, b ssa.Value, fb *frame) bool {
	wa, wb := c.resolve(a, fa), c.resolve(b, fb)
	return wa.place.root != nil && wa.place == wb.place
}

// room reports whether channel v, of frame fr, is made with room for
// permits, and whether that is known: the make that created it is in
// sight (in the goroutine, the spawner or a function around them), or v
// is a variable or field the package makes. A capacity computed at run
// time counts as room: the channel was made to hold permits.
func (c *checker) room(v ssa.Value, fr *frame) (room, known bool) {
	for steps := 0; steps < 64; steps++ {
		switch x := v.(type) {
		case *ssa.UnOp:
			if x.Op != token.MUL {
				return false, false
			}
			if obj := varOf(x.X); obj != nil {
				return c.summary.Room(obj)
			}
			v = x.X
		case *ssa.ChangeType:
			v = x.X
		case *ssa.FreeVar:
			i := indexOfFreeVar(x.Parent(), x)
			if fr != nil && fr.fn == x.Parent() && fr.bindings != nil {
				v, fr = fr.bindings[i], fr.parent
				continue
			}
			mc := c.closureOf(x.Parent()) // beyond the frames: the closure's maker
			if mc == nil {
				return false, false
			}
			v, fr = mc.Bindings[i], nil
		case *ssa.Parameter:
			if fr == nil || fr.fn != x.Parent() || fr.args == nil {
				return false, false
			}
			i := indexOfParam(fr.fn, x)
			if i >= len(fr.args) {
				return false, false
			}
			v, fr = fr.args[i], fr.parent
		case *ssa.Alloc:
			if v = storedValue(x); v == nil {
				return false, false
			}
		case *ssa.MakeChan:
			n, constant := match.ChanCap(x)
			return !constant || n > 0, true
		default:
			return false, false
		}
	}
	return false, false
}

// varOf returns the package-level variable or the struct field that addr,
// an address a channel is loaded from, denotes: a global, or a field of a
// value (&s.sem).
func varOf(addr ssa.Value) types.Object {
	switch a := addr.(type) {
	case *ssa.Global:
		return a.Object()
	case *ssa.FieldAddr:
		ptr, ok := a.X.Type().Underlying().(*types.Pointer)
		if !ok {
			return nil
		}
		if st, ok := ptr.Elem().Underlying().(*types.Struct); ok && a.Field < st.NumFields() {
			return st.Field(a.Field).Origin()
		}
	}
	return nil
}
