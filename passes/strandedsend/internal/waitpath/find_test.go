package waitpath_test

import (
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"strings"
	"testing"

	"golang.org/x/tools/go/ssa"
	"golang.org/x/tools/go/ssa/ssautil"

	"github.com/admitlint/admitlint/passes/strandedsend/internal/chanuse"
	"github.com/admitlint/admitlint/passes/strandedsend/internal/waitpath"
)

// prelude is what every case's function may use: a context-like type and
// a few opaque calls, so no case needs an import.
const prelude = `package p

type Ctx interface{ Done() <-chan struct{} }

func work() int
func fail() error
func ok() bool
func fatal()
`

// A findCase is one function f that makes the channel ch and sets its
// senders going with go statements; each go statement starts senders that
// send the given count in all.
type findCase struct {
	name  string
	body  string         // the function f, declared after the prelude
	sends waitpath.Count // what each go statement sets going
	query func(*findCtx) // adjusts the query (Never, Done, Ends…), if set
	want  string         // "" for no leave; else the leave's description without its position
	recvd int            // the values received on the way to the leave
}

// findCtx is a case's query under construction, with the SSA it is built on.
type findCtx struct {
	q  *waitpath.Query
	fn *ssa.Function
}

// otherChan returns the values of the second channel f makes.
func (c *findCtx) otherChan() map[ssa.Value]bool {
	n := 0
	for _, b := range c.fn.Blocks {
		for _, instr := range b.Instrs {
			if mk, ok := instr.(*ssa.MakeChan); ok {
				if n++; n == 2 {
					return chanuse.Trace(c.fn, []ssa.Value{mk}, nil).Values
				}
			}
		}
	}
	panic("f makes one channel")
}

