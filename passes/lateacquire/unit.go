package lateacquire

import (
	"cmp"
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/ast/astutil"
	"golang.org/x/tools/go/ssa"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/admitlint/admitlint/internal/match"
	"github.com/admitlint/admitlint/internal/spawn"
	"github.com/admitlint/admitlint/internal/ssacfg"
)

// A spawner is what runs a spawn: the function holding the go statement
// (or Go call), and, when that function is a closure called in place
// (go func() { … }(), func() { … }(), a range-over-func body), the
// function around it, up to the one whose runs are the spawn's runs.
type spawner struct {
	path  []ast.Node // syntax from the spawn outward
	loops []ast.Node // the *ast.ForStmt and *ast.RangeStmt around the spawn, innermost first
	top   *frame     // the outermost function; its runs are the spawn's
	frame *frame     // the spawn's own function, the goroutine frame's parent
	decl  ast.Node   // top's *ast.FuncDecl or *ast.FuncLit
}

// spawnerOf describes the spawner of site, in function fn.
func (c *checker) spawnerOf(fn *ssa.Function, site spawn.Site) *spawner {
	sp := &spawner{frame: &frame{fn: fn}}
	sp.top = sp.frame
	file := c.fileOf(site.Instr.Pos())
	if file == nil {
		return sp
	}
	sp.path, _ = astutil.PathEnclosingInterval(file, site.Instr.Pos(), site.Instr.Pos())
	for i, n := range sp.path {
		switch n := n.(type) {
		case *ast.ForStmt:
			if within(site.Instr.Pos(), n.Body) {
				sp.loops = append(sp.loops, n)
			}
		case *ast.RangeStmt:
			if within(site.Instr.Pos(), n.Body) {
				sp.loops = append(sp.loops, n)
			}
		case *ast.FuncLit:
			if i+1 < len(sp.path) && c.isCalledInPlace(n, sp.path[i+1]) {
				continue
			}
			sp.decl = n
		case *ast.FuncDecl:
			sp.decl = n
		}
		if sp.decl != nil {
			break
		}
	}
	// Extend the frames outward to the function of decl, binding each
	// closure's free variables and parameters as its caller does.
	for f := sp.top; f.fn.Parent() != nil && f.fn.Syntax() != sp.decl; f = f.parent {
		parent := f.fn.Parent()
		mc := c.closureOf(f.fn)
		if mc != nil {
			f.bindings = mc.Bindings
		}
		f.args = callArgs(parent, f.fn, mc)
		f.parent = &frame{fn: parent}
		sp.top = f.parent
	}
	return sp
}

// within reports whether pos lies inside node n.
func within(pos token.Pos, n ast.Node) bool {
	return n != nil && n.Pos() <= pos && pos < n.End()
}

// isCalledInPlace reports whether the function literal lit, whose parent
// in the syntax tree is parent, runs once each time the code around it
// does: it is called right where it is written (func() { … }(),
// go func() { … }(), defer func() { … }()), or given to a function that
// calls it once, there and then (t.Run, pprof.Do, trace.WithRegion).
func (c *checker) isCalledInPlace(lit *ast.FuncLit, parent ast.Node) bool {
	call, ok := parent.(*ast.CallExpr)
	if !ok {
		return false
	}
	if ast.Unparen(call.Fun) == lit {
		return true
	}
	fn, _ := typeutil.Callee(c.pass.TypesInfo, call).(*types.Func)
	return match.IsMethod(fn, "testing", "T", "Run") || match.IsMethod(fn, "testing", "B", "Run") ||
		match.IsFunc(fn, "runtime/pprof", "Do") || match.IsFunc(fn, "runtime/trace", "WithRegion")
}

// callArgs returns the arguments with which parent calls (or goes, or
// defers) the anonymous function fn, made as mc (nil when fn captures
// nothing), or nil.
func callArgs(parent, fn *ssa.Function, mc *ssa.MakeClosure) []ssa.Value {
	var value ssa.Value = fn
	if mc != nil {
		value = mc
	}
	for _, b := range parent.Blocks {
		for _, instr := range b.Instrs {
			if call, ok := instr.(ssa.CallInstruction); ok && call.Common().Value == value {
				return call.Common().Args
			}
		}
	}
	return nil
}

