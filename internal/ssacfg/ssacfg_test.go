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
