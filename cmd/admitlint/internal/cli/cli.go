// Package cli is the admitlint command as users run it:
//
//	admitlint [flags] packages…
//
// It does not analyse packages in its own process. It runs
//
//	go vet -vettool=<this executable> -json [pass flags] packages…
//
// and formats what comes back. The go command then analyses each package
// in a process of its own, passes facts between packages through files,
// and caches every result, so memory stays bounded by the largest package
// rather than the whole program, and unchanged packages are not analysed
// again. The flags, output and exit codes are those of the x/tools
// multichecker, plus admitlint's own formats.
package cli

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/admitlint/admitlint/cmd/admitlint/internal/finding"
	"github.com/admitlint/admitlint/cmd/admitlint/internal/fix"
	"github.com/admitlint/admitlint/cmd/admitlint/internal/output"
	"github.com/admitlint/admitlint/cmd/admitlint/internal/vettool"
)

// Exit codes, as the x/tools checkers use them.
const (
	ExitClean    = 0 // no findings
	ExitFailure  = 1 // a package failed to load or analyse, or the command failed
	ExitUsage    = 2 // bad flags or arguments
	ExitFindings = 3 // at least one finding
)

// command holds one invocation's flags and streams.
type command struct {
	analyzers      []*analysis.Analyzer
	stdout, stderr io.Writer
	dir            string // working directory, for relative paths in output

	flags    *flag.FlagSet
	passArgs map[string]bool // names of flags that belong to passes

	json          bool
	format        string
	fix           bool
	diff          bool
	tags          string
	version       bool
	exitZero      bool
	baseline      string
	writeBaseline string

	sources *finding.Sources // the files findings point into, read once
}

// Main runs the admitlint command line with args (without the program
// name) and returns the exit code.
func Main(analyzers []*analysis.Analyzer, args []string, stdout, stderr io.Writer) int {
	c := &command{analyzers: analyzers, stdout: stdout, stderr: stderr}
	c.dir, _ = os.Getwd()
	c.defineFlags()
	if err := c.flags.Parse(args); err != nil {
		return ExitUsage // the flag package has printed the error and usage
	}
	args = c.flags.Args()
	switch {
	case c.version:
		fmt.Fprintf(stdout, "admitlint %s\n", Version())
		return ExitClean
	case len(args) > 0 && args[0] == "help":
		return c.help(args[1:])
	case len(args) == 0:
		c.flags.Usage()
		return ExitUsage
	}
	if c.json {
		c.format = "json"
	}
	if c.baseline != "" && c.writeBaseline != "" {
		fmt.Fprintf(stderr, "admitlint: -baseline and -write-baseline cannot be combined\n")
		return ExitUsage
	}
	if !slices.Contains(formats, c.format) {
		fmt.Fprintf(stderr, "admitlint: unknown -format %q (%s)\n", c.format, strings.Join(formats, ", "))
		return ExitUsage
	}
	c.sources = finding.NewSources()
	return c.run(args)
}

func (c *command) defineFlags() {
	fs := flag.NewFlagSet("admitlint", flag.ContinueOnError)
	fs.SetOutput(c.stderr)
	fs.Usage = c.usage
	fs.BoolVar(&c.json, "json", false, "emit JSON output (the x/tools shape); same as -format=json")
	fs.StringVar(&c.format, "format", "text", "output format: "+strings.Join(formats, ", "))
	fs.BoolVar(&c.fix, "fix", false, "apply each finding's suggested fix to the files")
	fs.BoolVar(&c.diff, "diff", false, "print the suggested fixes as a unified diff instead of applying them")
	fs.StringVar(&c.tags, "tags", "", "comma-separated build tags, passed to the go command")
	fs.BoolVar(&c.version, "version", false, "print admitlint's version and exit")
	fs.BoolVar(&c.exitZero, "exit-zero", false, "exit 0 even when there are findings (still 1 when a package fails), e.g. so a SARIF upload step runs")
	fs.StringVar(&c.baseline, "baseline", "", "report only findings not recorded in this baseline `file`")
	fs.StringVar(&c.writeBaseline, "write-baseline", "", "record the current findings in this baseline `file` and exit")

	// Each pass's flags, under the names go vet and the x/tools checkers
	// use: -<pass> to enable or disable it, -<pass>.<flag> for its settings.
	c.passArgs = map[string]bool{}
	for _, a := range c.analyzers {
		fs.Var(new(triState), a.Name, fmt.Sprintf("enable the %s pass", a.Name))
		c.passArgs[a.Name] = true
		a.Flags.VisitAll(func(f *flag.Flag) {
			name := a.Name + "." + f.Name
			fs.Var(f.Value, name, f.Usage)
			c.passArgs[name] = true
		})
	}
	c.flags = fs
}