// closureOf returns the closure made of the anonymous function fn, or nil.
func (c *checker) closureOf(fn *ssa.Function) *ssa.MakeClosure {
	if c.closures == nil {
		c.closures = map[*ssa.Function]*ssa.MakeClosure{}
		for _, f := range c.srcFuncs {
			for _, b := range f.Blocks {
				for _, instr := range b.Instrs {
					if mc, ok := instr.(*ssa.MakeClosure); ok {
						c.closures[mc.Fn.(*ssa.Function)] = mc
					}
				}
			}
		}
	}
	return c.closures[fn]
}

// unit names the unit of work the spawn runs once per (the tail of "one
// goroutine parks per …"), or returns "" when the spawn's runs do not
// share the semaphore w or run a fixed number of times.
func (c *checker) unit(sp *spawner, site spawn.Site, w where) string {
	fixed := false
	for _, loop := range sp.loops {
		label, perUnit := c.loopUnit(loop)
		if !perUnit {
			fixed = true
			continue
		}
		if w.pos.IsValid() && isPerIteration(w.pos, loop) || c.isRecomputed(w, site) {
			return "" // a semaphore per iteration (of the element iterated): nothing is shared
		}
		return label
	}
	if !w.outside {
		return "" // made by this run of the spawner: one spawn per semaphore
	}
	top := sp.top.fn
	switch {
	case isRecursive(top, site):
		return "recursive call of " + funcName(top)
	case isHandler(top):
		return "request"
	case fixed || runsOnce(top):
		return "" // a fixed pool, or a spawn run once
	case top.Parent() != nil:
		return c.callbackUnit(top)
	}
	return "call of " + funcName(top)
}

// isRecomputed reports whether the semaphore's root, a value the spawner
// computes (an element of a collection, a call's result), is computed
// again on each trip round a loop that also spawns: each spawn may get
// another semaphore.
func (c *checker) isRecomputed(w where, site spawn.Site) bool {
	root, ok := w.place.root.(ssa.Instruction)
	if !ok || w.outside || root.Block() == nil || root.Parent() != site.Instr.Parent() {
		return false
	}
	for _, l := range ssacfg.Loops(root.Parent()) {
		if l.Has(root.Block()) && l.Has(site.Instr.Block()) {
			return true
		}
	}
	return false
}

// isPerIteration reports whether pos, where the spawner obtained a
// semaphore, is evaluated once per iteration of loop: in its body, or in
// the key and value a range statement assigns (a field of the element
// iterated), but not in the range expression or a for statement's init,
// which run once.
func isPerIteration(pos token.Pos, loop ast.Node) bool {
	switch l := loop.(type) {
	case *ast.ForStmt:
		return within(pos, l.Body) || within(pos, l.Post)
	case *ast.RangeStmt:
		return within(pos, l) && !within(pos, l.X)
	}
	return false
}

// loopUnit names what loop iterates over, and reports whether its number
// of iterations comes from the input (a channel, a slice, a map, an
// iterator, a condition) rather than from the code (a constant count, the
// number of CPUs, a worker count).
func (c *checker) loopUnit(loop ast.Node) (string, bool) {
	info := c.pass.TypesInfo
	switch l := loop.(type) {
	case *ast.RangeStmt:
		x := types.ExprString(l.X)
		t := info.TypeOf(l.X)
		if t == nil {
			return "", false
		}
		if ptr, ok := t.Underlying().(*types.Pointer); ok {
			t = ptr.Elem()
		}
		switch u := t.Underlying().(type) {
		case *types.Chan:
			if isTime(u.Elem()) {
				return "", false // a tick at a time: paced, not a burst
			}
			return "value received from " + x, true
		case *types.Map:
			return "entry of " + x, true
		case *types.Slice:
			if _, lit := ast.Unparen(l.X).(*ast.CompositeLit); lit {
				return "", false // a list written out: a fixed count
			}
			return "element of " + x, true
		case *types.Signature:
			return "value from " + x, true
		case *types.Basic:
			if u.Info()&types.IsString != 0 {
				return "rune of " + x, true
			}
			return c.countUnit(l.X)
		}
		return "", false // an array: a fixed count
	case *ast.ForStmt:
		if bound := inductionBound(info, l); l.Cond != nil && bound != nil {
			return c.countUnit(bound)
		}
		if paced(info, l.Body) {
			return "", false // one trip per tick of a clock: no burst
		}
		return "iteration of the loop", true
	}
	return "", false
}

