// Package sendsum defines a summary analyzer, reporting nothing, that
// records what a function does with the channels and callbacks it is
// given: how many plain sends it makes on each channel parameter, and
// which function parameters it runs in place, in its caller's goroutine.
//
// strandedsend follows a channel from the function that makes it into
// the goroutines it starts. These summaries let it follow the channel
// further, into the helpers those goroutines call and the callbacks they
// hand to walkers:
//
//	go func() { produce(ctx, results) }()            // produce sends on results
//	go func() {
//		filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
//			paths <- p // a send per file
//			return nil
//		})
//	}()
//
// A plain send is a send statement, or a select whose every case sends
// on the parameter: once the receiver has left, it blocks forever. A
// parameter the function also receives from, stores, returns, hands to a
// goroutine or passes to code out of view has no summary, and neither
// does one it closes (strandedsend then treats the call as out of view,
// which means silence).
//
// A parameter that is a struct, or a pointer to one, is summarised the
// same way for each of its channel fields: the plain sends on that field
// of the struct it is given (func work(t *task) { t.out <- t.n }, or a
// method sending on a field of its receiver). The struct must go nowhere
// out of view either. A field it sends on only in selects that can give
// up (a case on ctx.Done()) is summarised too, with no plain send: the
// struct it is given is answered in view, and a requester handing it one
// is not stranded by the package's other sends on that field.
//
// The summaries of the package's own functions are the analyzer's
// Result; those of the packages it imports arrive as facts. The standard
// library is not summarised: a table lists its walkers.
package sendsum

import (
	"cmp"
	"fmt"
	"go/ast"
	"go/build"
	"go/token"
	"go/types"
	"path/filepath"
	"reflect"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/inspect"
	"golang.org/x/tools/go/ast/inspector"
	"golang.org/x/tools/go/ssa"

	"github.com/admitlint/admitlint/internal/lazyssa"
	"github.com/admitlint/admitlint/internal/match"
	"github.com/admitlint/admitlint/internal/spawn"
	"github.com/admitlint/admitlint/internal/ssacfg"
	"github.com/admitlint/admitlint/passes/strandedsend/internal/chanuse"
)

// Analyzer summarises the package's functions; its result is a *Result.
var Analyzer = &analysis.Analyzer{
	Name:       "sendsum",
	Doc:        "summarise the plain sends functions make on their channel parameters, and the callbacks they run in place",
	URL:        "https://pkg.go.dev/github.com/admitlint/admitlint/passes/strandedsend/internal/sendsum",
	Run:        run,
	Requires:   []*analysis.Analyzer{inspect.Analyzer, lazyssa.Analyzer},
	ResultType: reflect.TypeFor[*Result](),
	FactTypes:  []analysis.Fact{new(Summary)},
}

// Sends summarises what a function does with one channel parameter it
// only sends on.
type Sends struct {
	Param int // the parameter's index, the receiver first for a method
	// Holding says whether the parameter is the channel or holds it in
	// a field of its struct; Name is that field's name.
	chanuse.Holding
	Name  string
	Most  int  // the most plain sends on one path through the function
	Least int  // the fewest on a path that returns
	Loop  bool // a plain send may repeat (a loop, recursion): a stream
	// ByKind: every repeat is made for one kind of value the loop meets
	// (a case of a type switch in it): as many sends as the peer sends
	// values of that kind, not a stream the function makes itself
	ByKind bool
	Closes bool // it also closes the channel
	// Selects: some send on it is a case of a select that can give up
	Selects bool
	// At is where the first plain send is (or, with none, the first
	// case that can give up), as file.go:line; Pos is the plain send's
	// position, valid in its own package only.
	At  string
	Pos token.Pos
}

// Plain reports whether the summary makes a plain send: at least one on
// some path, or a stream of them.
func (x *Sends) Plain() bool { return x.Most > 0 || x.Loop }

// A Callback is a function parameter run in place.
type Callback struct {
	Param int
	Once  bool // run at most once per call; else any number of times
}

