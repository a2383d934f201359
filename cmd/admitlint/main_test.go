package main_test

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
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

// crashed matches what a Go program prints when it dies of a panic: the
// panic line and the goroutine traces, each at the start of a line (a
// pass's documentation may well say "panic:" inside a sentence, and the
// SARIF output carries it).
var crashed = regexp.MustCompile(`(?m)^(panic: |goroutine \d+ \[)`)

// run runs name with args in dir.
func run(t *testing.T, dir, name string, args ...string) result {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GITHUB_WORKSPACE=") // file names relative to dir, as outside Actions
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
		if crashed.MatchString(out) {
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

// TestPartialLoad: go vet analyses nothing when one package it is given
// does not load; the command analyses the packages that do, names the
// others with their load errors, and exits 1. In the fixture, ui embeds a
// directory a build step would make, and uses' external test imports a
// package excluded by build constraints; good still has its finding.
func TestPartialLoad(t *testing.T) {
	dir := fixture(t, "partload")
	for _, args := range [][]string{{"./..."}, {"-json", "./..."}} {
		r := run(t, dir, bin, args...)
		wantCode(t, r, 1)
		if !strings.Contains(r.stdout, "good.go:10:9") {
			t.Errorf("%v: the loadable package's finding is missing:\n%s", args, r.stdout)
		}
		for _, want := range []string{
			"2 of 3 packages do not load",
			"example.com/partload/ui: ui/ui.go:7:12: pattern dist/app: no matching files found",
			"example.com/partload/uses: package example.com/partload/uses_test imports example.com/partload/only: build constraints exclude all Go files",
		} {
			if !strings.Contains(r.stderr, want) {
				t.Errorf("%v: stderr lacks %q:\n%s", args, want, r.stderr)
			}
		}
	}
	// Named alone, the loadable package is a clean run with a finding.
	wantCode(t, run(t, dir, bin, "./good"), 3)
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

func TestFormats(t *testing.T) {
	dir := fixture(t, "directives")

	r := run(t, dir, bin, "-format=sarif", "./...")
	wantCode(t, r, 3)
	var log struct {
		Runs []struct {
			Results []struct {
				RuleID    string
				Locations []struct {
					PhysicalLocation struct {
						ArtifactLocation struct{ URI string }
					}
				}
			}
		}
	}
	if err := json.Unmarshal([]byte(r.stdout), &log); err != nil || len(log.Runs) != 1 || len(log.Runs[0].Results) != 2 {
		t.Fatalf("-format=sarif: %v\n%s", err, r.stdout)
	}
	if loc := log.Runs[0].Results[0].Locations[0].PhysicalLocation.ArtifactLocation.URI; loc != "directives.go" {
		t.Errorf("SARIF location %q, want directives.go relative to the module root", loc)
	}
	wantCode(t, run(t, dir, bin, "-format=sarif", "-exit-zero", "./..."), 0)

	r = run(t, dir, bin, "-format=github", "./...")
	wantCode(t, r, 3)
	golden(t, dir, "directives.github", r.stdout)

	wantCode(t, run(t, dir, bin, "-exit-zero", "./..."), 0)
	wantCode(t, run(t, fixture(t, "broken"), bin, "-exit-zero", "./..."), 1)
}

func TestBaseline(t *testing.T) {
	dir := fixture(t, "directives")
	file := filepath.Join(dir, "directives.go")

	r := run(t, dir, bin, "-write-baseline=admitlint.baseline", "./...")
	wantCode(t, r, 0)
	if r.stdout != "" || !strings.Contains(r.stderr, "recorded 2 finding(s)") {
		t.Fatalf("-write-baseline: %+v", r)
	}
	recorded, _ := os.ReadFile(filepath.Join(dir, "admitlint.baseline"))
	golden(t, dir, "directives.baseline", string(recorded))

	// Nothing new: clean, with a summary.
	r = run(t, dir, bin, "-baseline=admitlint.baseline", "./...")
	wantCode(t, r, 0)
	if !strings.Contains(r.stderr, "2 finding(s) matched the baseline") {
		t.Errorf("baseline summary: %s", r.stderr)
	}

	// Unrelated lines move the old findings down; a new finding appears.
	src, _ := os.ReadFile(file)
	edited := strings.Replace(string(src), "func work() {}\n", "// a comment\n// pushes everything down\nfunc work() {}\n", 1)
	edited += "\nfunc More() {\n\t//admitlint:ignore anotherpass reason\n\tgo work()\n}\n"
	os.WriteFile(file, []byte(edited), 0o644)
	r = run(t, dir, bin, "-baseline=admitlint.baseline", "./...")
	wantCode(t, r, 3)
	if got := strings.Count(r.stdout, "\n"); got != 1 || !strings.Contains(r.stdout, "anotherpass") {
		t.Errorf("with the baseline, want only the new finding; got:\n%s", r.stdout)
	}

	// Fixing an old finding leaves a stale entry, which the summary counts.
	os.WriteFile(file, []byte(strings.Replace(edited, "//admitlint:ignore nosuchpass reason given\n", "", 1)), 0o644)
	r = run(t, dir, bin, "-baseline=admitlint.baseline", "./...")
	if !strings.Contains(r.stderr, "1 baseline entry no longer match") {
		t.Errorf("stale entry not counted: %s", r.stderr)
	}

	wantCode(t, run(t, dir, bin, "-baseline=nosuchfile", "./..."), 1)
	wantCode(t, run(t, dir, bin, "-baseline=a", "-write-baseline=b", "./..."), 2)
}

// TestGoToolDirective installs admitlint with Go's tool directive in a
// scratch module, as the README documents, and runs it both ways.
func TestGoToolDirective(t *testing.T) {
	if testing.Short() {
		t.Skip("builds admitlint through go get -tool")
	}
	repo, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	dir := fixture(t, "directives")
	for _, args := range [][]string{
		// What "go get -tool github.com/admitlint/admitlint/cmd/admitlint"
		// does, with admitlint replaced by this checkout instead of a
		// release from the module proxy.
		{"mod", "edit", "-require=github.com/admitlint/admitlint@v0.0.0", "-replace=github.com/admitlint/admitlint=" + repo,
			"-tool=github.com/admitlint/admitlint/cmd/admitlint"},
		{"mod", "tidy"},
	} {
		if r := run(t, dir, "go", args...); r.code != 0 {
			t.Fatalf("go %v: %s", args, r.stderr)
		}
	}
	r := run(t, dir, "go", "tool", "admitlint", "./...")
	wantCode(t, r, 3)
	if !strings.Contains(r.stdout, "is not a directive") {
		t.Errorf("go tool admitlint:\n%s", r.stdout)
	}
	path := strings.TrimSpace(run(t, dir, "go", "tool", "-n", "admitlint").stdout)
	r = run(t, dir, "go", "vet", "-vettool="+path, "./...")
	wantCode(t, r, 1)
	if !strings.Contains(r.stderr, "is not a directive") {
		t.Errorf("go vet -vettool=$(go tool -n admitlint):\n%s", r.stderr)
	}
}

// TestSuppressionEverywhere checks //admitlint:ignore the same way in
// every mode and format: one finding silenced, one directive without a
// reason (reported, silencing nothing), one stale directive (reported).
func TestSuppressionEverywhere(t *testing.T) {
	dir := fixture(t, "suppress")
	r := run(t, dir, bin, "./...")
	wantCode(t, r, 3)
	golden(t, dir, "suppress.text", r.stdout)
	if strings.Contains(r.stdout, "suppress.go:12:") {
		t.Errorf("the silenced finding was reported:\n%s", r.stdout)
	}
	want := []string{
		"suppress.go:23:4: goroutine waits on sem",
		"suppress.go:23:22: //admitlint:ignore has no reason",
		"suppress.go:34:3: //admitlint:ignore names lateacquire but there is no lateacquire finding",
	}
	for _, w := range want {
		if !strings.Contains(r.stdout, w) {
			t.Errorf("standalone output lacks %q", w)
		}
	}

	vet := run(t, dir, "go", "vet", "-vettool="+bin, "./...")
	wantCode(t, vet, 1)
	for _, w := range want {
		if !strings.Contains(vet.stderr, w) {
			t.Errorf("go vet -vettool output lacks %q:\n%s", w, vet.stderr)
		}
	}

	for format, count := range map[string]func(string) int{
		"json":   func(out string) int { return strings.Count(out, `"posn"`) - strings.Count(out, `"related"`) },
		"sarif":  func(out string) int { return strings.Count(out, `"ruleId"`) },
		"github": func(out string) int { return strings.Count(out, "\n") },
	} {
		r := run(t, dir, bin, "-format="+format, "./...")
		wantCode(t, r, 3)
		if n := count(r.stdout); n != len(want) {
			t.Errorf("-format=%s: %d findings, want %d:\n%s", format, n, len(want), r.stdout)
		}
	}
}

// TestDeterministic runs the same analysis twice, cold and warm, and
// requires byte-identical output.
func TestDeterministic(t *testing.T) {
	for _, name := range []string{"passes", "suppress"} {
		dir := fixture(t, name)
		for _, format := range []string{"text", "json", "sarif"} {
			first := run(t, dir, bin, "-format="+format, "./...")
			second := run(t, dir, bin, "-format="+format, "./...")
			if first.stdout != second.stdout || first.code != second.code {
				t.Errorf("%s -format=%s: two runs differ:\n%s\n---\n%s", name, format, first.stdout, second.stdout)
			}
		}
	}
}

// TestPasses runs the command on a module with one finding per pass.
func TestPasses(t *testing.T) {
	dir := fixture(t, "passes")
	r := run(t, dir, bin, "./...")
	wantCode(t, r, 3)
	golden(t, dir, "passes.text", r.stdout)

	r = run(t, dir, bin, "-diff", "./...")
	wantCode(t, r, 3)
	golden(t, dir, "passes.diff", r.stdout)
	wantCode(t, run(t, dir, bin, "-fix", "./..."), 0) // every finding here has a fix
	wantCode(t, run(t, dir, bin, "./..."), 0)         // and the fixed module is clean
}

// TestRobustness runs the command on code that is unusual but valid (cgo,
// build tags, generics over channels and slices, a huge generated file,
// unreachable code, an external test package) and on code that does not
// build: no panic anywhere, findings where the passes apply, and a clear
// error with exit 1 where the code is broken.
func TestRobustness(t *testing.T) {
	dir := fixture(t, "robust")
	// -strandedsend.tests: tested/ checks that the tests are loaded, with
	// a receiver in a _test.go file, which the default run leaves out.
	r := run(t, dir, bin, "-strandedsend.tests", "./...")
	wantCode(t, r, 3)
	golden(t, dir, "robust.text", r.stdout)
	if r := run(t, dir, bin, "./tested"); r.code != 0 || r.stdout != "" {
		t.Errorf("default run on a test receiver: exit %d, %q; want 0 and nothing", r.code, r.stdout)
	}
	for _, quiet := range []string{"generated/", "unreachable/", "tagged/"} {
		if strings.Contains(r.stdout, quiet) {
			t.Errorf("finding in %s:\n%s", quiet, r.stdout)
		}
	}
	if strings.Contains(r.stdout, "cgo/cgo.go") && strings.Contains(run(t, dir, bin, "-json", "./cgo").stdout, "suggested_fixes") {
		t.Error("a finding in a cgo file offers a fix whose offsets point into cgo's translation")
	}

	r = run(t, dir, bin, "-tags=admitlint_extra", "./tagged")
	wantCode(t, r, 3)
	if !strings.Contains(r.stdout, "tagged/extra.go:10:16: send on unbuffered c") {
		t.Errorf("-tags did not reach the build: %s", r.stdout)
	}

	for name, want := range map[string]string{
		"syntaxerror":   "bad.go:3:14: expected ')', found '{'",
		"missingimport": "example.com/does/not/exist",
		"broken":        "cannot use \"forty-two\"",
	} {
		r := run(t, fixture(t, name), bin, "./...")
		wantCode(t, r, 1)
		if !strings.Contains(r.stderr, want) {
			t.Errorf("%s: stderr lacks %q:\n%s", name, want, r.stderr)
		}
	}
}

// TestNamedAfterDependency runs the command on a package that imports the
// fixture's, which analyses the fixture only for facts, and then on the
// fixture itself, in the same build cache: the second run must report the
// fixture's findings. Go 1.26's go vet caches both kinds of run under one
// key, so without the command's cache scope the second run replays the
// first one's empty output.
func TestNamedAfterDependency(t *testing.T) {
	dir := fixture(t, "passes")
	files := map[string]string{
		// A constant no earlier run has seen, so that nothing cached
		// before this test can answer for the fixture.
		"nonce.go":   fmt.Sprintf("package passes\n\nconst nonce = %d\n", time.Now().UnixNano()),
		"use/use.go": "package use\n\nimport _ \"example.com/passes\"\n",
	}
	for name, src := range files {
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	wantCode(t, run(t, dir, bin, "./use"), 0)
	r := run(t, dir, bin, ".")
	wantCode(t, r, 3)
	for _, pass := range []string{"lateacquire", "strandedsend", "retainslice"} {
		if !strings.Contains(r.stdout, "("+pass+")") {
			t.Errorf("no %s finding once the package is named:\n%s", pass, r.stdout)
		}
	}
}

// TestSpawnersAcrossModules: a spawning helper of another module (a
// Spawns fact) is reported at the caller's loop; one of the caller's own
// module is reported once, at its acquire, not again at its callers.
func TestSpawnersAcrossModules(t *testing.T) {
	dir := filepath.Join(fixture(t, "spawners"), "app")
	for _, r := range []result{run(t, dir, bin, "./..."), run(t, dir, "go", "vet", "-vettool="+bin, "./...")} {
		for _, want := range []string{"lib/lib.go:8:3: goroutine waits on sem", "use/use.go:16:3: helpers.Go starts a goroutine that waits on sem"} {
			if !strings.Contains(r.stdout+r.stderr, want) {
				t.Errorf("no %q in\n%s%s", want, r.stdout, r.stderr)
			}
		}
		if strings.Contains(r.stdout+r.stderr, "use/use.go:15") {
			t.Errorf("the call of the module's own helper is reported:\n%s%s", r.stdout, r.stderr)
		}
	}
	r := run(t, dir, bin, "./...")
	wantCode(t, r, 3)
	golden(t, dir, "spawners.text", r.stdout)
}