// countUnit classifies a loop that counts up to bound: once per element
// when bound is len(x), or a variable set once to len(x) (n :=
// len(jobs)), or a parameter every caller in view passes len(x) for;
// once per unit of a count parsed from the input (n, err :=
// strconv.Atoi(s)); once per element when bound is a call of a function,
// in any package, whose body is return len(x) (q.Len()), or a variable
// set once to one; a fixed count otherwise (a constant, the number of
// CPUs, a configured number of workers).
func (c *checker) countUnit(bound ast.Expr) (string, bool) {
	if x := c.lenOf(bound, 0); x != nil {
		return "element of " + types.ExprString(x), true
	}
	if call, of := c.lengthCall(bound); call != nil {
		return "element of " + of + " (the length " + types.ExprString(call) + " returns)", true
	}
	if parse := c.parsedBy(bound); parse != "" {
		return "unit of " + types.ExprString(bound) + ", parsed by " + parse, true
	}
	if x := c.lenAtEveryCall(bound); x != nil {
		return "element of " + types.ExprString(x) + " its callers pass the length of", true
	}
	return "", false
}

// parsedBy returns the parser of e ("strconv.Atoi") when e is a count
// parsed from text, as int(n) or as a variable the parse defines and
// nothing assigns again: n, err := strconv.Atoi(s).
func (c *checker) parsedBy(e ast.Expr) string {
	info := c.pass.TypesInfo
	e = ast.Unparen(e)
	if conv, ok := e.(*ast.CallExpr); ok && len(conv.Args) == 1 && info.Types[conv.Fun].IsType() {
		e = ast.Unparen(conv.Args[0]) // int(n)
	}
	v := c.localVar(e)
	if v == nil {
		return ""
	}
	w := c.writesOf(v)
	// Set once: by the call defining it (nothing else assigns it or takes
	// its address), or through its address, handed to one call.
	if w.assigns+w.addrs == 1 && w.define != nil {
		fn, _ := typeutil.Callee(info, w.define).(*types.Func)
		if match.IsFunc(fn, "strconv", "Atoi", "ParseInt", "ParseUint") {
			return "strconv." + fn.Name()
		}
		return ""
	}
	if w.assigns+w.addrs+w.others == 1 && w.scan != nil {
		fn, _ := typeutil.Callee(info, w.scan).(*types.Func)
		if match.IsFunc(fn, "fmt", "Sscan", "Sscanf", "Sscanln", "Fscan", "Fscanf", "Fscanln") {
			return "fmt." + fn.Name()
		}
	}
	return ""
}

// writes counts the ways a local variable is set, in its file.
type writes struct {
	assigns int           // assignments (v = …, v, err := …)
	addrs   int           // &v anywhere
	others  int           // increments, an initial value in a var declaration
	define  *ast.CallExpr // the call whose first result defines v: v, err := f(…)
	scan    *ast.CallExpr // the call v's address is handed to: fmt.Sscanf(s, "%d", &n)
}

// writesOf returns how v is set.
func (c *checker) writesOf(v *types.Var) writes {
	var w writes
	file := c.fileOf(v.Pos())
	if file == nil {
		return w
	}
	info := c.pass.TypesInfo
	is := func(e ast.Expr) bool {
		id, ok := ast.Unparen(e).(*ast.Ident)
		return ok && info.ObjectOf(id) == v
	}
	ast.Inspect(file, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			for i, lhs := range n.Lhs {
				if is(lhs) {
					w.assigns++
					if i == 0 && len(n.Rhs) == 1 && n.Tok == token.DEFINE {
						w.define, _ = ast.Unparen(n.Rhs[0]).(*ast.CallExpr)
					}
				}
			}
		case *ast.IncDecStmt:
			if is(n.X) {
				w.others++
			}
		case *ast.ValueSpec:
			for _, name := range n.Names {
				if info.Defs[name] == v && len(n.Values) > 0 {
					w.others++
				}
			}
		case *ast.UnaryExpr:
			if n.Op == token.AND && is(n.X) {
				w.addrs++
			}
		case *ast.CallExpr:
			for _, arg := range n.Args {
				if u, ok := ast.Unparen(arg).(*ast.UnaryExpr); ok && u.Op == token.AND && is(u.X) {
					w.scan = n
				}
			}
		}
		return true
	})
	return w
}