// Summary is the fact about a function with at least one summarised
// parameter: its plain sends by channel parameter, its callbacks.
type Summary struct {
	Sends     []Sends
	Callbacks []Callback
}

func (*Summary) AFact() {}

// exported returns the summary as a fact, or nil if it says nothing
// worth a fact: positions mean nothing in another package, and a field
// the function does nothing with is known only in its own package.
func (s *Summary) exported() *Summary {
	fact := &Summary{Callbacks: s.Callbacks}
	for _, x := range s.Sends {
		if !x.Idle() {
			x.Pos = token.NoPos
			fact.Sends = append(fact.Sends, x)
		}
	}
	if len(fact.Sends)+len(fact.Callbacks) == 0 {
		return nil
	}
	return fact
}

// Idle reports whether the function neither sends on the channel nor
// closes it: given a struct holding it, it uses other fields, and keeps
// the struct in view.
func (x *Sends) Idle() bool {
	return x.Most == 0 && !x.Loop && !x.Selects && !x.Closes
}

func (s *Summary) String() string {
	var parts []string
	for _, x := range s.Sends {
		n := fmt.Sprint(x.Most)
		if x.Most == 0 && !x.Loop {
			n = "no plain send"
		}
		if x.Loop {
			n = "a stream"
		}
		if x.ByKind {
			n = "one per value of a kind"
		}
		param := fmt.Sprint(x.Param)
		if x.Held {
			param += "." + x.Name
		}
		parts = append(parts, fmt.Sprintf("param %s: %s (%s)", param, n, x.At))
	}
	for _, cb := range s.Callbacks {
		parts = append(parts, fmt.Sprintf("param %d: callback (once=%t)", cb.Param, cb.Once))
	}
	return "sendsum(" + strings.Join(parts, "; ") + ")"
}

// Result answers, for a callee of the package or of one it imports, what
// the summaries say.
type Result struct {
	local    map[*ssa.Function]*Summary
	imported map[types.Object]*Summary
}

// SendsOn returns the summary of what callee does with the channel its
// parameter param is (or holds, as how says), or nil if it has none.
func (r *Result) SendsOn(callee *ssa.Function, param int, how chanuse.Holding) *Sends {
	if s := r.of(callee); s != nil {
		for i := range s.Sends {
			if s.Sends[i].Param == param && s.Sends[i].Holding == how {
				return &s.Sends[i]
			}
		}
	}
	return nil
}

// Runs reports whether callee runs its function parameter param in
// place, and if so whether at most once.
func (r *Result) Runs(callee *ssa.Function, param int) (once, ok bool) {
	if w, ok := walkerOf(callee); ok {
		return w.once, w.param == param
	}
	if s := r.of(callee); s != nil {
		for _, cb := range s.Callbacks {
			if cb.Param == param {
				return cb.Once, true
			}
		}
	}
	return false, false
}

func (r *Result) of(fn *ssa.Function) *Summary {
	if fn == nil {
		return nil
	}
	if fn.Origin() != nil {
		fn = fn.Origin()
	}
	if s, ok := r.local[fn]; ok {
		return s
	}
	if obj := fn.Object(); obj != nil {
		return r.imported[obj]
	}
	return nil
}

// A walker is a function of the standard library that runs a callback
// in place: typ is empty for a function.
type walker struct {
	pkg, typ, name string
	param          int // the callback's index in the call's arguments, the receiver first
	once           bool
}

// walkers lists the standard library's functions that run a function
// argument in the caller's goroutine.
var walkers = []walker{
	{pkg: "path/filepath", name: "Walk", param: 1},
	{pkg: "path/filepath", name: "WalkDir", param: 1},
	{pkg: "io/fs", name: "WalkDir", param: 2},
	{pkg: "sync", typ: "Map", name: "Range", param: 1},
	{pkg: "sync", typ: "Once", name: "Do", param: 1, once: true},
}

