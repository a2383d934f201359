package ssacfg

import (
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"testing"

	"golang.org/x/tools/go/ssa"
	"golang.org/x/tools/go/ssa/ssautil"
)

const onceSrc = `package p

func lines(s string) func(func(string) bool) {
	return func(yield func(string) bool) {
		for _, c := range s {
			if !yield(string(c)) {
				return
			}
		}
	}
}

func once(chunks []string, ch chan bool) {
	seen := false
	for _, chunk := range chunks {
		for line := range lines(chunk) {
			if line == "R" && !seen {
				seen = true
				ch <- true
			}
		}
	}
}

func captured(xs []string, ch chan bool, log func(func() bool)) {
	seen := false
	log(func() bool { return seen })
	for _, x := range xs {
		if !seen && x == "R" {
			ch <- true
			seen = true
		}
	}
}

func perChunk(chunks []string, ch chan bool) {
	for _, chunk := range chunks {
		seen := false
		for line := range lines(chunk) {
			if line == "R" && !seen {
				seen = true
				ch <- true
			}
		}
	}
}

func reset(chunks []string, ch chan bool) {
	seen := false
	for _, chunk := range chunks {
		for line := range lines(chunk) {
			if line == "X" {
				seen = false
			}
			if line == "R" && !seen {
				seen = true
				ch <- true
			}
		}
	}
}

func loopInside(chunks []string, ch chan bool) {
	seen := false
	for range lines("ab") {
		if !seen {
			for range chunks {
				seen = true
				ch <- true
			}
		}
	}
}

func handedOn(chunks []string, ch chan bool, set func(*bool)) {
	seen := false
	for line := range lines("ab") {
		set(&seen)
		if line == "R" && !seen {
			seen = true
			ch <- true
		}
	}
}

func setAfter(chunks []string, ch chan bool) {
	seen := false
	for line := range lines("ab") {
		if !seen {
			ch <- true
			if line == "R" {
				seen = true
			}
		}
	}
}
`

func TestOnceByVariable(t *testing.T) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", onceSrc, 0)
	if err != nil {
		t.Fatal(err)
	}
	pkg, _, err := ssautil.BuildPackage(&types.Config{}, fset, types.NewPackage("p", ""), []*ast.File{f}, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		fn   string
		once bool
	}{
		{"once", true},        // a flag of the function set before the send in a range-over-func body
		{"captured", true},    // a flag a closure captures, set after the send
		{"perChunk", false},   // made afresh in the loop: once per chunk
		{"reset", false},      // cleared again by another line
		{"loopInside", false}, // the send repeats without testing the flag again
		{"handedOn", false},   // its address goes to a function that may clear it
		{"setAfter", false},   // set on only some ways from the send
	} {
		fn := pkg.Func(tc.fn)
		sends := sendsIn(fn)
		if len(sends) != 1 {
			t.Fatalf("%s: %d sends, want 1", tc.fn, len(sends))
		}
		if got := OnceByVariable(sends[0], fn); got != tc.once {
			t.Errorf("OnceByVariable(send of %s) = %v, want %v", tc.fn, got, tc.once)
		}
	}
}

// sendsIn returns the sends of fn and of the functions nested in it.
func sendsIn(fn *ssa.Function) []ssa.Instruction {
	var sends []ssa.Instruction
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			if _, ok := instr.(*ssa.Send); ok {
				sends = append(sends, instr)
			}
		}
	}
	for _, anon := range fn.AnonFuncs {
		sends = append(sends, sendsIn(anon)...)
	}
	return sends
}
