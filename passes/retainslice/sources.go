package retainslice

import (
	"fmt"
	"go/constant"
	"go/token"
	"go/types"
	"math"

	"golang.org/x/tools/go/ssa"

	"github.com/admitlint/admitlint/internal/match"
	"github.com/admitlint/admitlint/passes/retainslice/internal/borrow"
)

// A root is a large or unbounded buffer made in the function being
// checked: the value whose backing array its pieces pin.
type root struct {
	v    ssa.Value
	how  string    // what makes it: "os.ReadFile", "make", "string(data)"
	verb string    // what happens at pos: "read", "allocated", "converted"
	size string    // "unbounded", "1 MiB", "sized from input"
	pos  token.Pos // where it is made
	name string    // the variable it is assigned to, as written
}

// roots returns fn's large or unbounded buffers, in instruction order:
//
//   - t = make([]T, n) with a constant n×sizeof(T) of at least min-bytes;
//   - t = local [N]T, sliced, of at least min-bytes;
//   - with -retainslice.streams, t = make([]T, n) with any n when t is
//     then filled by io.ReadFull (the size comes from the input);
//     t = io.ReadAll(r) and the like (unless r is an io.LimitReader with
//     a small constant limit): unbounded; t = (*bytes.Buffer).Bytes() or
//     .String() on a buffer filled from a stream by ReadFrom or io.Copy:
//     unbounded;
//   - with -retainslice.files, os.ReadFile(name) and fs.ReadFile, unless
//     the file is known by name.
func (c *checker) roots(fn *ssa.Function) []*root {
	var roots []*root
	seen := map[ssa.Value]bool{}
	add := func(r *root) {
		if !seen[r.v] {
			seen[r.v] = true
			r.name = c.nameAt(r.pos, r.how)
			roots = append(roots, r)
		}
	}
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			switch instr := instr.(type) {
			case *ssa.MakeSlice:
				if n, ok := c.makeSize(instr); ok && n >= c.cfg.MinBytes {
					add(&root{v: instr, how: "make", verb: "allocated", size: formatSize(n), pos: instr.Pos()})
				}
			case *ssa.Alloc:
				if n, ok := c.arraySize(instr); ok && n >= c.cfg.MinBytes && isSliced(instr) {
					how := "array"
					if instr.Comment == "makeslice" { // make([]T, N) with a constant N
						how = "make"
					}
					add(&root{v: instr, how: how, verb: "allocated", size: formatSize(n), pos: instr.Pos()})
				}
			case *ssa.Call:
				if r := c.callRoot(instr); r != nil {
					add(r)
				}
				for _, r := range c.helperRoots(instr) {
					add(r)
				}
			}
		}
	}
	return roots
}

// callRoot returns the root a call makes, if any.
func (c *checker) callRoot(call *ssa.Call) *root {
	fn := match.Callee(call)
	if fn == nil || !c.cfg.counts(fn) {
		return nil
	}
	args := call.Call.Args
	switch {
	case isSourceFunc(fn) && fn.Signature().Recv() == nil:
		if len(args) > 0 && c.isSmallLimit(args[0]) {
			return nil
		}
		if name := fileNameArg(fn, args); name != nil && isNamedFile(name) {
			return nil // a file read whole: as large as what it is, not as the input makes it
		}
		if v := extract(call, 0); v != nil {
			return &root{v: v, how: fn.Pkg().Name() + "." + fn.Name(), verb: "read", size: "unbounded", pos: call.Pos()}
		}
	case isSourceFunc(fn):
		if len(args) == 1 && isStreamFilled(args[0]) {
			return &root{v: call, how: "(*" + fn.Pkg().Name() + "." + recvName(fn) + ")." + fn.Name(), verb: "read", size: "unbounded", pos: call.Pos()}
		}
	case isReadFull(fn) && len(args) == 2:
		buf := args[1]
		if s, ok := buf.(*ssa.Slice); ok {
			buf = s.X
		}
		if mk, ok := buf.(*ssa.MakeSlice); ok {
			if !isSmallInt(mk.Len, 0) {
				return &root{v: mk, how: "make", verb: "allocated", size: "sized from input", pos: mk.Pos()}
			}
		}
	}
	return nil
}

