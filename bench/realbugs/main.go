// Command realbugs runs admitlint on the corpus of real bugs in bugs.tsv:
// for each, the module at the version that still has the bug, the one
// package that holds it, tests included, as a user would (`admitlint
// -json <package>` in a writable copy of the module, with its own
// go.mod). A bug is found when a finding of its pass names one of its
// lines, at the finding's position or as a related position.
//
//	go run ./bench/realbugs [-bin admitlint] [-flags "-strandedsend.fields"] [-offline] [-only id,id] [-out dir]
//
// It prints one line per bug (id, pass, found, what it printed) and a
// total. -offline uses only the module cache (GOPROXY=off): the
// regression test runs it that way.
package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
)

func main() {
	bin := flag.String("bin", "admitlint", "the admitlint binary")
	extra := flag.String("flags", "", "more admitlint flags, space-separated")
	offline := flag.Bool("offline", false, "use the module cache only")
	only := flag.String("only", "", "comma-separated ids to run")
	out := flag.String("out", "", "directory for the modules' copies (default: a temporary one)")
	flag.Parse()
	bugs, err := Load("bench/realbugs/bugs.tsv")
	if err != nil {
		fail(err)
	}
	dir := *out
	if dir == "" {
		if dir, err = os.MkdirTemp("", "realbugs"); err != nil {
			fail(err)
		}
		defer os.RemoveAll(dir)
	}
	found, ran := 0, 0
	for _, b := range bugs {
		if *only != "" && !slices.Contains(strings.Split(*only, ","), b.ID) {
			continue
		}
		r := Run(b, *bin, strings.Fields(*extra), dir, *offline)
		switch {
		case r.Err != nil:
			fmt.Printf("%s\t%s\terror\t%v\n", b.ID, b.Pass, r.Err)
			continue
		case r.Found != "":
			found++
			fmt.Printf("%s\t%s\tfound\t%s\n", b.ID, b.Pass, r.Found)
		default:
			fmt.Printf("%s\t%s\tmissed\t%d other findings of the pass in the package\n", b.ID, b.Pass, r.Others)
		}
		ran++
	}
	fmt.Printf("found %d of %d\n", found, ran)
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "realbugs:", err)
	os.Exit(1)
}

// A Bug is one row of bugs.tsv.
type Bug struct {
	ID, Module, Version, Package string
	File                         string // relative to the module root
	Lines                        []string
	Pass, Shape, Fix             string
	Found, Flags                 string // as last measured: yes, no or -
}

// Load reads the corpus.
func Load(path string) ([]Bug, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var bugs []Bug
	sc := bufio.NewScanner(f)
	header := true
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if header {
			header = false
			continue
		}
		c := strings.Split(line, "\t")
		if len(c) != 10 {
			return nil, fmt.Errorf("%s: %q: want 10 columns, have %d", path, c[0], len(c))
		}
		file, lines, ok := strings.Cut(c[4], ":")
		if !ok {
			return nil, fmt.Errorf("%s: %s: line %q is not file:line", path, c[0], c[4])
		}
		bugs = append(bugs, Bug{ID: c[0], Module: c[1], Version: c[2], Package: c[3], File: file,
			Lines: strings.Split(lines, ","), Pass: c[5], Shape: c[6], Fix: c[7], Found: c[8], Flags: c[9]})
	}
	return bugs, sc.Err()
}

// A Result is what one bug's run gave.
type Result struct {
	Found  string // the message of the finding that names the bug's line
	Others int    // findings of the pass that do not
	Err    error  // the module could not be fetched or analysed
}

