// Package replyfields defines a summary analyzer, reporting nothing, that
// finds the reply channels of requests whose receivers can stop waiting.
//
// The request/reply shape: a caller makes a channel, stores it in a field
// of a request, hands the request to a long-lived worker and waits for
// the reply, unless it leaves first:
//
//	req := &request{key: k, reply: make(chan result)}
//	s.requests <- req
//	select {
//	case r := <-req.reply:
//		return r, nil
//	case <-ctx.Done():
//		return result{}, ctx.Err() // the worker's req.reply <- r now blocks forever
//	}
//
// The worker's send (req.reply <- r) is where the goroutine blocks, and it
// is often in another function, or another package, than the make. So the
// analyzer records, per struct field, the first caller that gives it an
// unbuffered channel and can leave after the handoff: as its Result for
// the package itself, and as an Abandoned fact on the field for packages
// importing it. The other way round, a package whose functions answer on
// channel fields with plain sends says so in an Answers fact, for the
// requesters in packages importing it.
package replyfields

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"reflect"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/inspect"
	"golang.org/x/tools/go/ast/inspector"
	"golang.org/x/tools/go/ssa"

	"github.com/admitlint/admitlint/internal/lazyssa"
	"github.com/admitlint/admitlint/internal/match"
	"github.com/admitlint/admitlint/passes/strandedsend/internal/chanuse"
	"github.com/admitlint/admitlint/passes/strandedsend/internal/waitpath"
)

// Analyzer finds abandoned reply fields; its result is a *Result.
var Analyzer = &analysis.Analyzer{
	Name:       "replyfields",
	Doc:        "find request fields whose unbuffered reply channels a receiver can stop waiting on",
	URL:        "https://pkg.go.dev/github.com/admitlint/admitlint/passes/strandedsend/internal/replyfields",
	Run:        run,
	Requires:   []*analysis.Analyzer{inspect.Analyzer, lazyssa.Analyzer},
	ResultType: reflect.TypeFor[*Result](),
	FactTypes:  []analysis.Fact{new(Abandoned), new(Answers)},
}

// Abandoned is the fact that a channel field of a struct is given, by a
// function of the struct's package, an unbuffered channel that function
// can stop receiving from after handing the request over.
type Abandoned struct {
	Func  string // the function that makes the channel, such as "(*Client).Get"
	Leave string // where it stops waiting, such as "case <-ctx.Done() at client.go:42"
	Made  string // where it makes the channel, such as "client.go:40"
}

func (*Abandoned) AFact() {}

func (a *Abandoned) String() string {
	return fmt.Sprintf("abandoned by %s (%s; made at %s)", a.Func, a.Leave, a.Made)
}

// A Maker is a function of the package that makes an unbuffered channel
// for a field and can leave without receiving from it.
type Maker struct {
	Field     *types.Var
	Make      *ssa.MakeChan
	Leave     *waitpath.Leave
	LeavePos  token.Pos // the position Leave names
	Abandoned Abandoned
	// Interrupt is the request's field through which only the request's
	// taker can make the maker skip the reply, when Leave strands only
	// takers that call it (see interruptedBy); nil otherwise.
	Interrupt *types.Var
}

// Result holds the package's makers by field, in source order, and the
// Abandoned facts of the fields of the packages it imports. (Facts are
// private to the analyzer that exports them: this is how other analyzers
// read them.)
type Result struct {
	Makers   map[*types.Var][]*Maker
	Imported map[*types.Var]*Abandoned
	// Answered holds, for fields of the makers, the plain send on them
	// that a package this one imports makes (see Answers).
	Answered map[*types.Var]*Answer
	// Takers holds the package's channel fields that every requester
	// giving them a channel takes exactly one reply from (see Taker).
	Takers map[*types.Var][]*Taker
}