// isFileReader reports whether fn reads a file whole by its name.
func isFileReader(fn *types.Func) bool {
	return match.IsFunc(fn, "os", "ReadFile") || match.IsFunc(fn, "io/ioutil", "ReadFile") || match.IsFunc(fn, "io/fs", "ReadFile")
}

// fileNameArg returns the argument naming the file that fn, a whole-file
// reader, reads: its last, os.ReadFile(name), fs.ReadFile(fsys, name);
// nil for readers of streams.
func fileNameArg(fn *types.Func, args []ssa.Value) ssa.Value {
	if !isFileReader(fn) || len(args) == 0 {
		return nil
	}
	return args[len(args)-1]
}

// isNamedFile reports whether the file name v is written in the code: a
// constant ("/etc/os-release"), or a path whose last element is one
// (filepath.Join(goroot, "VERSION"), dir + "/go.mod"). Such a file is
// one the program knows by what it is (a version, a config, a system
// file), and its size is what that kind of file holds, not what an
// input makes it: no evidence that it is large.
func isNamedFile(v ssa.Value) bool {
	switch v := v.(type) {
	case *ssa.Const:
		return v.Value != nil && v.Value.Kind() == constant.String
	case *ssa.BinOp:
		return v.Op == token.ADD && isNamedFile(v.Y)
	case *ssa.Call:
		fn := match.Callee(v)
		if (match.IsFunc(fn, "path/filepath", "Join") || match.IsFunc(fn, "path", "Join")) && len(v.Call.Args) == 1 {
			last := lastVararg(v.Call.Args[0])
			return last != nil && isNamedFile(last)
		}
	}
	return false
}

// lastVararg returns the last element stored into the variadic slice s
// (t0 = new [n]T (varargs); *&t0[n-1] = v; s = slice t0[:]), or nil.
func lastVararg(s ssa.Value) ssa.Value {
	sl, ok := s.(*ssa.Slice)
	if !ok {
		return nil
	}
	arr, ok := sl.X.(*ssa.Alloc)
	if !ok || arr.Comment != "varargs" {
		return nil
	}
	n := int64(-1)
	var last ssa.Value
	for _, ref := range *arr.Referrers() {
		addr, ok := ref.(*ssa.IndexAddr)
		if !ok {
			continue
		}
		k, ok := addr.Index.(*ssa.Const)
		if !ok || k.Int64() <= n {
			continue
		}
		for _, use := range *addr.Referrers() {
			if st, ok := use.(*ssa.Store); ok && st.Addr == addr {
				n, last = k.Int64(), st.Val
			}
		}
	}
	return last
}

// isSmallInt reports whether the integer v is bounded by small types: a
// constant, or computed by addition and multiplication from values of
// 16 bits or fewer. A record sized by such header fields (archive/zip's
// name, extra and comment lengths) is bounded, not sized by the input.
func isSmallInt(v ssa.Value, depth int) bool {
	if b, ok := v.Type().Underlying().(*types.Basic); ok && b.Info()&types.IsInteger != 0 {
		switch b.Kind() {
		case types.Int8, types.Int16, types.Uint8, types.Uint16:
			return true
		}
	}
	if depth > 6 {
		return false
	}
	switch v := v.(type) {
	case *ssa.Const:
		return true
	case *ssa.Convert:
		return isSmallInt(v.X, depth+1)
	case *ssa.BinOp:
		switch v.Op {
		case token.ADD, token.MUL, token.SUB:
			return isSmallInt(v.X, depth+1) && isSmallInt(v.Y, depth+1)
		}
	case *ssa.Phi:
		for _, e := range v.Edges {
			if !isSmallInt(e, depth+1) {
				return false
			}
		}
		return true
	}
	return false
}

// isSourceFunc reports whether fn returns a whole stream: io.ReadAll,
// ioutil.ReadAll and ReadFile, os.ReadFile, fs.ReadFile, and the Bytes
// and String methods of bytes.Buffer and strings.Builder (which count
// only when the buffer was filled from a stream).
func isSourceFunc(fn *types.Func) bool {
	return match.IsFunc(fn, "io", "ReadAll") ||
		match.IsFunc(fn, "io/ioutil", "ReadAll", "ReadFile") ||
		match.IsFunc(fn, "os", "ReadFile") ||
		match.IsFunc(fn, "io/fs", "ReadFile") ||
		match.IsMethod(fn, "bytes", "Buffer", "Bytes", "String") ||
		match.IsMethod(fn, "strings", "Builder", "String")
}

