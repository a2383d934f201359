package vettool

import (
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/tools/go/analysis"
)

func TestInvoked(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want bool
	}{
		{[]string{"-V=full"}, true},
		{[]string{"-flags"}, true},
		{[]string{"-lateacquire.strict=true", "/tmp/go-build/b001/vet.cfg"}, true},
		{[]string{"./..."}, false},
		{[]string{"-json", "std"}, false},
		{[]string{"help", "lateacquire"}, false},
		{nil, false},
	} {
		if got := Invoked(tc.args); got != tc.want {
			t.Errorf("Invoked(%q) = %v, want %v", tc.args, got, tc.want)
		}
	}
}

func TestFactsOnly(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		path := filepath.Join(dir, name)
		os.WriteFile(path, []byte(text), 0o644)
		return path
	}
	if !factsOnly(write("deps.cfg", `{"ID": "fmt", "VetxOnly": true}`)) {
		t.Error("a facts-only unit was not recognised")
	}
	if factsOnly(write("root.cfg", `{"ID": "example.com/m", "VetxOnly": false}`)) {
		t.Error("a root unit was taken for facts-only")
	}
	if factsOnly(filepath.Join(dir, "missing.cfg")) || factsOnly(write("bad.cfg", "{")) {
		t.Error("an unreadable unit was taken for facts-only")
	}
}

type fact struct{}

func (*fact) AFact() {}

func TestStandIns(t *testing.T) {
	summary := &analysis.Analyzer{Name: "summary", Doc: "summary: facts", FactTypes: []analysis.Fact{new(fact)},
		Run: func(*analysis.Pass) (any, error) { return nil, nil }}
	plain := &analysis.Analyzer{Name: "plain", Doc: "plain: no facts", Run: func(*analysis.Pass) (any, error) { return nil, nil }}
	ran := false
	pass := &analysis.Analyzer{
		Name: "pass", Doc: "pass: reports", Requires: []*analysis.Analyzer{plain, summary},
		Run: func(*analysis.Pass) (any, error) { ran = true; return nil, nil },
	}
	pass.Flags.Bool("strict", false, "a pass flag")

	out := standIns([]*analysis.Analyzer{pass, summary})
	if out[1] != summary {
		t.Error("a fact-producing analyzer was replaced")
	}
	stand := out[0]
	if stand == pass || stand.Name != "pass" || stand.Flags.Lookup("strict") == nil {
		t.Fatalf("stand-in lost the pass's name or flags: %+v", stand)
	}
	if len(stand.Requires) != 1 || stand.Requires[0] != summary {
		t.Errorf("stand-in requires %v, want only the fact producer", stand.Requires)
	}
	if _, err := stand.Run(nil); err != nil || ran {
		t.Errorf("stand-in ran the pass (ran=%v, err=%v)", ran, err)
	}
	if err := analysis.Validate(out); err != nil {
		t.Error(err)
	}
}