func run(pass *analysis.Pass) (any, error) {
	res := &Result{Makers: map[*types.Var][]*Maker{}, Imported: map[*types.Var]*Abandoned{}}
	exportAnswers(pass)
	for _, f := range pass.AllObjectFacts() {
		if field, ok := f.Object.(*types.Var); ok && field.Pkg() != pass.Pkg {
			res.Imported[field] = f.Fact.(*Abandoned)
		}
	}
	if !hasCandidates(pass) {
		return res, nil
	}
	prog, err := lazyssa.Of(pass).SSA()
	if err != nil {
		return nil, err
	}
	for _, fn := range prog.SrcFuncs {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				if mk, ok := instr.(*ssa.MakeChan); ok {
					if m := checkMake(pass, prog.SrcFuncs, mk); m != nil {
						res.Makers[m.Field] = append(res.Makers[m.Field], m)
					}
				}
			}
		}
	}
	res.Answered = importAnswers(pass, res.Makers)
	res.Takers = takers(pass, prog.SrcFuncs)
	for _, fn := range prog.SrcFuncs { // export in source order: deterministic facts
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				if mk, ok := instr.(*ssa.MakeChan); ok {
					export(pass, res, mk)
				}
			}
		}
	}
	return res, nil
}

// export records the fact of the first maker of a field of this package.
func export(pass *analysis.Pass, res *Result, mk *ssa.MakeChan) {
	for field, makers := range res.Makers {
		if makers[0].Make != mk || field.Pkg() != pass.Pkg {
			continue
		}
		if !pass.ImportObjectFact(field, new(Abandoned)) {
			fact := makers[0].Abandoned
			pass.ExportObjectFact(field, &fact)
		}
	}
}

// hasCandidates reports whether the package stores a make(chan …) in a
// struct field: in a composite literal, or by assignment to a selector.
func hasCandidates(pass *analysis.Pass) bool {
	ins := pass.ResultOf[inspect.Analyzer].(*inspector.Inspector)
	found := false
	ins.Preorder([]ast.Node{(*ast.KeyValueExpr)(nil), (*ast.AssignStmt)(nil)}, func(n ast.Node) {
		if found {
			return
		}
		switch n := n.(type) {
		case *ast.KeyValueExpr:
			found = isMakeChan(n.Value)
		case *ast.AssignStmt:
			for i, lhs := range n.Lhs {
				if _, ok := lhs.(*ast.SelectorExpr); ok && i < len(n.Rhs) && isMakeChan(n.Rhs[i]) {
					found = true
				}
			}
		}
	})
	return found
}

// isMakeChan reports whether e is syntactically make(chan …).
func isMakeChan(e ast.Expr) bool {
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok || len(call.Args) == 0 {
		return false
	}
	id, ok := call.Fun.(*ast.Ident)
	_, isChan := call.Args[0].(*ast.ChanType)
	return ok && id.Name == "make" && isChan
}

// checkMake returns the maker mk is, if it makes an unbuffered channel
// for a field of a request it hands over, waits for the reply (receives
// from the channel) and can leave before receiving. A function that
// never receives from the channel is no requester: it makes a
// placeholder, or a channel someone else reads (a subscription's
// consumer), and its return is not a receiver leaving.
func checkMake(pass *analysis.Pass, funcs []*ssa.Function, mk *ssa.MakeChan) *Maker {
	req, u := handedOver(mk)
	if req == nil {
		return nil
	}
	fn, fs, base := mk.Parent(), req.field, req.field.Base.(*ssa.Alloc)
	if len(u.Recvs)+len(u.RecvCases) == 0 {
		return nil // not waiting for a reply: the channel is read elsewhere, if at all
	}
	q := &waitpath.Query{Fn: fn, Info: pass.TypesInfo, Made: mk, Chans: u.Values, Starts: req.handoffs}
	leave := waitpath.Find(q)
	if leave == nil {
		return nil
	}
	text, pos := waitpath.Describe(pass.Fset, pass.Files, leave)
	return &Maker{
		Field:    fs.Field,
		Make:     mk,
		Leave:    leave,
		LeavePos: pos,
		Abandoned: Abandoned{
			Func:  funcName(fn),
			Leave: text,
			Made:  waitpath.Where(pass.Fset, mk.Pos()),
		},
		Interrupt: interruptedBy(funcs, base, q, req.handoffs),
	}
}

