package strandedsend

import (
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"

	"github.com/admitlint/admitlint/passes/strandedsend/internal/waitpath"
)

// markSilent records in q the receiving select cases of fn on a channel
// field that can never fire: nothing the package runs (outside its tests,
// for code outside them) sends on the field's channel or closes it, and
// the channel cannot reach code that might. Such a case is no way out
// for the receiver (validation set 12, a server's exit field that only a
// test sends on), and a report must name the exit that is.
func (c *checker) markSilent(q *waitpath.Query, fn *ssa.Function) {
	fromTest := c.inTestCode(fn, fn.Pos())
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			sel, ok := instr.(*ssa.Select)
			if !ok {
				continue
			}
			for _, st := range sel.States {
				if st.Dir != types.RecvOnly || q.Chans[st.Chan] {
					continue
				}
				if f := c.loadedField(st.Chan); f != nil && c.silent(f, fromTest) {
					q.Never[st.Chan] = true
				}
			}
		}
	}
}

// loadedField returns the unexported channel field of the package that v
// is loaded from, or nil.
func (c *checker) loadedField(v ssa.Value) *types.Var {
	switch v := v.(type) {
	case *ssa.UnOp:
		if fa, ok := v.X.(*ssa.FieldAddr); ok && v.Op == token.MUL {
			return c.chanFieldOf(fa)
		}
	case *ssa.Field:
		return c.chanFieldOf(v)
	}
	return nil
}

// silent reports whether nothing can send on or close the channels field
// f holds: every use of every load of it is in view and none of them
// sends or closes (those in tests count only for fromTest), and the
// channels stored in it are made by the package and used for nothing but
// the storing.
func (c *checker) silent(f *types.Var, fromTest bool) bool {
	if c.byField == nil {
		c.byField = map[*types.Var]*fieldChan{}
		for _, fc := range c.fieldChans(c.funcs) {
			c.byField[fc.field] = fc
		}
	}
	fc := c.byField[f]
	if fc == nil || fc.out || fc.other {
		return false
	}
	for _, in := range fc.fires {
		if fromTest || !c.inTestCode(in.Parent(), in.Pos()) {
			return false
		}
	}
	for _, mk := range fc.makes {
		if !onlyStoredIn(mk, f, c) {
			return false
		}
	}
	return !c.namedOutOfView(f.Name(), fromTest)
}

// onlyStoredIn reports whether the channel mk makes is used only by
// storing it in field f.
func onlyStoredIn(mk *ssa.MakeChan, f *types.Var, c *checker) bool {
	for _, ref := range *mk.Referrers() {
		switch ref := ref.(type) {
		case *ssa.Store:
			if ref.Val != mk || c.chanFieldOf(ref.Addr) != f {
				return false
			}
		case *ssa.DebugRef:
		default:
			return false
		}
	}
	return true
}

// namedOutOfView reports whether files of the package this analysis does
// not see select a field or method named name: files left out by build
// constraints, and, for tests, the package's _test.go files when this is
// not its test variant.
func (c *checker) namedOutOfView(name string, tests bool) bool {
	files := slices.Clone(c.pass.IgnoredFiles)
	if tests {
		files = append(files, c.unseenTests()...)
	}
	return slices.ContainsFunc(files, func(file string) bool {
		f := c.parseOwn(file, name)
		return f != nil && selects(f, name)
	})
}