// TestFind runs the search on one small function per kind of exit it
// recognises, and per kind of path it must not count as one.
func TestFind(t *testing.T) {
	for _, tc := range []findCase{
		// Leaves.
		{
			name: "select on ctx.Done",
			body: `func f(ctx Ctx) int {
				ch := make(chan int)
				go func() { ch <- work() }()
				select {
				case v := <-ch:
					return v
				case <-ctx.Done():
					return 0
				}
			}`,
			want: "case <-ctx.Done()",
		},
		{
			name: "select with a default",
			body: `func f() int {
				ch := make(chan int)
				go func() { ch <- work() }()
				select {
				case v := <-ch:
					return v
				default:
					return 0
				}
			}`,
			want: "default",
		},
		{
			name: "select on another channel",
			body: `func f(quit chan struct{}) int {
				ch := make(chan int)
				go func() { ch <- work() }()
				select {
				case v := <-ch:
					return v
				case <-quit:
					return -1
				}
			}`,
			want: "case <-quit",
		},
		{
			name: "return before the receive",
			body: `func f() int {
				ch := make(chan int)
				go func() { ch <- work() }()
				if fail() != nil {
					return 0
				}
				return <-ch
			}`,
			want: "return",
		},
		{
			name: "the end of the function",
			body: `func f() {
				ch := make(chan int)
				go func() { ch <- work() }()
				if ok() {
					<-ch
				}
			}`,
			want: "the end of the function",
		},
		{
			name: "the make again, on the next iteration",
			body: `func f() {
				for ok() {
					ch := make(chan int)
					go func() { ch <- work() }()
					if fail() != nil {
						continue
					}
					<-ch
				}
			}`,
			want: "the next iteration",
		},
		{
			name: "first error of three senders, buffer of one",
			body: `func f() error {
				ch := make(chan error, 1)
				for i := 0; i < 3; i++ {
					go func() { ch <- fail() }()
				}
				for i := 0; i < 3; i++ {
					if err := <-ch; err != nil {
						return err
					}
				}
				return nil
			}`,
			sends: waitpath.Count{N: 3},
			want:  "return",
			recvd: 1,
		},
		{
			name: "a stream whose receiver returns on a value",
			body: `func f() int {
				ch := make(chan int)
				go func() {
					for ok() {
						ch <- work()
					}
					close(ch)
				}()
				for v := range ch {
					if v > 0 {
						return v
					}
				}
				return 0
			}`,
			sends: waitpath.Count{Stream: true},
			want:  "return",
			recvd: 1,
		},

		{
			name: "two trips over the channel and an other delivering two",
			body: `func f(other chan int) int {
				ch := make(chan int)
				go func() { ch <- work() }()
				n := 0
				for i := 0; i < 2; i++ {
					select {
					case v := <-ch:
						n += v
					case v := <-other:
						n += v
					}
				}
				return n
			}`,
			query: func(c *findCtx) {
				c.q.Bounded, c.q.Delivered = map[ssa.Value]bool{c.fn.Params[0]: true}, 2
			},
			want: "case <-other",
		},
		// Not leaves.
		{
			name: "received on every path",
			body: `func f() int {
				ch := make(chan int)
				go func() { ch <- work() }()
				if ok() {
					return <-ch
				}
				return <-ch + 1
			}`,
		},
		{
			name: "a buffer with room for the one value",
			body: `func f(ctx Ctx) int {
				ch := make(chan int, 1)
				go func() { ch <- work() }()
				select {
				case v := <-ch:
					return v
				case <-ctx.Done():
					return 0
				}
			}`,
		},
		{
			name: "a counted loop receiving from every sender",
			body: `func f(n int) error {
				ch := make(chan error)
				for i := 0; i < n; i++ {
					go func() { ch <- fail() }()
				}
				var first error
				for i := 0; i < n; i++ {
					if err := <-ch; err != nil && first == nil {
						first = err
					}
				}
				return first
			}`,
			sends: waitpath.Count{Expr: "n"},
		},
		{
			name: "drained until closed",
			body: `func f() int {
				ch := make(chan int)
				go func() {
					for i := 0; i < 3; i++ {
						ch <- i
					}
					close(ch)
				}()
				n := 0
				for v := range ch {
					n += v
				}
				return n
			}`,
			sends: waitpath.Count{Stream: true},
		},
		{
			name: "a comma-ok receive that finds the channel closed",
			body: `func f() int {
				ch := make(chan int)
				go func() {
					for ok() {
						ch <- work()
					}
					close(ch)
				}()
				n := 0
				for {
					v, more := <-ch
					if !more {
						return n
					}
					n += v
				}
			}`,
			sends: waitpath.Count{Stream: true},
		},
		{
			name: "two trips over the channel and an other delivering one",
			body: `func f(other chan int) int {
				ch := make(chan int)
				go func() { ch <- work() }()
				n := 0
				for i := 0; i < 2; i++ {
					select {
					case v := <-ch:
						n += v
					case v := <-other:
						n += v
					}
				}
				return n
			}`,
			query: func(c *findCtx) {
				c.q.Bounded, c.q.Delivered = map[ssa.Value]bool{c.fn.Params[0]: true}, 1
			},
		},
		{
			name: "two trips counted down over the channel and another",
			body: `func f(other chan int) int {
				ch := make(chan int)
				go func() { ch <- work() }()
				n := 0
				for count := 2; count > 0; {
					select {
					case v := <-ch:
						n += v
					case v := <-other:
						n += v
					}
					count = count - 1
				}
				return n
			}`,
		},
		{
			name: "a case on a channel nothing sends on never fires",
			body: `func f() int {
				ch := make(chan int)
				never := make(chan struct{})
				go func() { ch <- work() }()
				select {
				case v := <-ch:
					return v
				case <-never:
					return 0
				}
			}`,
			query: func(c *findCtx) { c.q.Never = c.otherChan() },
		},
		{
			name: "a case on a channel the sender closes instead of sending",
			body: `func f() int {
				ch := make(chan int)
				done := make(chan struct{})
				go func() {
					if ok() {
						close(done)
						return
					}
					ch <- work()
				}()
				select {
				case v := <-ch:
					return v
				case <-done:
					return 0
				}
			}`,
			query: func(c *findCtx) { c.q.Done = c.otherChan() },
		},
		{
			name: "a path on which the test has failed",
			body: `func f() int {
				ch := make(chan int)
				go func() { ch <- work() }()
				if fail() != nil {
					fatal()
					return 0
				}
				return <-ch
			}`,
			query: func(c *findCtx) {
				c.q.Ends = func(call ssa.CallInstruction) bool {
					callee := call.Common().StaticCallee()
					return callee != nil && callee.Name() == "fatal"
				}
			},
		},
		{
			name: "a count of signals from several channels decides the return",
			body: `func f(other chan struct{}) {
				ch := make(chan struct{})
				go func() { ch <- struct{}{} }()
				done := 0
				for {
					select {
					case <-ch:
						done++
					case <-other:
						done++
					}
					if done == 2 {
						return
					}
				}
			}`,
		},
		{
			name: "the channel returned to the caller, who receives instead",
			body: `func f() chan int {
				ch := make(chan int)
				go func() { ch <- work() }()
				return ch
			}`,
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fset, file, info, fn := build(t, tc.body)
			c := &findCtx{fn: fn, q: query(fn, info, tc.sends)}
			if tc.query != nil {
				tc.query(c)
			}
			leave := waitpath.Find(c.q)
			switch {
			case tc.want == "" && leave == nil:
			case tc.want == "":
				what, _ := waitpath.Describe(fset, []*ast.File{file}, leave)
				t.Errorf("found a leave (%s), want none", what)
			case leave == nil:
				t.Errorf("found no leave, want %s", tc.want)
			default:
				what, _ := waitpath.Describe(fset, []*ast.File{file}, leave)
				if got, _, _ := strings.Cut(what, " at "); got != tc.want {
					t.Errorf("leave %q, want %q", got, tc.want)
				}
				if leave.Recvd != tc.recvd {
					t.Errorf("received %d on the way, want %d", leave.Recvd, tc.recvd)
				}
			}
		})
	}
}

