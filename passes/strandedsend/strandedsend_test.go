package strandedsend_test

import (
	"path/filepath"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/admitlint/admitlint/internal/gatemutant"
	"github.com/admitlint/admitlint/passes/strandedsend"
)

func testdata(t *testing.T) string {
	t.Helper()
	dir, err := filepath.Abs("../../testdata")
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

// wide returns strandedsend with every setting that widens the default
// run set, so that the shapes of tests and of senders counted at run time
// are checked as well.
func wide() *analysis.Analyzer {
	cfg := strandedsend.Defaults()
	cfg.Tests, cfg.Many, cfg.Consumers, cfg.Buffered = true, true, true, true
	return strandedsend.New(cfg)
}

// TestShapes runs the pass over every shape of the issue, positive and
// negative, and checks each suggested fix against its golden file.
func TestShapes(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, testdata(t), wide(),
		"strandedsend/timeout",
		"strandedsend/earlyreturn",
		"strandedsend/firsterror",
		"strandedsend/future",
		"strandedsend/futuremain",
		"strandedsend/selectsend",
		"strandedsend/stream",
		"strandedsend/escape",
		"strandedsend/reqreply",
		"strandedsend/reqreply/server",
		"strandedsend/reqreply/client",
		"strandedsend/reqreply/far",
		"strandedsend/reqreply/pool",
		"strandedsend/reqreply/poolstop",
		"strandedsend/reqreply/poolvia",
		"strandedsend/reqreply/rpcclient",
		"strandedsend/cmd",
		"strandedsend/exitcall",
		"strandedsend/ctxcallers",
		"strandedsend/premise",
		"strandedsend/realcode",
		"strandedsend/lockstep",
		"strandedsend/serve",
		"strandedsend/exits",
		"strandedsend/helpers",
		"strandedsend/consumers",
		"strandedsend/waits",
		"strandedsend/signals",
		"strandedsend/naming",
		"strandedsend/pairs",
	)
}

// TestStructs runs the default pass over channels that reach their
// goroutine inside a struct (an argument, a receiver, a captured
// variable), each positive beside its twins, with their fixes.
func TestStructs(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, testdata(t), strandedsend.Analyzer, "strandedsend/structs")
}

// TestFields checks -strandedsend.fields: field channels nothing
// receives from, and receiving loops that can return; the default run
// reports none of them.
func TestFields(t *testing.T) {
	cfg := strandedsend.Defaults()
	cfg.Fields = true
	analysistest.RunWithSuggestedFixes(t, testdata(t), strandedsend.New(cfg), "strandedsend/fields")
	n := 0
	for _, r := range analysistest.Run(ignoreWants{}, testdata(t), strandedsend.Analyzer, "strandedsend/fields") {
		n += len(r.Diagnostics)
	}
	if n != 0 {
		t.Errorf("default run on fields: %d findings, want 0", n)
	}
}

// TestConsumersOptIn checks that the default run leaves the consumers
// shape to -strandedsend.consumers (TestShapes checks it with the flag).
func TestConsumersOptIn(t *testing.T) {
	n := 0
	for _, r := range analysistest.Run(ignoreWants{}, testdata(t), strandedsend.Analyzer, "strandedsend/consumers") {
		n += len(r.Diagnostics)
	}
	if n != 0 {
		t.Errorf("default run on consumers: %d findings, want 0", n)
	}
	if strandedsend.New(strandedsend.Defaults()).Flags.Lookup("consumers") == nil {
		t.Error("no -consumers flag")
	}
}

