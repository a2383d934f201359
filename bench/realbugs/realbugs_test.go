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
// are not all in the cache are skipped, with the reason; with
// ADMITLINT_REALBUGS_FETCH=1 (.ci/run sets it, on a machine that may
// never have seen the corpus) their modules are first taken from the
// module proxy, and then every bug must be analysed. It runs only with
// ADMITLINT_REALBUGS=1 (.ci/run sets it): analysing the corpus takes
// minutes.
func TestRealBugs(t *testing.T) {
	if os.Getenv("ADMITLINT_REALBUGS") != "1" {
		t.Skip("set ADMITLINT_REALBUGS=1 to run the corpus of real bugs")
	}
	offline := os.Getenv("ADMITLINT_REALBUGS_FETCH") != "1"
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
		r := Run(b, bin, nil, dir, offline)
		if r.Err != nil && !offline {
			t.Errorf("%s: not analysable with the module proxy: %v", b.ID, r.Err)
			continue
		}
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
	t.Logf("%d of %d bugs analysed", ran, len(bugs))
	if ran == 0 {
		t.Fatal("no bug of the corpus could be analysed: nothing was checked (set ADMITLINT_REALBUGS_FETCH=1 to take the modules from the proxy)")
	}
}