// build type-checks and builds the prelude and body, and returns f.
func build(t *testing.T, body string) (*token.FileSet, *ast.File, *types.Info, *ssa.Function) {
	t.Helper()
	fset := token.NewFileSet()
	file, err := parser.ParseFile(fset, "p.go", prelude+body, parser.SkipObjectResolution)
	if err != nil {
		t.Fatal(err)
	}
	pkg := types.NewPackage("p", "p")
	ssapkg, info, err := ssautil.BuildPackage(&types.Config{Importer: importer.Default()}, fset, pkg, []*ast.File{file}, ssa.SanityCheckFunctions)
	if err != nil {
		t.Fatal(err)
	}
	fn := ssapkg.Func("f")
	if fn == nil {
		t.Fatal("no function f")
	}
	return fset, file, info, fn
}

// query asks how f can stop waiting for the first channel it makes, set
// going by each of its go statements.
func query(fn *ssa.Function, info *types.Info, sends waitpath.Count) *waitpath.Query {
	if sends.IsZero() {
		sends = waitpath.One
	}
	q := &waitpath.Query{Fn: fn, Info: info}
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			switch instr := instr.(type) {
			case *ssa.MakeChan:
				if q.Made == nil {
					q.Made = instr
					q.Chans = chanuse.Trace(fn, []ssa.Value{instr}, nil).Values
					q.Room, _ = capOf(instr)
				}
			case *ssa.Go:
				q.Starts = append(q.Starts, waitpath.Start{Instr: instr, Case: -1, Sends: sends})
			}
		}
	}
	return q
}

// capOf returns the constant capacity of the channel mk makes.
func capOf(mk *ssa.MakeChan) (int64, bool) {
	c, ok := mk.Size.(*ssa.Const)
	if !ok || c.Value == nil {
		return 0, false
	}
	return c.Int64(), true
}