// isReadFull reports whether fn fills a buffer completely from a reader.
func isReadFull(fn *types.Func) bool {
	return match.IsFunc(fn, "io", "ReadFull", "ReadAtLeast")
}

// isSmallLimit reports whether r, the reader io.ReadAll reads, is an
// io.LimitReader or http.MaxBytesReader with a constant limit below
// min-bytes: then the result is small, not unbounded.
func (c *checker) isSmallLimit(r ssa.Value) bool {
	for {
		switch v := r.(type) {
		case *ssa.MakeInterface:
			r = v.X
			continue
		case *ssa.ChangeInterface:
			r = v.X
			continue
		}
		break
	}
	call, ok := r.(*ssa.Call)
	if !ok {
		return false
	}
	fn := match.Callee(call)
	var limit ssa.Value
	switch {
	case match.IsFunc(fn, "io", "LimitReader") && len(call.Call.Args) == 2:
		limit = call.Call.Args[1]
	case match.IsFunc(fn, "net/http", "MaxBytesReader") && len(call.Call.Args) == 3:
		limit = call.Call.Args[2]
	default:
		return false
	}
	k, ok := limit.(*ssa.Const)
	return ok && k.Value != nil && k.Int64() < c.cfg.MinBytes
}

// isStreamFilled reports whether buf, a *bytes.Buffer or *strings.Builder,
// is filled from a stream in the same function: buf.ReadFrom(r), or
// io.Copy(buf, r) and its variants.
//
//	t1 = (*bytes.Buffer).ReadFrom(buf, r)
//	t2 = make io.Writer <- *bytes.Buffer (buf); t3 = io.Copy(t2, r)
func isStreamFilled(buf ssa.Value) bool {
	refs := buf.Referrers()
	if refs == nil {
		return false
	}
	for _, ref := range *refs {
		switch ref := ref.(type) {
		case *ssa.Call:
			if match.IsMethod(match.Callee(ref), "bytes", "Buffer", "ReadFrom") && ref.Call.Args[0] == buf {
				return true
			}
		case *ssa.MakeInterface:
			for _, use := range *ref.Referrers() {
				if call, ok := use.(*ssa.Call); ok && len(call.Call.Args) > 0 && call.Call.Args[0] == ref &&
					match.IsFunc(match.Callee(call), "io", "Copy", "CopyN", "CopyBuffer") {
					return true
				}
			}
		}
	}
	return false
}

// conversions returns, as roots of their own, the strings converted from
// r's whole buffer: string(data) copies data, and its substrings pin the
// copy. The copy is as long as what is converted: of a buffer of stated
// size cut to what a read filled (string(buf[:n])), it is as large as
// the input, which counts only with -retainslice.streams (validation set
// 41, a goroutine dump read into a 2 MiB buffer); its sub-slices, which
// share the buffer's array, are the buffer itself.
func (c *checker) conversions(fn *ssa.Function, r *root, states map[ssa.Value]borrow.State) []*root {
	var convs []*root
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			conv, ok := instr.(*ssa.Convert)
			if !ok || !isString(conv.Type()) {
				continue
			}
			if !c.cfg.Streams && filledPart(conv.X, r.v) {
				continue
			}
			if st, ok := states[conv.X]; ok && st.Kind == borrow.Whole && st.Depth == 0 && !st.Ptr {
				how, size := c.writtenAt(conv.Pos(), "string("+r.name+")"), r.size
				if _, isMake := r.v.(*ssa.Alloc); isMake { // what of the buffer was filled is converted
					size = "up to " + size
				}
				convs = append(convs, &root{v: conv, how: how, verb: "converted", size: size, pos: conv.Pos(), name: c.nameAt(conv.Pos(), how)})
			}
		}
	}
	return convs
}

// filledPart reports whether v is the buffer cut to a length computed at run
// time (buf[:n], the part a read filled), directly or through phis; a cut
// to a constant keeps a size the program states.
func filledPart(v, buffer ssa.Value) bool {
	seen := map[ssa.Value]bool{}
	var cut func(v ssa.Value) bool
	cut = func(v ssa.Value) bool {
		if v == buffer || seen[v] {
			return false
		}
		seen[v] = true
		switch v := v.(type) {
		case *ssa.Slice:
			if _, ok := v.High.(*ssa.Const); v.High != nil && !ok {
				return true
			}
			return cut(v.X)
		case *ssa.Phi:
			for _, e := range v.Edges {
				if cut(e) {
					return true
				}
			}
		}
		return false
	}
	return cut(v)
}