// walkerOf returns the walker fn is, if it is one.
func walkerOf(fn *ssa.Function) (walker, bool) {
	obj, _ := fn.Object().(*types.Func)
	for _, w := range walkers {
		if w.typ == "" && match.IsFunc(obj, w.pkg, w.name) || w.typ != "" && match.IsMethod(obj, w.pkg, w.typ, w.name) {
			return w, true
		}
	}
	return walker{}, false
}

func run(pass *analysis.Pass) (any, error) {
	res := &Result{local: map[*ssa.Function]*Summary{}, imported: map[types.Object]*Summary{}}
	for _, f := range pass.AllObjectFacts() {
		if f.Object.Pkg() != pass.Pkg {
			res.imported[f.Object] = f.Fact.(*Summary)
		}
	}
	if isStd(pass) || !hasCandidates(pass) {
		return res, nil
	}
	prog, err := lazyssa.Of(pass).SSA()
	if err != nil {
		return nil, err
	}
	s := &summarizer{pass: pass, res: res, sends: map[key]*Sends{}, runs: map[key]runs{}}
	for _, fn := range prog.SrcFuncs {
		if sum := s.summary(fn); sum != nil {
			res.local[fn] = sum
			if obj, ok := fn.Object().(*types.Func); ok && fn.Parent() == nil {
				if fact := sum.exported(); fact != nil {
					pass.ExportObjectFact(obj, fact)
				}
			}
		}
	}
	return res, nil
}

// goroot is where the standard library's sources are.
var goroot = filepath.Join(build.Default.GOROOT, "src") + string(filepath.Separator)

// isStd reports whether the package belongs to the standard library: its
// files are in GOROOT.
func isStd(pass *analysis.Pass) bool {
	if len(pass.Files) == 0 {
		return false
	}
	f := pass.Fset.File(pass.Files[0].Pos())
	return f != nil && strings.HasPrefix(f.Name(), goroot)
}

// hasCandidates reports whether some function of the package may have a
// summary: it sends on a channel parameter or passes one on, or calls a
// function parameter in a loop or passes one on; or it has a parameter
// (or receiver) that is a struct with a channel field, or points to one,
// and sends on a field of it, passes it on or calls a method of it. Most
// packages have none and are spared their SSA form.
func hasCandidates(pass *analysis.Pass) bool {
	ins := pass.ResultOf[inspect.Analyzer].(*inspector.Inspector)
	found := false
	ins.Preorder([]ast.Node{(*ast.FuncDecl)(nil)}, func(n ast.Node) {
		decl := n.(*ast.FuncDecl)
		if found || decl.Body == nil {
			return
		}
		params := map[types.Object]bool{}
		lists := decl.Type.Params.List
		if decl.Recv != nil {
			lists = append(slices.Clone(decl.Recv.List), lists...)
		}
		for _, f := range lists {
			for _, name := range f.Names {
				obj := pass.TypesInfo.Defs[name]
				if obj != nil && summarisable(obj.Type()) {
					params[obj] = true
				}
			}
		}
		if len(params) > 0 {
			found = usesParams(pass.TypesInfo, decl.Body, params)
		}
	})
	return found
}

// summarisable reports whether a parameter of type typ may have a
// summary: a channel, a function, or a struct with a channel field (or
// a pointer to one).
func summarisable(typ types.Type) bool {
	switch typ.Underlying().(type) {
	case *types.Chan, *types.Signature:
		return true
	}
	if st := structOf(typ); st != nil {
		for i := range st.NumFields() {
			if _, ok := st.Field(i).Type().Underlying().(*types.Chan); ok {
				return true
			}
		}
	}
	return false
}

