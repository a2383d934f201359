package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// TestRealBugs runs the corpus offline, from the module cache, and checks
// that each bug is found or missed as bugs.tsv records: a bug found must
// stay found, and one newly found must be recorded. Bugs whose modules
// are not all in the cache are skipped, with the reason. It runs only
// with ADMITLINT_REALBUGS=1 (.ci/run sets it): analysing the corpus takes
// minutes.
func TestRealBugs(t *testing.T) {
	if os.Getenv("ADMITLINT_REALBUGS") != "1" {
		t.Skip("set ADMITLINT_REALBUGS=1 to run the corpus of real bugs")
	}
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(t.TempDir(), "admitlint")
	build := exec.Command("go", "build", "-o", bin, "./cmd/admitlint")
	build.Dir = root
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building admitlint: %v\n%s", err, out)
	}
	bugs, err := Load(filepath.Join(root, "bench", "realbugs", "bugs.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	ran := 0
	for _, b := range bugs {
		r := Run(b, bin, nil, dir, true)
		if r.Err != nil {
			t.Logf("%s: skipped, not analysable offline here: %v", b.ID, r.Err)
			continue
		}
		ran++
		switch found := r.Found != ""; {
		case found && b.Found != "yes":
			t.Errorf("%s: now found (%s); bugs.tsv says %q: record it", b.ID, r.Found, b.Found)
		case !found && b.Found == "yes":
			t.Errorf("%s: no longer found (%d other findings of %s in the package)", b.ID, r.Others, b.Pass)
		}
	}
	t.Logf("%d of %d bugs analysed offline", ran, len(bugs))
}
