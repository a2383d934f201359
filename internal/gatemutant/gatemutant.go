// Package gatemutant derives, for a pass's tests, a copy of the reference
// gate (testdata/src/gate/gate.go) with that pass's defect seeded in it.
//
// A mutant is the gate plus a few literal edits, so it cannot drift from
// the gate: change the gate and every mutant changes with it, or its test
// fails because an edit no longer applies. Each edit names the passage of
// the gate it replaces, what the mutant has there (with the `// want`
// comment of the finding it must produce), and what the pass's suggested
// fix must turn the mutant into (the golden file).
package gatemutant

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// An Edit replaces the one occurrence of Old in gate.go by Mutant in the
// mutant. Fixed is what that passage must read after the suggested fixes
// are applied; empty means the fixes leave Mutant as it is.
type Edit struct {
	Old, Mutant, Fixed string
}

// Package is the import path of the mutant under the returned testdata
// directory.
const Package = "gatemutant"

// Write writes the mutant that edits make of gate.go, as package
// gatemutant, into a new testdata directory (src/gatemutant/gate.go, with
// gate.go.golden when an edit has a fix) and returns that directory for
// analysistest. It fails the test if an edit's Old does not occur in the
// gate exactly once.
func Write(t testing.TB, edits ...Edit) string {
	t.Helper()
	data, err := os.ReadFile(gatePath())
	if err != nil {
		t.Fatal(err)
	}
	gate := strings.Replace(string(data), "\npackage gate\n", "\npackage gatemutant\n", 1)
	mutant, golden := gate, gate
	fixes := false
	for _, e := range edits {
		if n := strings.Count(gate, e.Old); n != 1 {
			t.Fatalf("gatemutant: the gate holds %q %d times, want once", e.Old, n)
		}
		fixed := e.Fixed
		if fixed == "" {
			fixed = e.Mutant
		} else {
			fixes = true
		}
		mutant = strings.Replace(mutant, e.Old, e.Mutant, 1)
		golden = strings.Replace(golden, e.Old, fixed, 1)
	}
	dir := t.TempDir()
	pkg := filepath.Join(dir, "src", Package)
	if err := os.MkdirAll(pkg, 0o755); err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(pkg, "gate.go"), mutant)
	if fixes {
		write(t, filepath.Join(pkg, "gate.go.golden"), golden)
	}
	return dir
}

func write(t testing.TB, name, text string) {
	t.Helper()
	if err := os.WriteFile(name, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// gatePath returns the path of the reference gate's source.
func gatePath() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "testdata", "src", "gate", "gate.go")
}