// lenAtEveryCall returns x when bound is a parameter of an unexported
// function every call of which, in the package, passes len(x) (or a
// variable set once to it) for it; the function must not be used as a
// value, so that its calls are all in view.
func (c *checker) lenAtEveryCall(bound ast.Expr) ast.Expr {
	info := c.pass.TypesInfo
	id, ok := ast.Unparen(bound).(*ast.Ident)
	if !ok {
		return nil
	}
	param, ok := info.Uses[id].(*types.Var)
	if !ok {
		return nil
	}
	fn, index := c.paramOf(param)
	if fn == nil || fn.Exported() || c.declaredByInterface(fn) {
		return nil
	}
	var x ast.Expr
	calls := 0
	for _, f := range c.pass.Files {
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.CallExpr:
				if typeutil.Callee(info, n) != fn {
					return true
				}
				calls++
				if index < len(n.Args) {
					if arg := c.lenOf(n.Args[index], 0); arg != nil {
						x = cmp.Or(x, arg)
						return true
					}
				}
				calls = -1 << 20 // a call that passes something else
			case *ast.Ident:
				if info.Uses[n] == fn && !c.isCallee(f, n) {
					calls = -1 << 20 // used as a value
				}
			}
			return true
		})
	}
	if calls <= 0 {
		return nil
	}
	return x
}

// declaredByInterface reports whether fn is a method whose name an
// interface type of the package also declares: calls through such an
// interface are calls of fn that name no *types.Func of it.
func (c *checker) declaredByInterface(fn *types.Func) bool {
	if fn.Signature().Recv() == nil {
		return false
	}
	for _, tv := range c.pass.TypesInfo.Types {
		iface, ok := tv.Type.Underlying().(*types.Interface)
		if !ok || !tv.IsType() {
			continue
		}
		for i := range iface.NumMethods() {
			if iface.Method(i).Name() == fn.Name() {
				return true
			}
		}
	}
	return false
}

// paramOf returns the function or method that declares v as a parameter
// (not its receiver), and v's index among its parameters.
func (c *checker) paramOf(v *types.Var) (*types.Func, int) {
	for _, f := range c.pass.Files {
		for _, decl := range f.Decls {
			fd, ok := decl.(*ast.FuncDecl)
			if !ok || !(fd.Type.Pos() <= v.Pos() && v.Pos() < fd.Type.End()) {
				continue
			}
			fn, _ := c.pass.TypesInfo.Defs[fd.Name].(*types.Func)
			if fn == nil {
				return nil, 0
			}
			params := fn.Signature().Params()
			for i := range params.Len() {
				if params.At(i) == v {
					return fn, i
				}
			}
		}
	}
	return nil, 0
}

// isCallee reports whether id is the function of a call expression in f.
func (c *checker) isCallee(f *ast.File, id *ast.Ident) bool {
	path, _ := astutil.PathEnclosingInterval(f, id.Pos(), id.End())
	for i, n := range path {
		if call, ok := n.(*ast.CallExpr); ok && i > 0 {
			return ast.Unparen(call.Fun) == path[i-1] || ast.Unparen(call.Fun) == id
		}
	}
	return false
}

// lengthCall returns the call in e of a function that returns a length
// (see package lengths), e itself or the value of a local variable
// assigned only once, with what it is the length of; nil otherwise.
func (c *checker) lengthCall(e ast.Expr) (*ast.CallExpr, string) {
	if _, ok := ast.Unparen(e).(*ast.Ident); ok {
		v := c.localVar(e)
		if v == nil {
			return nil, ""
		}
		e = c.onlyValue(v)
	}
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok {
		return nil, ""
	}
	if of := c.lengths.Of(call); of != "" {
		return call, of
	}
	return nil, ""
}

// lenOf returns x when e is len(x), or a local variable assigned only
// once, to len(x).
func (c *checker) lenOf(e ast.Expr, depth int) ast.Expr {
	info := c.pass.TypesInfo
	switch e := ast.Unparen(e).(type) {
	case *ast.CallExpr:
		if b, ok := info.Uses[calleeIdent(e)].(*types.Builtin); ok && b.Name() == "len" && len(e.Args) == 1 {
			return e.Args[0]
		}
	case *ast.Ident:
		v := c.localVar(e)
		if v == nil || depth > 0 {
			return nil
		}
		if value := c.onlyValue(v); value != nil {
			return c.lenOf(value, depth+1)
		}
	}
	return nil
}

