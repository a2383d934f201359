package analyzer

import (
	"encoding/json"
	"flag"
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"

	"github.com/admitlint/admitlint/internal/directive"
	"github.com/admitlint/admitlint/internal/settings"
)

// fakeConfig is the settings of a pass that exists only in this test.
type fakeConfig struct {
	Depth int `json:"depth" help:"how deep"`
}

func newFake(cfg fakeConfig) *analysis.Analyzer {
	a := &analysis.Analyzer{
		Name: "fakepass",
		Doc:  "fakepass: a pass added to the registry by a test",
		URL:  "https://example.com/fakepass",
		Run:  func(*analysis.Pass) (any, error) { return nil, nil },
	}
	settings.Bind(&a.Flags, &cfg)
	return a
}

// TestOneEntryAddsAPass adds one entry to the registry and checks that
// the suite, the constructor with settings, the settings' defaults and
// JSON form, and the directives pass's names all have the new pass.
func TestOneEntryAddsAPass(t *testing.T) {
	reg := append(slices.Clip(registry), entry(newFake(fakeConfig{Depth: 3}), func() fakeConfig { return fakeConfig{Depth: 3} }, newFake))

	all := suite(reg)
	if got := all[len(all)-2].Name; got != "fakepass" {
		t.Errorf("suite: the pass before directives is %s, want fakepass", got)
	}

	built, err := build(reg, Settings{Passes: map[string]map[string]any{"fakepass": {"depth": json.Number("7")}}})
	if err != nil {
		t.Fatal(err)
	}
	var fake *analysis.Analyzer
	for _, a := range built {
		if a.Name == "fakepass" {
			fake = a
		}
	}
	if fake == nil {
		t.Fatalf("build: no fakepass among %d analyzers", len(built))
	}
	if got := fake.Flags.Lookup("depth").Value.String(); got != "7" {
		t.Errorf("build: fakepass.depth = %s, want 7", got)
	}
	if _, err := build(reg, Settings{Passes: map[string]map[string]any{"fakepass": {"width": 1}}}); err == nil || !strings.Contains(err.Error(), "width") {
		t.Errorf("build with an unknown setting: err = %v", err)
	}

	// The directives pass built with the registry knows the new name.
	dir := all[len(all)-1]
	if err := analysis.Validate([]*analysis.Analyzer{dir}); err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(names(reg), "fakepass") {
		t.Errorf("names(reg) = %v, want fakepass among them", names(reg))
	}
	if dir.Requires[0] != directive.Analyzer {
		t.Errorf("directives pass does not read directives")
	}
}

// TestDefaultsComeFromPasses checks that Defaults holds, for every pass
// of the registry, each of its flags at its default value, and that its
// JSON form decodes back to itself.
func TestDefaultsComeFromPasses(t *testing.T) {
	d := Defaults()
	for _, p := range registry {
		a := p.build()
		n := 0
		a.Flags.VisitAll(func(f *flag.Flag) {
			n++
			got, ok := d.Passes[a.Name][f.Name]
			if !ok {
				t.Errorf("Defaults lacks %s.%s", a.Name, f.Name)
				return
			}
			if text, err := flagText(got); err != nil || text != f.DefValue {
				t.Errorf("Defaults: %s.%s = %v, want %q", a.Name, f.Name, got, f.DefValue)
			}
		})
		if n != len(d.Passes[a.Name]) {
			t.Errorf("Defaults: %s has %d settings, its analyzer %d flags", a.Name, len(d.Passes[a.Name]), n)
		}
	}
	data, err := json.Marshal(d)
	if err != nil {
		t.Fatal(err)
	}
	var back Settings
	if err := json.Unmarshal(data, &back); err != nil {
		t.Fatal(err)
	}
	again, _ := json.Marshal(back)
	if string(again) != string(data) {
		t.Errorf("settings do not survive JSON:\n%s\n%s", data, again)
	}
}