// handedOver follows mk, when it makes an unbuffered channel that its
// function stores in a field of a request it allocates and hands over
// (see traceRequest), and uses only by receiving from it: it returns the
// request and the channel's uses as the function sees them (the make,
// and loads of the field), or nil.
func handedOver(mk *ssa.MakeChan) (*request, *chanuse.Uses) {
	if room, ok := match.ChanCap(mk); !ok || room != 0 {
		return nil, nil
	}
	fn := mk.Parent()
	u := chanuse.Trace(fn, []ssa.Value{mk}, nil)
	if u.Escape != nil || len(u.FieldStore) != 1 {
		return nil, nil
	}
	fs := u.FieldStore[0]
	base, ok := fs.Base.(*ssa.Alloc)
	if !ok || base.Parent() != fn {
		return nil, nil
	}
	req := traceRequest(base, fs)
	if req == nil || len(req.handoffs) == 0 {
		return nil, nil
	}
	u = chanuse.Trace(fn, append([]ssa.Value{mk}, req.loads...), nil)
	if u.Escape != nil || len(u.Sends)+len(u.SendCases)+len(u.Closes)+len(u.Returns)+len(u.Handoffs) > 0 {
		return nil, nil
	}
	return req, u
}

// funcName returns fn's name as a reader finds it in its package:
// "Get", "(*Client).Get", "Get$1" for a literal.
func funcName(fn *ssa.Function) string {
	return fn.RelString(fn.Pkg.Pkg)
}

// A request is what F does with the struct holding the channel.
type request struct {
	field    *chanuse.FieldStore
	loads    []ssa.Value      // loads of the channel from the field
	handoffs []waitpath.Start // sends of the request to a worker
	calls    []waitpath.Start // calls given the request
	copies   map[ssa.Value]bool
	broken   bool // a use the analysis cannot follow
}

// traceRequest follows the request base from its allocation. Its
// handoffs are the sends of it (or of a copy) on a channel and the
// stores of it where a replier finds it (a map of pending calls, a
// field, a slice); failing those, the calls it is passed to. It returns nil if the request goes
// anywhere else: into a variable, a closure, an interface, the result.
func traceRequest(base *ssa.Alloc, fs chanuse.FieldStore) *request {
	r := &request{field: &fs, copies: map[ssa.Value]bool{}}
	r.pointer(base)
	if r.broken {
		return nil
	}
	if len(r.handoffs) == 0 {
		r.handoffs = r.calls
	}
	return r
}

// pointer follows the request's address.
func (r *request) pointer(base ssa.Value) {
	for _, instr := range *base.Referrers() {
		switch instr := instr.(type) {
		case *ssa.FieldAddr:
			switch {
			case chanuse.FieldOf(instr) == r.field.Field:
				r.fieldAddr(instr)
			case chanuse.ReadsOther(instr):
				// Another channel reached through the request (errc
				// embedded, a parent's, a callback): the worker may
				// answer there instead, which the rule does not see.
				r.broken = true
			}
		case *ssa.UnOp:
			if instr.Op != token.MUL {
				r.broken = true
				continue
			}
			r.copy(instr)
		case *ssa.Store:
			if w := wrapperOf(instr, base); w != nil {
				r.wrapper(w, 0)
				continue
			}
			if instr.Addr != base || !r.copies[instr.Val] {
				r.handoff(base, instr)
			}
		case *ssa.DebugRef:
		default:
			r.handoff(base, instr)
		}
	}
}

// maxWrap bounds how many wrappers deep wrapper follows a request.
const maxWrap = 4

// wrapperOf returns the struct the function makes that st stores v
// into (&task{req: req}, envelope{d: t}): a wrapper of v, not a place a
// replier finds it; or nil.
func wrapperOf(st *ssa.Store, v ssa.Value) *ssa.Alloc {
	if st.Val != v {
		return nil
	}
	fa, ok := st.Addr.(*ssa.FieldAddr)
	if !ok {
		return nil
	}
	w, ok := fa.X.(*ssa.Alloc)
	if !ok || w.Parent() != v.Parent() {
		return nil
	}
	return w
}

