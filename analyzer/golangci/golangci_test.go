package golangci

import (
	"encoding/json"
	"flag"
	"slices"
	"strings"
	"testing"

	"github.com/golangci/plugin-module-register/register"
	"golang.org/x/tools/go/analysis"

	"github.com/admitlint/admitlint/analyzer"
)

func names(as []*analysis.Analyzer) []string {
	var ns []string
	for _, a := range as {
		ns = append(ns, a.Name)
	}
	return ns
}

func TestRegistered(t *testing.T) {
	newPlugin, err := register.GetPlugin("admitlint")
	if err != nil {
		t.Fatal(err)
	}
	p, err := newPlugin(nil) // no settings in .golangci.yml
	if err != nil {
		t.Fatal(err)
	}
	if p.GetLoadMode() != register.LoadModeTypesInfo {
		t.Errorf("load mode %q, want %q: the passes need type information for SSA", p.GetLoadMode(), register.LoadModeTypesInfo)
	}
	as, err := p.BuildAnalyzers()
	if err != nil {
		t.Fatal(err)
	}
	if got := names(as); !slices.Equal(got, analyzer.Names()) {
		t.Errorf("analyzers = %v, want all of %v", got, analyzer.Names())
	}
	if err := analysis.Validate(as); err != nil {
		t.Error(err)
	}
}

func TestSettingsOverlayDefaults(t *testing.T) {
	// As golangci-lint hands settings over: decoded YAML.
	conf := map[string]any{"disable": []any{"directives"}}
	p, err := New(conf)
	if err != nil {
		t.Fatal(err)
	}
	as, _ := p.BuildAnalyzers()
	if slices.Contains(names(as), "directives") {
		t.Errorf("disabled pass still built: %v", names(as))
	}
	if got, want := p.(*plugin).settings, withDisable(analyzer.Defaults(), "directives"); !equalJSON(t, got, want) {
		t.Errorf("settings = %+v, want the defaults with directives disabled", got)
	}
}

func TestSettingsErrors(t *testing.T) {
	for _, conf := range []any{
		map[string]any{"disabel": []any{"directives"}}, // typo in a key
		map[string]any{"disable": []any{"nosuchpass"}}, // unknown pass
		map[string]any{"disable": "directives"},        // wrong type
	} {
		if _, err := New(conf); err == nil {
			t.Errorf("New(%v) accepted bad settings", conf)
		} else if !strings.Contains(err.Error(), "admitlint") {
			t.Errorf("error does not say it is admitlint's: %v", err)
		}
	}
}
func withDisable(s analyzer.Settings, names ...string) analyzer.Settings {
	s.Disable = append(s.Disable, names...)
	return s
}

// equalJSON compares settings by their JSON form, which is what
// golangci-lint and the flags agree on.
func equalJSON(t *testing.T, a, b analyzer.Settings) bool {
	t.Helper()
	ja, err1 := json.Marshal(a)
	jb, err2 := json.Marshal(b)
	if err1 != nil || err2 != nil {
		t.Fatal(err1, err2)
	}
	return string(ja) == string(jb)
}

// TestPassSettings decodes every pass's settings as .golangci.yml would
// carry them and checks they reach the analyzers' flags.
func TestPassSettings(t *testing.T) {
	conf := map[string]any{
		"lateacquire":  map[string]any{"strict": true, "funcs": []any{"example.com/pool.Pool.Acquire"}},
		"strandedsend": map[string]any{"futures": false},
		"retainslice":  map[string]any{"min-bytes": 1048576},
	}
	p, err := New(conf)
	if err != nil {
		t.Fatal(err)
	}
	as, _ := p.BuildAnalyzers()
	got := map[string]string{}
	for _, a := range as {
		a.Flags.VisitAll(func(f *flag.Flag) { got[a.Name+"."+f.Name] = f.Value.String() })
	}
	want := map[string]string{
		"lateacquire.strict":    "true",
		"lateacquire.funcs":     "example.com/pool.Pool.Acquire",
		"strandedsend.futures":  "false",
		"retainslice.min-bytes": "1048576",
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s = %q, want %q", k, got[k], v)
		}
	}
	// The package-level analyzers keep their defaults: settings build new ones.
	for _, a := range analyzer.All {
		if f := a.Flags.Lookup("min-bytes"); f != nil && f.Value.String() != "65536" {
			t.Errorf("decoding settings changed the default analyzer's min-bytes to %s", f.Value)
		}
	}
}