// usesParams reports whether body sends on one of params (or on a field
// of one), calls one in a loop, or passes one to a call (or calls a
// method of one).
func usesParams(info *types.Info, body *ast.BlockStmt, params map[types.Object]bool) bool {
	isParam := func(e ast.Expr) bool {
		id, ok := ast.Unparen(e).(*ast.Ident)
		return ok && params[info.Uses[id]]
	}
	ofParam := func(e ast.Expr) bool { // p.f
		sel, ok := ast.Unparen(e).(*ast.SelectorExpr)
		return ok && isParam(sel.X)
	}
	found := false
	loops := 0
	var visit func(n ast.Node) bool
	visit = func(n ast.Node) bool {
		if found {
			return false
		}
		switch n := n.(type) {
		case *ast.SendStmt:
			found = isParam(n.Chan) || ofParam(n.Chan)
		case *ast.ForStmt, *ast.RangeStmt:
			loops++
			ast.Inspect(n.(ast.Stmt), func(m ast.Node) bool {
				if m == n {
					return true
				}
				return visit(m)
			})
			loops--
			return false
		case *ast.CallExpr:
			found = loops > 0 && isParam(n.Fun) || slices.ContainsFunc(n.Args, isParam) || ofParam(n.Fun)
		}
		return !found
	}
	ast.Inspect(body, visit)
	return found
}

// A key names a parameter (or free variable) of a function, and how it
// carries the channel.
type key struct {
	fn  *ssa.Function
	v   ssa.Value
	how chanuse.Holding
}

// runs is how a function parameter is run: not at all in place (no),
// or at most once, or many times.
type runs struct {
	ok, once bool
}

type summarizer struct {
	pass  *analysis.Pass
	res   *Result
	sends map[key]*Sends // nil while in progress, or when there is none
	runs  map[key]runs
}

// summary returns fn's summary, or nil if no parameter has one.
func (s *summarizer) summary(fn *ssa.Function) *Summary {
	if fn.Blocks == nil {
		return nil
	}
	var sum Summary
	for i, p := range fn.Params {
		switch p.Type().Underlying().(type) {
		case *types.Chan:
			if x := s.sendsOf(fn, p, chanuse.Holding{}); x != nil && x.Plain() {
				y := *x
				y.Param = i
				sum.Sends = append(sum.Sends, y)
			}
		case *types.Signature:
			if r := s.runsOf(fn, p); r.ok {
				sum.Callbacks = append(sum.Callbacks, Callback{Param: i, Once: r.once})
			}
		}
		st := structOf(p.Type())
		if st == nil {
			continue
		}
		for f := range st.NumFields() {
			if _, ok := st.Field(f).Type().Underlying().(*types.Chan); !ok {
				continue
			}
			how := chanuse.Holding{Held: true, Field: f}
			if x := s.sendsOf(fn, p, how); x != nil && !(x.Closes && !x.Plain()) {
				// Idle too: a method of the struct that only reads its
				// other fields leaves the channel in view. (One that
				// only closes it is out of this count, as for a
				// channel parameter.)
				y := *x
				y.Param, y.Holding, y.Name = i, how, st.Field(f).Name()
				sum.Sends = append(sum.Sends, y)
			}
		}
	}
	if len(sum.Sends) == 0 && len(sum.Callbacks) == 0 {
		return nil
	}
	return &sum
}

// structOf returns the struct a value of type typ is, or points to.
func structOf(typ types.Type) *types.Struct {
	if ptr, ok := typ.Underlying().(*types.Pointer); ok {
		typ = ptr.Elem()
	}
	st, _ := typ.Underlying().(*types.Struct)
	return st
}

