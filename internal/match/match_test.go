package match

import (
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"testing"

	"golang.org/x/tools/go/ssa"
	"golang.org/x/tools/go/ssa/ssautil"
)

const src = `package p

import (
	"context"
	"time"
)

type T struct{}

func (T) Done() <-chan struct{} { return nil }
func (*T) Wait() {}

func id[X any](x X) X { return x }

func f(ctx context.Context, t *time.Timer, tk *time.Ticker, own T, ch chan int) {
	_ = ctx.Done()      // cancel
	_ = time.After(1)   // cancel
	_ = time.Tick(1)    // cancel
	_ = t.C             // cancel
	_ = tk.C            // cancel
	_ = own.Done()      // cancel: a Done method returning <-chan
	_ = id(ch)          // not a signal
	_ = make(chan int, 3)
	var x T
	x.Wait()
}
`

// build returns the SSA form of src's function f.
func build(t *testing.T) (*ssa.Function, *types.Package) {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	conf := &types.Config{Importer: importer.ForCompiler(fset, "source", nil)}
	pkg, _, err := ssautil.BuildPackage(conf, fset, types.NewPackage("p", ""), []*ast.File{f}, ssa.InstantiateGenerics)
	if err != nil {
		t.Fatal(err)
	}
	return pkg.Func("f"), pkg.Pkg
}

func TestCancelSignalsAndCallees(t *testing.T) {
	fn, pkg := build(t)
	var signals, calls []string
	var caps []int64
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			if v, ok := instr.(ssa.Value); ok && IsCancelSignal(v) {
				signals = append(signals, v.String())
			}
			if call, ok := instr.(ssa.CallInstruction); ok {
				if callee := Callee(call); callee != nil {
					calls = append(calls, callee.FullName())
				}
			}
			if mk, ok := instr.(*ssa.MakeChan); ok {
				if c, ok := ChanCap(mk); ok {
					caps = append(caps, c)
				}
			}
		}
	}
	if len(signals) != 6 {
		t.Errorf("cancel signals = %d %v, want 6 (ctx.Done, After, Tick, timer C, ticker C, own Done)", len(signals), signals)
	}
	wantCalls := map[string]bool{
		"(context.Context).Done": true, "time.After": true, "time.Tick": true,
		"(p.T).Done": true, "p.id": true, "(*p.T).Wait": true,
	}
	for _, c := range calls {
		if !wantCalls[c] {
			t.Errorf("unexpected callee %s", c)
		}
		delete(wantCalls, c)
	}
	if len(wantCalls) > 0 {
		t.Errorf("callees not found: %v", wantCalls)
	}
	if len(caps) != 1 || caps[0] != 3 {
		t.Errorf("constant capacities = %v, want [3]", caps)
	}

	if !Imports(pkg, "time") || !Imports(pkg, "nope", "context") || Imports(pkg, SemaphorePkg) {
		t.Error("Imports disagrees with the package's imports")
	}
	tType := pkg.Scope().Lookup("T").Type()
	if !IsNamed(tType, "p", "T") || !IsNamed(types.NewPointer(tType), "p", "T") || IsNamed(tType, "q", "T") {
		t.Error("IsNamed disagrees")
	}
}
