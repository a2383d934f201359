package analyzer_test

import (
	"encoding/json"
	"flag"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/admitlint/admitlint/analyzer"
)

func testdata(t testing.TB) string {
	dir, err := filepath.Abs("../testdata")
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestSuiteIsValid checks what drivers rely on: a valid analyzer graph,
// unique names, and documentation for every analyzer.
func TestSuiteIsValid(t *testing.T) {
	if err := analysis.Validate(analyzer.All); err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, a := range analyzer.All {
		if seen[a.Name] {
			t.Errorf("two analyzers named %s", a.Name)
		}
		seen[a.Name] = true
		if !strings.HasPrefix(a.Doc, a.Name+": ") {
			t.Errorf("%s: Doc must begin %q", a.Name, a.Name+": ")
		}
		if !strings.HasPrefix(a.URL, "https://") {
			t.Errorf("%s: URL %q", a.Name, a.URL)
		}
	}
}

// TestEachAnalyzerStandsAlone is the construction nogo and other
// one-analyzer-at-a-time drivers need: each analyzer valid on its own.
func TestEachAnalyzerStandsAlone(t *testing.T) {
	for _, a := range analyzer.All {
		if err := analysis.Validate([]*analysis.Analyzer{a}); err != nil {
			t.Errorf("%s alone: %v", a.Name, err)
		}
	}
}

// TestSuiteSilentOnGate runs every analyzer over the reference gate, its
// tests included, and requires that nothing is reported.
func TestSuiteSilentOnGate(t *testing.T) {
	for _, a := range analyzer.All {
		t.Run(a.Name, func(t *testing.T) {
			results := analysistest.Run(t, testdata(t), a, "gate")
			if len(results) == 0 {
				t.Fatal("the gate package was not analysed")
			}
			for _, r := range results {
				if r.Err != nil {
					t.Errorf("%s on %s: %v", a.Name, r.Pass.Pkg.Path(), r.Err)
				}
				for _, d := range r.Diagnostics {
					t.Errorf("%s on the gate: %s: %s", a.Name, r.Pass.Fset.Position(d.Pos), d.Message)
				}
			}
		})
	}
}

func TestSettings(t *testing.T) {
	all, err := analyzer.New(analyzer.Defaults())
	if err != nil {
		t.Fatal(err)
	}
	if got, want := names(all), analyzer.Names(); !slices.Equal(got, want) {
		t.Errorf("New(Defaults()) = %v, want %v", got, want)
	}

	s := analyzer.Defaults()
	if err := json.Unmarshal([]byte(`{"disable": ["directives"]}`), &s); err != nil {
		t.Fatal(err)
	}
	some, err := analyzer.New(s)
	if err != nil {
		t.Fatal(err)
	}
	if slices.Contains(names(some), "directives") {
		t.Errorf("disabled pass still present: %v", names(some))
	}

	if _, err := analyzer.New(analyzer.Settings{Disable: []string{"nosuchpass"}}); err == nil || !strings.Contains(err.Error(), "nosuchpass") {
		t.Errorf("disabling an unknown pass: err = %v", err)
	}
}

func names(as []*analysis.Analyzer) []string {
	var ns []string
	for _, a := range as {
		ns = append(ns, a.Name)
	}
	return ns
}

// TestAnalyzersShareNoSettings is what nogo, golangci-lint and several
// suites in one process rely on: analyzers built by New own their
// settings, so changing one's flags changes no other analyzer, the
// package-level ones included.
func TestAnalyzersShareNoSettings(t *testing.T) {
	first, err := analyzer.New(analyzer.Defaults())
	if err != nil {
		t.Fatal(err)
	}
	second, _ := analyzer.New(analyzer.Defaults())
	flags := 0
	for i, a := range first {
		a.Flags.VisitAll(func(f *flag.Flag) {
			flags++
			before := second[i].Flags.Lookup(f.Name).Value.String()
			global := analyzer.All[i].Flags.Lookup(f.Name).Value.String()
			value := "true"
			if _, isBool := f.Value.(interface{ IsBoolFlag() bool }); !isBool {
				value = "12345"
				if f.DefValue == "" || strings.Contains(f.Usage, "comma-separated") {
					value = "example.com/p.F"
				}
			}
			if f.Value.String() == value {
				value = "false"
			}
			if err := a.Flags.Set(f.Name, value); err != nil {
				t.Fatalf("%s.%s=%s: %v", a.Name, f.Name, value, err)
			}
			if got := second[i].Flags.Lookup(f.Name).Value.String(); got != before {
				t.Errorf("setting %s.%s on one analyzer changed another's to %s", a.Name, f.Name, got)
			}
			if got := analyzer.All[i].Flags.Lookup(f.Name).Value.String(); got != global {
				t.Errorf("setting %s.%s on a new analyzer changed the package-level one's to %s", a.Name, f.Name, got)
			}
		})
	}
	if flags == 0 {
		t.Fatal("no pass flags found")
	}
}