// wrapper follows v, a value that carries the request: a struct the
// function makes around it, that struct converted to an interface,
// loaded, or stored in turn into another struct the function makes.
// The request goes where v goes: wrapping it is not handing it over
// (validation set 34, a signer's request in a task, in an interface, in
// a prioritised envelope sent to the workers). Reading a wrapper's
// fields back is a use the rule does not follow.
func (r *request) wrapper(v ssa.Value, depth int) {
	if depth > maxWrap {
		r.broken = true
		return
	}
	for _, instr := range *v.Referrers() {
		switch instr := instr.(type) {
		case *ssa.DebugRef:
		case *ssa.MakeInterface:
			r.wrapper(instr, depth+1)
		case *ssa.UnOp:
			if instr.Op != token.MUL {
				r.broken = true
				continue
			}
			r.wrapper(instr, depth+1)
		case *ssa.FieldAddr:
			if !chanuse.OnlyStoredInto(instr) {
				r.broken = true
			}
		case *ssa.Store:
			if w := wrapperOf(instr, v); w != nil {
				r.wrapper(w, depth+1)
				continue
			}
			r.handoff(v, instr)
		default:
			r.handoff(v, instr)
		}
	}
}

// fieldAddr follows &req.reply: the one store of the channel, and loads.
func (r *request) fieldAddr(fa *ssa.FieldAddr) {
	for _, instr := range *fa.Referrers() {
		switch instr := instr.(type) {
		case *ssa.Store:
			if instr != r.field.Store {
				r.broken = true // the field is given another channel too
			}
		case *ssa.UnOp:
			if instr.Op == token.MUL {
				r.loads = append(r.loads, instr)
			} else {
				r.broken = true
			}
		case *ssa.DebugRef:
		default:
			r.broken = true
		}
	}
}

// copy follows a copy of the request struct; a copy stored into a local
// struct variable (q := request{…}) is followed there.
func (r *request) copy(v ssa.Value) {
	r.copies[v] = true
	for _, instr := range *v.Referrers() {
		switch instr := instr.(type) {
		case *ssa.Store:
			if local, ok := instr.Addr.(*ssa.Alloc); ok && instr.Val == v && !local.Heap && local.Parent() == v.Parent() {
				r.pointer(local)
				continue
			}
			r.broken = true
		case *ssa.Field:
			if st, ok := instr.X.Type().Underlying().(*types.Struct); ok && st.Field(instr.Field) == r.field.Field {
				r.loads = append(r.loads, instr)
			} else if chanuse.ReachesOther(instr.Type()) {
				r.broken = true // as in pointer
			}
		case *ssa.DebugRef:
		default:
			r.handoff(v, instr)
		}
	}
}

// handoff records instr passing the request v on, or marks the request
// as going where the analysis cannot follow.
func (r *request) handoff(v ssa.Value, instr ssa.Instruction) {
	switch instr := instr.(type) {
	case *ssa.Send:
		if instr.X == v {
			r.handoffs = append(r.handoffs, waitpath.Start{Instr: instr, Case: -1, Sends: waitpath.One})
			return
		}
	case *ssa.Select:
		for i, st := range instr.States {
			if st.Send == v && st.Chan != v {
				r.handoffs = append(r.handoffs, waitpath.Start{Instr: instr, Case: i, Sends: waitpath.One})
				return
			}
		}
	case *ssa.MapUpdate:
		// Registered as pending (c.pending[id] = call): whoever finds it
		// there replies.
		if instr.Value == v {
			r.handoffs = append(r.handoffs, waitpath.Start{Instr: instr, Case: -1, Sends: waitpath.One})
			return
		}
	case *ssa.Store:
		// Kept in a long-lived object's field or a slice's element
		// (c.current = call), for whoever replies. (A global is anyone's:
		// unknown.)
		switch instr.Addr.(type) {
		case *ssa.FieldAddr, *ssa.IndexAddr:
			if instr.Val == v {
				r.handoffs = append(r.handoffs, waitpath.Start{Instr: instr, Case: -1, Sends: waitpath.One})
				return
			}
		}
	case ssa.CallInstruction:
		if _, isBuiltin := instr.Common().Value.(*ssa.Builtin); !isBuiltin {
			r.calls = append(r.calls, waitpath.Start{Instr: instr, Case: -1, Sends: waitpath.One})
			return
		}
	}
	r.broken = true
}