// passFlags returns the pass flags the user set, as arguments for the vet
// tool.
func (c *command) passFlags() []string {
	var args []string
	c.flags.Visit(func(f *flag.Flag) {
		if c.passArgs[f.Name] {
			args = append(args, fmt.Sprintf("-%s=%s", f.Name, f.Value))
		}
	})
	return args
}

func (c *command) run(patterns []string) int {
	res, vetErr := c.vet(patterns)
	if res == nil {
		fmt.Fprintf(c.stderr, "admitlint: %v\n", vetErr)
		return ExitFailure
	}
	failed := vetErr != nil || len(res.Failures) > 0
	for _, fail := range res.Failures {
		fmt.Fprintf(c.stderr, "admitlint: %s\n", fail)
	}

	var found bool
	err := c.filterBaseline(res)
	switch {
	case err != nil:
	case c.writeBaseline != "":
		err = c.saveBaseline(res)
	case c.fix || c.diff:
		found, err = c.applyFixes(res)
	default:
		found, err = len(res.Findings) > 0, c.write(res)
	}
	switch {
	case err != nil:
		fmt.Fprintf(c.stderr, "admitlint: %v\n", err)
		return ExitFailure
	case failed:
		return ExitFailure
	case found && !c.exitZero:
		return ExitFindings
	}
	return ExitClean
}

// vet runs the passes through go vet. It returns the results it could read
// and an error if go vet failed (a package that does not load or
// type-check); go vet has then printed the reason on stderr. A nil result
// means nothing could be read at all.
//
// go vet analyses nothing when any package it is given does not load (a
// missing dependency, an embed pattern matching no file, a test importing
// a package its build constraints exclude): one such package among
// hundreds would leave the whole module unanalysed. When that happens,
// the packages that do load are analysed in a second run, and those that
// do not are named on stderr; the run still exits 1.
func (c *command) vet(patterns []string) (*finding.Results, error) {
	res, err := c.goVet(patterns)
	if err == nil || res == nil || len(res.Findings) > 0 || len(res.Failures) > 0 {
		return res, err
	}
	good, bad := c.loadable(patterns)
	if len(bad) == 0 || len(good) == 0 {
		return res, err
	}
	fmt.Fprintf(c.stderr, "admitlint: %d of %d packages do not load and are not analysed; the others are:\n", len(bad), len(good)+len(bad))
	for _, p := range slices.Sorted(maps.Keys(bad)) {
		fmt.Fprintf(c.stderr, "\t%s: %s\n", p, bad[p])
	}
	res, err = c.goVet(good)
	if res == nil {
		return nil, err
	}
	return res, fmt.Errorf("%d packages do not load", len(bad))
}

// goVet runs go vet with the passes on patterns once.
func (c *command) goVet(patterns []string) (*finding.Results, error) {
	self, err := os.Executable()
	if err != nil {
		return nil, fmt.Errorf("cannot find the admitlint executable to hand to go vet: %v", err)
	}
	args := []string{"vet", "-vettool=" + self, "-json", "-" + vettool.CacheScopeFlag + "=" + c.cacheScope(patterns)}
	if c.tags != "" {
		args = append(args, "-tags="+c.tags)
	}
	args = append(args, c.passFlags()...)
	args = append(args, patterns...)

	cmd := exec.Command("go", args...)
	var stdout bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, c.stderr
	runErr := cmd.Run()
	var exit *exec.ExitError
	if runErr != nil && !errors.As(runErr, &exit) {
		return nil, fmt.Errorf("running go vet: %v", runErr)
	}
	res, err := finding.Decode(&stdout)
	if err != nil {
		return nil, err
	}
	if runErr != nil {
		return res, fmt.Errorf("go vet: %v", runErr)
	}
	return res, nil
}

// loadable splits the packages patterns name into those go vet can load,
// with their tests, and those it cannot: a package is bad when it, one of
// its test variants, or anything they import has a load error (go list's
// Error or DepsErrors; type errors are not load errors). good holds sorted
// import paths, bad maps each bad package to its first load error; both
// are empty if go list itself fails. (go list -json with chosen fields
// skips the embed patterns, whose errors are load errors, so a template.)
func (c *command) loadable(patterns []string) (good []string, bad map[string]string) {
	const format = "{{.ImportPath}}\t{{.ForTest}}\t{{.Name}}\t" +
		"{{with .Error}}{{printf \"%q\" .}}{{else}}{{with .DepsErrors}}{{printf \"%q\" (index . 0)}}{{end}}{{end}}"
	args := []string{"list", "-e", "-test", "-f", format}
	if c.tags != "" {
		args = append(args, "-tags="+c.tags)
	}
	args = append(args, patterns...)
	out, err := exec.Command("go", args...).Output()
	if err != nil {
		return nil, nil
	}
	bad = map[string]string{}
	seen := map[string]bool{}
	for line := range strings.Lines(string(out)) {
		f := strings.SplitN(strings.TrimSuffix(line, "\n"), "\t", 4)
		if len(f) != 4 {
			continue
		}
		path, forTest, name := f[0], f[1], f[2]
		if forTest == "" && name == "main" && strings.HasSuffix(path, ".test") {
			continue // a test's generated main package
		}
		if forTest != "" {
			path = forTest // a test variant: it decides for the package it tests
		}
		seen[path] = true
		if _, done := bad[path]; f[3] != "" && !done {
			msg, err := strconv.Unquote(f[3])
			if err != nil {
				msg = f[3]
			}
			bad[path] = strings.Join(strings.Fields(msg), " ")
		}
	}
	for path := range seen {
		if _, ok := bad[path]; !ok {
			good = append(good, path)
		}
	}
	slices.Sort(good)
	return good, bad
}

