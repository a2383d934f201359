package main_test

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the .golden files of the end-to-end cases")

// bin is the admitlint binary built once for all end-to-end tests.
var bin string

func TestMain(m *testing.M) {
	flag.Parse()
	dir, err := os.MkdirTemp("", "admitlint-e2e")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	bin = filepath.Join(dir, "admitlint")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "building admitlint: %v\n%s", err, out)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// fixture copies the module testdata/e2e/<name> to a fresh directory and
// returns its path.
func fixture(t *testing.T, name string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), name)
	if err := os.CopyFS(dir, os.DirFS(filepath.Join("..", "..", "testdata", "e2e", name))); err != nil {
		t.Fatal(err)
	}
	return dir
}

// result is what one run of a command printed and how it exited.
type result struct {
	stdout, stderr string
	code           int
}

// run runs name with args in dir.
func run(t *testing.T, dir, name string, args ...string) result {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	code := 0
	if exit, ok := err.(*exec.ExitError); ok {
		code = exit.ExitCode()
	} else if err != nil {
		t.Fatalf("%s %v: %v", name, args, err)
	}
	r := result{stdout.String(), stderr.String(), code}
	for _, out := range []string{r.stdout, r.stderr} {
		if strings.Contains(out, "panic:") || strings.Contains(out, "goroutine 1 [") {
			t.Fatalf("%s %v crashed:\n%s", name, args, out)
		}
	}
	return r
}

// golden compares got, with dir replaced by $DIR, to the file
// testdata/e2e/<name>.golden, or rewrites the file with -update.
func golden(t *testing.T, dir, name, got string) {
	t.Helper()
	got = strings.ReplaceAll(got, dir, "$DIR")
	file := filepath.Join("..", "..", "testdata", "e2e", name+".golden")
	if *update {
		if err := os.WriteFile(file, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(file)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("output differs from %s:\n--- got\n%s\n--- want\n%s", file, got, want)
	}
}

func wantCode(t *testing.T, r result, code int) {
	t.Helper()
	if r.code != code {
		t.Fatalf("exit code %d, want %d\nstdout:\n%s\nstderr:\n%s", r.code, code, r.stdout, r.stderr)
	}
}

func TestCleanModuleExitsZero(t *testing.T) {
	dir := fixture(t, "clean")
	r := run(t, dir, bin, "./...")
	wantCode(t, r, 0)
	if r.stdout != "" {
		t.Errorf("clean module printed findings:\n%s", r.stdout)
	}
}

func TestFindingsText(t *testing.T) {
	dir := fixture(t, "directives")
	r := run(t, dir, bin, "./...")
	wantCode(t, r, 3)
	golden(t, dir, "directives.text", r.stdout)
}

func TestFindingsJSON(t *testing.T) {
	dir := fixture(t, "directives")
	r := run(t, dir, bin, "-json", "./...")
	wantCode(t, r, 3)
	var tree map[string]map[string][]struct {
		Posn    string `json:"posn"`
		Message string `json:"message"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &tree); err != nil {
		t.Fatalf("-json output is not the x/tools shape: %v\n%s", err, r.stdout)
	}
	diags := tree["example.com/directives"]["directives"]
	if len(diags) != 2 || !strings.HasPrefix(diags[0].Posn, filepath.Join(dir, "directives.go")+":6:") {
		t.Errorf("-json diagnostics = %+v", diags)
	}
	golden(t, dir, "directives.json", r.stdout)
}

func TestPassFlagsReachThePasses(t *testing.T) {
	dir := fixture(t, "directives")
	wantCode(t, run(t, dir, bin, "-directives=false", "./..."), 0)
	wantCode(t, run(t, dir, bin, "-directives=true", "./..."), 3)
	r := run(t, dir, bin, "-nosuchpass=false", "./...")
	wantCode(t, r, 2)
	if !strings.Contains(r.stderr, "nosuchpass") {
		t.Errorf("unknown flag not named in the error:\n%s", r.stderr)
	}
}

func TestDiffAndFix(t *testing.T) {
	dir := fixture(t, "directives")
	before, _ := os.ReadFile(filepath.Join(dir, "directives.go"))

	r := run(t, dir, bin, "-diff", "./...")
	wantCode(t, r, 3)
	golden(t, dir, "directives.diff", r.stdout)
	if after, _ := os.ReadFile(filepath.Join(dir, "directives.go")); !bytes.Equal(before, after) {
		t.Fatal("-diff changed the file")
	}

	r = run(t, dir, bin, "-fix", "./...")
	wantCode(t, r, 3) // the unknown pass name has no mechanical fix
	after, _ := os.ReadFile(filepath.Join(dir, "directives.go"))
	if !bytes.Contains(after, []byte("\t//admitlint:ignore lateacquire written with a space\n")) {
		t.Errorf("-fix did not remove the space:\n%s", after)
	}
	if !strings.Contains(r.stderr, "nosuchpass") {
		t.Errorf("-fix did not list the finding it could not fix:\n%s", r.stderr)
	}
}

func TestLoadErrors(t *testing.T) {
	dir := fixture(t, "broken")
	r := run(t, dir, bin, "./...")
	wantCode(t, r, 1)
	if !strings.Contains(r.stderr, "broken.go:3:28") || !strings.Contains(r.stderr, "cannot use") {
		t.Errorf("type error not reported clearly:\n%s", r.stderr)
	}

	r = run(t, dir, bin, "./nosuchdir")
	wantCode(t, r, 1)
	if !strings.Contains(r.stderr, "nosuchdir") {
		t.Errorf("missing package not named:\n%s", r.stderr)
	}
}

func TestUsage(t *testing.T) {
	dir := t.TempDir()
	r := run(t, dir, bin)
	wantCode(t, r, 2)
	if !strings.Contains(r.stderr, "Usage:") {
		t.Errorf("no usage:\n%s", r.stderr)
	}
	r = run(t, dir, bin, "help")
	wantCode(t, r, 0)
	if !strings.Contains(r.stdout, "directives: report") {
		t.Errorf("help does not list the passes:\n%s", r.stdout)
	}
	r = run(t, dir, bin, "help", "directives")
	wantCode(t, r, 0)
	if !strings.Contains(r.stdout, "The reason is required") {
		t.Errorf("help directives does not print its documentation:\n%s", r.stdout)
	}
	wantCode(t, run(t, dir, bin, "help", "nosuchpass"), 2)
	wantCode(t, run(t, dir, bin, "-format=yaml", "./..."), 2)
	if r := run(t, dir, bin, "-version"); r.code != 0 || !strings.HasPrefix(r.stdout, "admitlint ") {
		t.Errorf("-version: %+v", r)
	}
}

// TestGoVetVettool runs admitlint the other way: go vet drives it, from a
// module that knows nothing about admitlint.
func TestGoVetVettool(t *testing.T) {
	dir := fixture(t, "directives")
	r := run(t, dir, "go", "vet", "-vettool="+bin, "./...")
	wantCode(t, r, 1)
	if !strings.Contains(r.stderr, "directives.go:6:2: \"// admitlint:\" is not a directive") {
		t.Errorf("go vet -vettool output:\n%s", r.stderr)
	}
	wantCode(t, run(t, dir, "go", "vet", "-vettool="+bin, "-directives=false", "./..."), 0)
	wantCode(t, run(t, fixture(t, "clean"), "go", "vet", "-vettool="+bin, "./..."), 0)
}
