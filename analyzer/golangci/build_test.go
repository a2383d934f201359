package golangci

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// golangciVersion is the golangci-lint release the plugin is built into:
// the newest v2 whose golang.org/x/tools matches admitlint's.
const golangciVersion = "v2.15.0"

// TestCustomGolangciLint builds a custom golangci-lint with the admitlint
// plugin exactly as "golangci-lint custom" would (a main package that runs
// golangci-lint's own command and imports the plugin) but from the module
// proxy alone, since custom clones golangci-lint's git repository. It then
// lints a fixture module and checks the findings appear under the linter
// name admitlint and that //nolint:admitlint works.
//
// The build takes minutes on a cold cache, so the test runs only when
// ADMITLINT_GOLANGCI=1 (CI sets it).
func TestCustomGolangciLint(t *testing.T) {
	if os.Getenv("ADMITLINT_GOLANGCI") != "1" {
		t.Skip("set ADMITLINT_GOLANGCI=1 to build a custom golangci-lint (minutes)")
	}
	repo, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	build := t.TempDir()
	write(t, filepath.Join(build, "go.mod"), `module example.com/custom-gcl

go 1.26.0

require (
	github.com/admitlint/admitlint v0.0.0
	github.com/golangci/golangci-lint/v2 `+golangciVersion+`
)

replace github.com/admitlint/admitlint => `+repo+`
`)
	write(t, filepath.Join(build, "main.go"), `// Command custom-gcl is golangci-lint with the admitlint plugin.
package main

import (
	"fmt"
	"os"
	"runtime/debug"

	"github.com/golangci/golangci-lint/v2/pkg/commands"
	"github.com/golangci/golangci-lint/v2/pkg/exitcodes"

	_ "github.com/admitlint/admitlint/analyzer/golangci"
)

func main() {
	info := commands.BuildInfo{Version: "`+strings.TrimPrefix(golangciVersion, "v")+`-custom-gcl", Commit: "?", Date: "?"}
	if bi, ok := debug.ReadBuildInfo(); ok {
		info.GoVersion = bi.GoVersion
	}
	if err := commands.Execute(info); err != nil {
		fmt.Fprintf(os.Stderr, "custom-gcl: %v\n", err)
		os.Exit(exitcodes.Failure)
	}
}
`)
	gcl := filepath.Join(build, "custom-gcl")
	runIn(t, build, "go", "mod", "tidy")
	runIn(t, build, "go", "build", "-o", gcl, ".")

	dir := filepath.Join(t.TempDir(), "golangci")
	if err := os.CopyFS(dir, os.DirFS(filepath.Join(repo, "testdata", "e2e", "golangci"))); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(gcl, "run", "--output.text.path=stdout", "./...")
	cmd.Dir = dir
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err = cmd.Run()
	exit, ok := err.(*exec.ExitError)
	if !ok || exit.ExitCode() != 1 {
		t.Fatalf("custom-gcl run: %v (want exit 1: issues found)\nstdout:\n%s\nstderr:\n%s", err, stdout.String(), stderr.String())
	}
	out := stdout.String()
	// One finding per admitlint pass, each under the linter name admitlint
	// (golangci-lint puts the pass's name before the message).
	for _, want := range []string{
		`directives.go:7:2: directives: "// admitlint:" is not a directive; write //admitlint: with no space so it can take effect (admitlint)`,
		`passes.go:15:3: lateacquire: goroutine waits on sem before doing any work; one goroutine parks per request`,
		`passes.go:25:9: strandedsend: send on unbuffered reply blocks forever once the receiver leaves`,
		`passes.go:43:9: retainslice: line keeps a slice of buf (make at passes.go:37, 1 MiB)`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("custom-gcl output lacks %q:\n%s", want, out)
		}
	}
	if regexp.MustCompile(`directives\.go:1[3-9]:`).MatchString(out) {
		t.Errorf("//nolint:admitlint did not silence func Quiet:\n%s", out)
	}
	if strings.Contains(out, "passes.go:50:") {
		t.Errorf("a trailing //nolint:admitlint did not silence its line:\n%s", out)
	}
}

func write(t *testing.T, file, text string) {
	t.Helper()
	if err := os.WriteFile(file, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func runIn(t *testing.T, dir, name string, args ...string) {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%s %v: %v\n%s", name, args, err, out)
	}
}