// localVar returns the local variable e names, or nil when e is not an
// identifier of one (a package-level variable may be set anywhere).
func (c *checker) localVar(e ast.Expr) *types.Var {
	id, ok := ast.Unparen(e).(*ast.Ident)
	if !ok {
		return nil
	}
	v, ok := c.pass.TypesInfo.Uses[id].(*types.Var)
	if !ok || v.Parent() == nil || v.Parent() == v.Pkg().Scope() {
		return nil
	}
	return v
}

// onlyValue returns the expression a local variable is declared with,
// when it is never assigned again.
func (c *checker) onlyValue(v *types.Var) ast.Expr {
	file := c.fileOf(v.Pos())
	if file == nil {
		return nil
	}
	info := c.pass.TypesInfo
	var value ast.Expr
	assigned := 0
	ast.Inspect(file, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			for i, lhs := range n.Lhs {
				id, ok := lhs.(*ast.Ident)
				if !ok || info.ObjectOf(id) != v {
					continue
				}
				assigned++
				if len(n.Lhs) == len(n.Rhs) && n.Tok == token.DEFINE {
					value = n.Rhs[i]
				}
			}
		case *ast.IncDecStmt:
			if id, ok := n.X.(*ast.Ident); ok && info.ObjectOf(id) == v {
				assigned++
			}
		case *ast.UnaryExpr:
			if id, ok := n.X.(*ast.Ident); ok && n.Op == token.AND && info.ObjectOf(id) == v {
				assigned++ // its address is taken: it may change
			}
		}
		return true
	})
	if assigned != 1 {
		return nil
	}
	return value
}

func calleeIdent(call *ast.CallExpr) *ast.Ident {
	id, _ := ast.Unparen(call.Fun).(*ast.Ident)
	return id
}

// inductionBound returns the bound of a counting loop, for i := a; i < n;
// i++ (any comparison, any step), or nil if loop is not one.
func inductionBound(info *types.Info, loop *ast.ForStmt) ast.Expr {
	init, ok := loop.Init.(*ast.AssignStmt)
	if !ok || len(init.Lhs) != 1 || loop.Post == nil {
		return nil
	}
	id, ok := init.Lhs[0].(*ast.Ident)
	if !ok {
		return nil
	}
	v := info.ObjectOf(id)
	cond, ok := ast.Unparen(loop.Cond).(*ast.BinaryExpr)
	if !ok || v == nil {
		return nil
	}
	switch cond.Op {
	case token.LSS, token.LEQ, token.GTR, token.GEQ, token.NEQ:
	default:
		return nil
	}
	var bound ast.Expr
	if x, ok := ast.Unparen(cond.X).(*ast.Ident); ok && info.ObjectOf(x) == v {
		bound = cond.Y
	} else if y, ok := ast.Unparen(cond.Y).(*ast.Ident); ok && info.ObjectOf(y) == v {
		bound = cond.X
	}
	if bound != nil && isConst(info, bound) && len(init.Rhs) == 1 && countsDown(info, loop.Post, v) {
		return downFrom(info, init.Rhs[0]) // for i := len(xs) - 1; i >= 0; i--
	}
	return bound
}

// countsDown reports whether post decrements v by one: v-- or v -= 1.
func countsDown(info *types.Info, post ast.Stmt, v types.Object) bool {
	switch post := post.(type) {
	case *ast.IncDecStmt:
		id, ok := ast.Unparen(post.X).(*ast.Ident)
		return ok && post.Tok == token.DEC && info.ObjectOf(id) == v
	case *ast.AssignStmt:
		if len(post.Lhs) != 1 || post.Tok != token.SUB_ASSIGN {
			return false
		}
		id, ok := ast.Unparen(post.Lhs[0]).(*ast.Ident)
		one := info.Types[post.Rhs[0]].Value
		return ok && info.ObjectOf(id) == v && one != nil && one.String() == "1"
	}
	return false
}

// downFrom returns the count a loop counting down from start runs for:
// start itself, or n for start n - 1 (or n minus any constant).
func downFrom(info *types.Info, start ast.Expr) ast.Expr {
	if sub, ok := ast.Unparen(start).(*ast.BinaryExpr); ok && sub.Op == token.SUB && isConst(info, sub.Y) {
		return sub.X
	}
	return start
}