// sendsOf summarises what fn does with the channel v, a parameter or a
// free variable (a cell) of fn, is or holds (as how says): nil if it
// does anything but send (and send in the closures and helpers it runs
// in place).
func (s *summarizer) sendsOf(fn *ssa.Function, v ssa.Value, how chanuse.Holding) *Sends {
	k := key{fn, v, how}
	if x, seen := s.sends[k]; seen {
		return x // nil while in progress: recursion is not summarised
	}
	s.sends[k] = nil
	u := chanuse.TraceHandoff(chanuse.Handoff{Fn: fn, Into: v, Holding: how}, spawn.Sites(fn), s)
	if u.Escape != nil || len(u.Recvs)+len(u.RecvCases)+len(u.Returns)+len(u.FieldStore) > 0 {
		return nil
	}
	most := map[ssa.Instruction]int{}
	least := map[ssa.Instruction]int{}
	loop, closes := false, len(u.Closes) > 0
	selects, gives := false, token.NoPos // gives: the first case that can give up
	byKind := true                       // so far, every repeat is for one kind of value
	var first token.Pos
	note := func(pos token.Pos) {
		if !first.IsValid() || pos < first {
			first = pos
		}
	}
	for _, send := range u.Sends {
		most[send]++
		least[send]++
		note(send.Pos())
	}
	for _, c := range u.SendCases {
		if body := ssacfg.CaseBody(c.Select, c.Index); body != nil && onlySends(c.Select, u.Values) {
			// Counted where the case is taken: a select in a loop that
			// leaves once it has sent sends once.
			most[body.Instrs[0]], least[body.Instrs[0]] = 1, 1
			note(c.Select.States[c.Index].Pos)
			continue
		}
		if !selects || c.Select.States[c.Index].Pos < gives {
			gives = c.Select.States[c.Index].Pos
		}
		selects = true
	}
	for _, call := range u.Calls {
		x := s.calleeSends(call.Instr, call.Arg, call.Holding)
		if x == nil {
			return nil
		}
		most[call.Instr] += x.Most
		least[call.Instr] += x.Least
		loop, closes, selects = loop || x.Loop, closes || x.Closes, selects || x.Selects
		byKind = byKind && (!x.Loop || x.ByKind)
		if x.Plain() {
			note(call.Instr.Pos()) // the call that sends, not an idle one before it
		}
	}
	for _, h := range u.Handoffs {
		if h.Site != nil {
			return nil // another goroutine sends: not a send of this call
		}
		x := s.sendsOf(h.Fn, h.Into, h.Holding)
		if x == nil {
			return nil
		}
		most[h.Instr] += x.Most
		if h.Runs == chanuse.Once {
			least[h.Instr] += x.Least
		}
		each := h.Runs == chanuse.Many && x.Most > 0 // a callback run for every element
		loop = loop || x.Loop || each
		byKind = byKind && (!x.Loop || x.ByKind) && !each
		closes, selects = closes || x.Closes, selects || x.Selects
		if x.Plain() && x.Pos.IsValid() {
			note(x.Pos)
		}
	}
	n, cyclic := ssacfg.MostWeight(fn, most)
	if cyclic {
		byKind = byKind && ssacfg.RepeatsByKind(fn, most)
	}
	loop = loop || cyclic
	x := &Sends{Most: n, Least: ssacfg.LeastWeight(fn, least), Loop: loop, ByKind: loop && byKind, Closes: closes, Selects: selects, Pos: first}
	if at := cmp.Or(first, gives); at.IsValid() {
		p := s.pass.Fset.Position(at)
		x.At = fmt.Sprintf("%s:%d", filepath.Base(p.Filename), p.Line)
	}
	s.sends[k] = x
	return x
}

// onlySends reports whether sel can only complete by a send on the
// channel (whose values are vals): every other case, once taken, only
// leads back to the select.
func onlySends(sel *ssa.Select, vals map[ssa.Value]bool) bool {
	if !sel.Blocking {
		return false
	}
	for i, st := range sel.States {
		if (st.Dir != types.SendOnly || !vals[st.Chan]) && chanuse.CaseLeaves(sel, i) {
			return false
		}
	}
	return true
}

// runsOf reports whether fn runs its function parameter p only in place:
// it calls it, defers it, or passes it to a function that runs it in
// place, and does nothing else with it.
func (s *summarizer) runsOf(fn *ssa.Function, p *ssa.Parameter) runs {
	k := key{fn, p, chanuse.Holding{}}
	if r, seen := s.runs[k]; seen {
		return r
	}
	// Assumed while in progress: a recursive walker passes its callback
	// to itself, and that runs it in place as much as the rest does.
	s.runs[k] = runs{ok: true}
	calls := map[ssa.Instruction]int{}
	many := false
	for _, ref := range *p.Referrers() {
		switch ref := ref.(type) {
		case ssa.CallInstruction:
			if _, isGo := ref.(*ssa.Go); isGo {
				s.runs[k] = runs{}
				return runs{}
			}
			r := s.passedTo(ref, p)
			if !r.ok {
				s.runs[k] = runs{}
				return runs{}
			}
			calls[ref]++
			many = many || !r.once
		case *ssa.DebugRef:
		default:
			s.runs[k] = runs{}
			return runs{}
		}
	}
	n, cyclic := ssacfg.MostWeight(fn, calls)
	r := runs{ok: len(calls) > 0, once: n <= 1 && !cyclic && !many}
	s.runs[k] = r
	return r
}