// Run analyses b's package with bin, in a copy of its module under dir.
func Run(b Bug, bin string, flags []string, dir string, offline bool) Result {
	src, err := prepare(b, dir, offline)
	if err != nil {
		return Result{Err: err}
	}
	rel := "./" + strings.TrimPrefix(strings.TrimPrefix(b.Package, b.Module), "/")
	args := append(append([]string{"-json"}, flags...), rel)
	cmd := exec.Command(bin, args...)
	cmd.Dir = src
	cmd.Env = env(offline)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	stdout, err := cmd.Output()
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		return Result{Err: err}
	}
	if err != nil && exit.ExitCode() == 1 {
		// A package that does not load or type-check: not a result.
		return Result{Err: fmt.Errorf("admitlint exited 1: %s", lastLine(stderr.String()))}
	}
	var res Result
	if err := match(stdout, b, src, &res); err != nil {
		return Result{Err: fmt.Errorf("%v; stderr: %s", err, lastLine(stderr.String()))}
	}
	return res
}

// env is the environment of a module's own build: its go.mod, no
// workspace, the machine's Go.
func env(offline bool) []string {
	e := append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod", "GOTOOLCHAIN=local")
	if offline {
		e = append(e, "GOPROXY=off")
	}
	return e
}

// prepare copies the module's source at b.Version to a writable
// directory under dir, once.
func prepare(b Bug, dir string, offline bool) (string, error) {
	src := filepath.Join(dir, b.ID)
	if _, err := os.Stat(filepath.Join(src, "go.mod")); err == nil {
		return src, nil
	}
	cmd := exec.Command("go", "mod", "download", "-json", b.Module+"@"+b.Version)
	cmd.Env = env(offline)
	out, err := cmd.Output()
	var info struct{ Dir, GoMod, Error string }
	if jerr := json.Unmarshal(out, &info); jerr != nil || info.Dir == "" {
		return "", fmt.Errorf("go mod download %s@%s: %v %s", b.Module, b.Version, err, info.Error)
	}
	if err := os.CopyFS(src, os.DirFS(info.Dir)); err != nil {
		return "", err
	}
	if _, err := os.Stat(filepath.Join(src, "go.mod")); err != nil {
		// A module from before go.mod: the proxy's synthesised one names it.
		mod, err := os.ReadFile(info.GoMod)
		if err != nil {
			return "", err
		}
		if err := os.WriteFile(filepath.Join(src, "go.mod"), mod, 0o644); err != nil {
			return "", err
		}
	}
	return src, filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		mode := os.FileMode(0o644)
		if d.IsDir() {
			mode = 0o755
		}
		return os.Chmod(p, mode)
	})
}

// match reads admitlint's JSON output and records whether a finding of
// b's pass names one of b's lines.
func match(out []byte, b Bug, src string, res *Result) error {
	var all map[string]map[string]json.RawMessage
	if err := json.Unmarshal(out, &all); err != nil {
		return fmt.Errorf("admitlint printed no JSON: %v", err)
	}
	for _, byPass := range all {
		raw, ok := byPass[b.Pass]
		if !ok {
			continue
		}
		var diags []diag
		if err := json.Unmarshal(raw, &diags); err != nil {
			var e struct{ Error string }
			if json.Unmarshal(raw, &e) == nil && e.Error != "" {
				return errors.New(e.Error)
			}
			return err
		}
		for _, d := range diags {
			if names(d.posn, b, src) || slices.ContainsFunc(d.Related, func(p posn) bool { return names(p, b, src) }) {
				if res.Found == "" {
					res.Found = d.Message
				}
				continue
			}
			res.Others++
		}
	}
	return nil
}

// A posn is a position admitlint's JSON names, with its message.
type posn struct {
	Posn    string `json:"posn"`
	Message string `json:"message"`
}

// A diag is one finding in admitlint's JSON.
type diag struct {
	posn
	Related []posn `json:"related"`
}

// names reports whether p, file:line:col, is one of b's lines.
func names(p posn, b Bug, src string) bool {
	rel, err := filepath.Rel(src, p.Posn)
	if err != nil {
		rel = p.Posn
	}
	for _, l := range b.Lines {
		if strings.HasPrefix(filepath.ToSlash(rel), b.File+":"+l+":") {
			return true
		}
	}
	return false
}

func lastLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		return s[i+1:]
	}
	return s
}