// isConst reports whether e is a constant expression.
func isConst(info *types.Info, e ast.Expr) bool {
	return info.Types[e].Value != nil
}

// isRecursive reports whether fn can call itself: the spawn starts fn
// again, or fn or one of its closures calls fn.
func isRecursive(fn *ssa.Function, site spawn.Site) bool {
	if site.Fn == fn {
		return true
	}
	var calls func(f *ssa.Function, depth int) bool
	calls = func(f *ssa.Function, depth int) bool {
		for _, b := range f.Blocks {
			for _, instr := range b.Instrs {
				if call, ok := instr.(ssa.CallInstruction); ok && call.Common().StaticCallee() == fn {
					return true
				}
			}
		}
		for _, anon := range f.AnonFuncs {
			if depth < 4 && calls(anon, depth+1) {
				return true
			}
		}
		return false
	}
	return calls(fn, 0)
}

// isHandler reports whether fn serves an HTTP request: its parameters
// include an http.ResponseWriter and an *http.Request.
func isHandler(fn *ssa.Function) bool {
	params := fn.Signature.Params()
	w, r := false, false
	for i := 0; i < params.Len(); i++ {
		t := params.At(i).Type()
		w = w || match.IsNamed(t, "net/http", "ResponseWriter")
		if ptr, ok := t.(*types.Pointer); ok {
			r = r || match.IsNamed(ptr, "net/http", "Request")
		}
	}
	return w && r
}

// runsOnce reports whether fn runs once per process or test: main, an
// init function, or a test, benchmark, fuzz or example function.
func runsOnce(fn *ssa.Function) bool {
	if fn.Parent() != nil || fn.Signature.Recv() != nil {
		return false
	}
	name := fn.Name()
	if fn.Pkg != nil && fn.Pkg.Pkg.Name() == "main" && name == "main" {
		return true
	}
	if name == "init" || strings.HasPrefix(name, "init#") {
		return true
	}
	for _, prefix := range []string{"Test", "Example", "Fuzz"} {
		if strings.HasPrefix(name, prefix) && isTestFile(fn) {
			return true
		}
	}
	return false
}

// isTestFile reports whether fn is declared in a _test.go file.
func isTestFile(fn *ssa.Function) bool {
	pos := fn.Prog.Fset.Position(fn.Pos())
	return strings.HasSuffix(pos.Filename, "_test.go")
}

// callbackUnit names the unit of a spawn in a function literal that is
// not called in place: it runs once per call of whatever it is given to.
// A literal given to sync.Once.Do (or OnceFunc) runs once.
func (c *checker) callbackUnit(fn *ssa.Function) string {
	var value ssa.Value = fn
	if mc := c.closureOf(fn); mc != nil {
		value = mc
	}
	for _, ref := range *value.Referrers() {
		call, ok := ref.(ssa.CallInstruction)
		if !ok {
			continue
		}
		callee := match.Callee(call)
		switch {
		case match.IsMethod(callee, "sync", "Once", "Do"), match.IsFunc(callee, "sync", "OnceFunc", "OnceValue", "OnceValues"):
			return ""
		case callee != nil:
			return "call of the function literal passed to " + calleeName(callee, fn.Pkg.Pkg)
		}
	}
	return "call of the function literal"
}

// funcName names fn, of the package being analysed, as a user would:
// walk, Gate.Start.
func funcName(fn *ssa.Function) string {
	if obj, ok := fn.Object().(*types.Func); ok {
		return calleeName(obj, obj.Pkg())
	}
	return fn.Name()
}

// calleeName names fn as a user of package from would: walk, Gate.Start,
// filepath.WalkDir.
func calleeName(fn *types.Func, from *types.Package) string {
	recv := fn.Signature().Recv()
	if recv == nil {
		if fn.Pkg() != nil && fn.Pkg() != from {
			return fn.Pkg().Name() + "." + fn.Name()
		}
		return fn.Name()
	}
	t := types.Unalias(recv.Type())
	if ptr, ok := t.(*types.Pointer); ok {
		t = types.Unalias(ptr.Elem())
	}
	if named, ok := t.(*types.Named); ok {
		return named.Obj().Name() + "." + fn.Name()
	}
	return fn.Name()
}