// makeSize returns the size in bytes of the array mk allocates, when its
// length or capacity is a constant.
func (c *checker) makeSize(mk *ssa.MakeSlice) (int64, bool) {
	s, ok := mk.Type().Underlying().(*types.Slice)
	if !ok {
		return 0, false
	}
	elem, ok := sizeof(c.pass.TypesSizes, s.Elem())
	if !ok {
		return 0, false
	}
	n := int64(-1)
	for _, v := range []ssa.Value{mk.Len, mk.Cap} {
		if k, ok := v.(*ssa.Const); ok && k.Value != nil {
			if m, ok := constInt(k.Value); ok {
				n = max(n, m)
			}
		}
	}
	return mulSat(n, elem), n >= 0
}

// mulSat returns a×b for non-negative a and b, saturating instead of
// overflowing.
func mulSat(a, b int64) int64 {
	if b != 0 && a > math.MaxInt64/b {
		return math.MaxInt64
	}
	return a * b
}

// arraySize returns the size of the array a allocates, if a allocates one.
func (c *checker) arraySize(a *ssa.Alloc) (int64, bool) {
	ptr, ok := a.Type().Underlying().(*types.Pointer)
	if !ok {
		return 0, false
	}
	arr, ok := ptr.Elem().Underlying().(*types.Array)
	if !ok {
		return 0, false
	}
	return sizeof(c.pass.TypesSizes, arr)
}

// isSliced reports whether the array a points to is sliced: only then
// can a piece of it outlive the function.
func isSliced(a *ssa.Alloc) bool {
	for _, ref := range *a.Referrers() {
		if _, ok := ref.(*ssa.Slice); ok {
			return true
		}
	}
	return false
}

// sizeof returns the size of t, unless t involves a type parameter.
func sizeof(sizes types.Sizes, t types.Type) (int64, bool) {
	if sizes == nil || hasTypeParam(t, 0) {
		return 0, false
	}
	return sizes.Sizeof(t), true
}

// hasTypeParam reports whether t's layout depends on a type parameter.
func hasTypeParam(t types.Type, depth int) bool {
	if depth > 8 {
		return true
	}
	switch t := types.Unalias(t).(type) {
	case *types.TypeParam:
		return true
	case *types.Named:
		// Not only instantiated types: a type declared inside a generic
		// function has no type arguments but may use its parameters.
		return hasTypeParam(t.Underlying(), depth+1)
	case *types.Array:
		return hasTypeParam(t.Elem(), depth+1)
	case *types.Struct:
		for i := 0; i < t.NumFields(); i++ {
			if hasTypeParam(t.Field(i).Type(), depth+1) {
				return true
			}
		}
	}
	return false
}

// constInt returns v as an int64, if it is a representable integer.
func constInt(v constant.Value) (int64, bool) {
	v = constant.ToInt(v)
	if v.Kind() != constant.Int {
		return 0, false
	}
	return constant.Int64Val(v)
}

// formatSize writes n bytes the way people do: 1 MiB, 64 KiB, 100000 bytes.
func formatSize(n int64) string {
	switch {
	case n >= 1<<30 && n%(1<<30) == 0:
		return fmt.Sprintf("%d GiB", n>>30)
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}

// extract returns result i of call: the call itself for a single result,
// or its Extract.
func extract(call *ssa.Call, i int) ssa.Value {
	if _, ok := call.Type().(*types.Tuple); !ok {
		if i == 0 {
			return call
		}
		return nil
	}
	for _, ref := range *call.Referrers() {
		if ex, ok := ref.(*ssa.Extract); ok && ex.Index == i {
			return ex
		}
	}
	return nil
}

// recvName returns the name of the type of fn's receiver.
func recvName(fn *types.Func) string {
	t := fn.Signature().Recv().Type()
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	if n, ok := types.Unalias(t).(*types.Named); ok {
		return n.Obj().Name()
	}
	return t.String()
}

// isString reports whether t's underlying type is string.
func isString(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsString != 0
}
