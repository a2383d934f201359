package ssacfg

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

func straight(x int) int {
	if x > 0 {
		return 1
	}
	return 2
}

func loops(xs []int) int {
	n := 0
	for _, x := range xs {
		for x > 0 {
			x--
			n++
		}
	}
	return n
}

func gated(errs, conns chan int, next func() (int, bool)) {
	for {
		v, ok := next()
		if !ok {
			errs <- v
		}
		conns <- v
	}
}

func gatedTwice(errs, conns chan int, next func() (int, bool)) {
	errs <- 0
	for {
		v, ok := next()
		if !ok {
			errs <- v
		}
		conns <- v
	}
}

func gatedSometimes(errs, conns chan int, next func() (int, bool)) {
	for {
		v, ok := next()
		if !ok {
			errs <- v
			continue
		}
		conns <- v
	}
}
`

func build(t *testing.T) *ssa.Package {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	conf := &types.Config{Importer: importer.Default()}
	pkg, _, err := ssautil.BuildPackage(conf, fset, types.NewPackage("p", ""), []*ast.File{f}, 0)
	if err != nil {
		t.Fatal(err)
	}
	return pkg
}

func TestOnCycle(t *testing.T) {
	pkg := build(t)
	for _, on := range OnCycle(pkg.Func("straight")) {
		if on {
			t.Fatal("a function without loops has a block on a cycle")
		}
	}

	fn := pkg.Func("loops")
	on := OnCycle(fn)
	comp := SCCs(fn)
	if on[0] {
		t.Error("the entry block is not in a loop")
	}
	cyclic := 0
	for i, b := range fn.Blocks {
		if on[i] {
			cyclic++
		}
		// Reverse topological numbering: an edge leaving a component goes
		// to a smaller number.
		for _, s := range b.Succs {
			if comp[s.Index] > comp[i] {
				t.Errorf("edge %d->%d goes from component %d to later component %d", i, s.Index, comp[i], comp[s.Index])
			}
		}
	}
	if cyclic < 3 {
		t.Errorf("%d blocks on cycles in two nested loops, want at least 3", cyclic)
	}
}

// sendsOn returns the sends of fn on its parameter named name.
func sendsOn(fn *ssa.Function, name string) map[ssa.Instruction]bool {
	at := map[ssa.Instruction]bool{}
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			if send, ok := instr.(*ssa.Send); ok {
				if p, ok := send.Chan.(*ssa.Parameter); ok && p.Name() == name {
					at[instr] = true
				}
			}
		}
	}
	return at
}

func TestMostWeightBetween(t *testing.T) {
	pkg := build(t)
	for _, tc := range []struct {
		fn      string
		most    int
		bounded bool
	}{
		{"gated", 1, true},           // one error send per pass through conns
		{"gatedTwice", 2, true},      // the first stretch holds two
		{"gatedSometimes", 0, false}, // the error path goes round without the gate
	} {
		fn := pkg.Func(tc.fn)
		weights := map[ssa.Instruction]int{}
		for instr := range sendsOn(fn, "errs") {
			weights[instr] = 1
		}
		most, bounded := MostWeightBetween(fn, weights, sendsOn(fn, "conns"))
		if most != tc.most || bounded != tc.bounded {
			t.Errorf("%s: MostWeightBetween = %d, %v; want %d, %v", tc.fn, most, bounded, tc.most, tc.bounded)
		}
		if _, cyclic := MostWeight(fn, weights); !cyclic {
			t.Errorf("%s: without barriers the error send is on a cycle", tc.fn)
		}
	}
}