// TestOptIn checks the default run: it reports the twins in production
// code with their counts known, on unbuffered channels, and leaves the
// others to the settings, which report exactly those.
func TestOptIn(t *testing.T) {
	analysistest.Run(t, testdata(t), strandedsend.Analyzer, "strandedsend/optin", "strandedsend/optin/support")
	for _, c := range []struct {
		name string
		set  func(*strandedsend.Config)
		want int
	}{
		{"tests", func(c *strandedsend.Config) { c.Tests = true }, 10},
		{"many", func(c *strandedsend.Config) { c.Many = true }, 8},
		{"buffered", func(c *strandedsend.Config) { c.Buffered = true }, 6},
		{"both", func(c *strandedsend.Config) { c.Tests, c.Many = true, true }, 13},
	} {
		cfg := strandedsend.Defaults()
		c.set(&cfg)
		a := strandedsend.New(cfg)
		if a.Flags.Lookup(c.name) == nil && c.name != "both" {
			t.Errorf("no -%s flag", c.name)
		}
		seen := map[string]bool{} // the package and its test variant report the same sends
		for _, r := range analysistest.Run(ignoreWants{}, testdata(t), a, "strandedsend/optin", "strandedsend/optin/support") {
			for _, d := range r.Diagnostics {
				seen[r.Pass.Fset.Position(d.Pos).String()] = true
			}
		}
		if len(seen) != c.want {
			t.Errorf("optin with %s: %d findings, want %d", c.name, len(seen), c.want)
		}
	}
}

// TestGate checks the reference gate stays silent (its result channel has
// room for the one result) and that its mutant, whose result channel is
// unbuffered, is reported, with the fix restoring the gate.
func TestGate(t *testing.T) {
	analysistest.Run(t, testdata(t), strandedsend.Analyzer, "gate")
	results := analysistest.RunWithSuggestedFixes(t, gateMutant(t), strandedsend.Analyzer, gatemutant.Package)
	n := 0
	for _, r := range results {
		n += len(r.Diagnostics)
	}
	if n != 1 {
		t.Errorf("gate mutant: %d findings, want 1", n)
	}
}

// TestFuturesSetting checks that -strandedsend.futures=false silences the
// future shape, here the gate mutant, and nothing else.
func TestFuturesSetting(t *testing.T) {
	cfg := strandedsend.Defaults()
	cfg.Futures = false
	a := strandedsend.New(cfg)
	mutant := gateMutant(t)
	for pkg, want := range map[string]int{gatemutant.Package: 0, "strandedsend/timeout": 13} {
		dir := testdata(t)
		if pkg == gatemutant.Package {
			dir = mutant
		}
		n := 0
		for _, r := range analysistest.Run(ignoreWants{}, dir, a, pkg) {
			n += len(r.Diagnostics)
		}
		if n != want {
			t.Errorf("%s with futures off: %d findings, want %d", pkg, n, want)
		}
	}
	if a.Flags.Lookup("futures") == nil {
		t.Error("no -futures flag")
	}
}

// gateMutant writes the reference gate with strandedsend's defect seeded:
// Start's result channel is unbuffered, so a worker whose caller stopped
// listening blocks forever. The fix gives it back its capacity of one.
func gateMutant(t *testing.T) string {
	return gatemutant.Write(t,
		gatemutant.Edit{
			Old:    "result := make(chan error, 1)",
			Mutant: "result := make(chan error) // the seeded defect: no room for the one result",
			Fixed:  "result := make(chan error, 1) // the seeded defect: no room for the one result",
		},
		gatemutant.Edit{
			Old:    "\tresult <- work(ctx)\n",
			Mutant: "\tresult <- work(ctx) // want `send on unbuffered result blocks forever if the caller of Start stops waiting for the result; the goroutine leaks — make result buffered`\n",
		},
	)
}

// ignoreWants drops analysistest's complaints about the // want comments
// a test does not check.
type ignoreWants struct{}

func (ignoreWants) Errorf(string, ...any) {}

// TestSameFunctionTwoSites runs the pass repeatedly over workers that two
// go statements start with one function: which statement the pass meets
// first follows a map's order, and the findings must not (each run
// checks the same wants).
func TestSameFunctionTwoSites(t *testing.T) {
	for range 16 {
		analysistest.Run(t, testdata(t), strandedsend.Analyzer, "strandedsend/twosites")
		if t.Failed() {
			return
		}
	}
}