// cacheScope identifies what this run analyses (directory, build tags,
// patterns), for go vet's result cache; see vettool.CacheScopeFlag.
func (c *command) cacheScope(patterns []string) string {
	h := sha256.New()
	fmt.Fprintf(h, "%q %q %q", c.dir, c.tags, patterns)
	return hex.EncodeToString(h.Sum(nil)[:8])
}

// formats are the values of -format.
var formats = []string{"text", "json", "sarif", "github"}

// write prints the findings in the chosen format.
func (c *command) write(res *finding.Results) error {
	switch c.format {
	case "json":
		return output.JSON(c.stdout, res)
	case "sarif":
		s := &output.SARIF{Analyzers: c.analyzers, Version: Version(), Root: moduleRoot(c.dir), Sources: c.sources}
		return s.Write(c.stdout, res)
	case "github":
		return output.GitHub(c.stdout, res, workspace(c.dir))
	default:
		return output.Text(c.stdout, res, c.dir)
	}
}

// moduleRoot returns the root directory of the main module containing dir,
// or dir itself outside a module (admitlint std, say).
func moduleRoot(dir string) string {
	out, err := exec.Command("go", "env", "GOMOD").Output()
	gomod := strings.TrimSpace(string(out))
	if err != nil || gomod == "" || gomod == os.DevNull {
		return dir
	}
	return filepath.Dir(gomod)
}

// workspace returns the directory GitHub Actions resolves annotation file
// names against: $GITHUB_WORKSPACE when set, else dir.
func workspace(dir string) string {
	if ws := os.Getenv("GITHUB_WORKSPACE"); ws != "" {
		return ws
	}
	return dir
}

// applyFixes applies or diffs the findings' fixes and reports whether any
// finding remains: one without a fix, one whose fix conflicted, or (with
// -diff) any fix not yet applied.
func (c *command) applyFixes(res *finding.Results) (bool, error) {
	plan, err := fix.NewPlan(res.Findings, os.ReadFile)
	if err != nil {
		return false, err
	}
	rest := &finding.Results{}
	for _, f := range res.Findings {
		if len(f.Fixes) == 0 {
			rest.Findings = append(rest.Findings, f)
		}
	}
	rest.Findings = append(rest.Findings, plan.Skipped...)
	rest.Normalize()
	if len(rest.Findings) > 0 {
		fmt.Fprintf(c.stderr, "admitlint: %d finding(s) have no fix that could be applied:\n", len(rest.Findings))
		if err := output.Text(c.stderr, rest, c.dir); err != nil {
			return false, err
		}
	}
	if c.diff {
		err := plan.Diff(c.stdout, func(file string) string { return output.Rel(c.dir, file) })
		return len(rest.Findings) > 0 || len(plan.Applied) > 0, err
	}
	if err := plan.Write(); err != nil {
		return false, err
	}
	if len(plan.Applied) > 0 {
		fmt.Fprintf(c.stderr, "admitlint: applied %d fix(es) to %d file(s)\n", len(plan.Applied), len(plan.Files))
	}
	return len(rest.Findings) > 0, nil
}

// Version returns admitlint's module version from the build information:
// a release tag, a pseudo-version, or "(devel)" for a local build.
func Version() string {
	if info, ok := debug.ReadBuildInfo(); ok && info.Main.Version != "" {
		return info.Main.Version
	}
	return "(devel)"
}

// triState is a boolean flag that remembers whether it was set, as the
// x/tools checkers' -<pass> flags do: -a=true means only a (and any other
// pass set true), -a=false means every pass but a.
type triState int

const (
	unset triState = iota
	setTrue
	setFalse
)

func (ts *triState) IsBoolFlag() bool { return true }

func (ts *triState) String() string {
	switch *ts {
	case setTrue:
		return "true"
	case setFalse:
		return "false"
	}
	return "unset"
}

func (ts *triState) Set(value string) error {
	switch strings.ToLower(value) {
	case "true", "1", "t":
		*ts = setTrue
	case "false", "0", "f":
		*ts = setFalse
	default:
		return fmt.Errorf("want true or false, not %q", value)
	}
	return nil
}