// passedTo says how call runs the function value p: as its callee, once;
// as an argument, as the callee runs that parameter.
func (s *summarizer) passedTo(call ssa.CallInstruction, p ssa.Value) runs {
	common := call.Common()
	if common.Value == p {
		return runs{ok: true, once: true}
	}
	callee := common.StaticCallee()
	if callee == nil || slices.Contains(common.Args, p) && common.IsInvoke() {
		return runs{}
	}
	r := runs{ok: true, once: true}
	for i, a := range common.Args {
		if a != p {
			continue
		}
		var ri runs
		if callee.Pkg == p.Parent().Pkg && callee.Blocks != nil && i < len(callee.Params) {
			ri = s.runsOf(callee, callee.Params[i])
		} else if once, ok := s.res.Runs(callee, i); ok {
			ri = runs{ok: true, once: once}
		}
		if !ri.ok {
			return runs{}
		}
		r.once = r.once && ri.once
	}
	return r
}

// calleeSends returns the summary of what the static callee of call
// does with the channel its argument arg is (or holds, as how says):
// computed now for the package's own functions, from the facts for
// others.
func (s *summarizer) calleeSends(call ssa.CallInstruction, arg int, how chanuse.Holding) *Sends {
	callee := staticCall(call)
	if callee == nil {
		return nil
	}
	if callee.Pkg == call.Parent().Pkg && callee.Blocks != nil {
		if arg >= len(callee.Params) {
			return nil
		}
		return s.sendsOf(callee, callee.Params[arg], how)
	}
	return s.res.SendsOn(callee, arg, how)
}

// Call implements chanuse.Follow.
func (s *summarizer) Call(call ssa.CallInstruction, arg int, how chanuse.Holding) bool {
	return s.calleeSends(call, arg, how) != nil
}

// Callback implements chanuse.Follow.
func (s *summarizer) Callback(call ssa.CallInstruction, arg int) (chanuse.Runs, bool) {
	callee := staticCall(call)
	if _, isCall := call.(*ssa.Call); !isCall || callee == nil {
		return 0, false
	}
	if callee.Pkg == call.Parent().Pkg && callee.Blocks != nil && arg < len(callee.Params) {
		return asRuns(s.runsOf(callee, callee.Params[arg]))
	}
	return s.res.Callback(call, arg)
}

// Call implements chanuse.Follow for the callees of a package whose own
// functions have been summarised.
func (r *Result) Call(call ssa.CallInstruction, arg int, how chanuse.Holding) bool {
	callee := staticCall(call)
	return callee != nil && r.SendsOn(callee, arg, how) != nil
}

// Callback implements chanuse.Follow for the callees of a package whose
// own functions have been summarised.
func (r *Result) Callback(call ssa.CallInstruction, arg int) (chanuse.Runs, bool) {
	callee := staticCall(call)
	if _, isCall := call.(*ssa.Call); !isCall || callee == nil {
		return 0, false
	}
	once, ok := r.Runs(callee, arg)
	return asRuns(runs{ok: ok, once: once})
}

// staticCall returns the function call calls, if it is known
// statically.
func staticCall(call ssa.CallInstruction) *ssa.Function {
	if call.Common().IsInvoke() {
		return nil
	}
	return call.Common().StaticCallee()
}

func asRuns(r runs) (chanuse.Runs, bool) {
	switch {
	case !r.ok:
		return 0, false
	case r.once:
		return chanuse.AtMostOnce, true
	}
	return chanuse.Many, true
}
