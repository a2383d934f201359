package strandedsend_test

import (
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/admitlint/admitlint/passes/strandedsend"
)

// TestStallRelated: a send the receiver's wait blocks (issue 14's shape
// 9) names what the receiver waits for as a related position, the lock
// it takes or the Wait of the senders' group, and for a lock the place
// the sender takes it too.
func TestStallRelated(t *testing.T) {
	results := analysistest.Run(t, testdata(t), wide(), "strandedsend/waits")
	want := map[string][]string{
		// (*cache).refresh: the receiver's Lock, and the sender's
		"locks.go:19": {"locks.go:21: the receiver waits for c.mu here", "locks.go:16: the sender locks c.mu here and holds it while it sends"},
		// sum: the senders' WaitGroup
		"waits.go:23": {"waits.go:26: the receiver waits for its senders here"},
	}
	for _, r := range results {
		for _, d := range r.Diagnostics {
			p := r.Pass.Fset.Position(d.Pos)
			at := fmt.Sprintf("%s:%d", filepath.Base(p.Filename), p.Line)
			exp, ok := want[at]
			if !ok {
				continue
			}
			delete(want, at)
			got := related(r.Pass, d)
			for _, e := range exp {
				if !slices.Contains(got, e) {
					t.Errorf("%s: related %q, want it to contain %q", at, got, e)
				}
			}
		}
	}
	for at := range want {
		t.Errorf("no report at %s", at)
	}
}

// related lists d's related positions as "file:line: message".
func related(pass *analysis.Pass, d analysis.Diagnostic) []string {
	var out []string
	for _, rel := range d.Related {
		p := pass.Fset.Position(rel.Pos)
		out = append(out, fmt.Sprintf("%s:%d: %s", filepath.Base(p.Filename), p.Line, rel.Message))
	}
	return out
}

// TestFieldFutureRelated: a future field built at two sites is one
// report, at the first site's send, naming the receiver's way out, the
// make, and the other site's send.
func TestFieldFutureRelated(t *testing.T) {
	cfg := strandedsend.Defaults()
	cfg.Fields = true
	at := map[string]bool{} // the package and its test variant report alike
	for _, r := range analysistest.Run(t, testdata(t), strandedsend.New(cfg), "strandedsend/fields") {
		for _, d := range r.Diagnostics {
			p := r.Pass.Fset.Position(d.Pos)
			if filepath.Base(p.Filename) != "twosites.go" {
				continue
			}
			at[p.String()] = true
			got := related(r.Pass, d)
			for _, e := range []string{"twosites.go:39: the receiver can leave here", "twosites.go:13: ok is made here, unbuffered", "twosites.go:24: another construction's goroutine sends here"} {
				if !slices.Contains(got, e) {
					t.Errorf("related %q, want it to contain %q", got, e)
				}
			}
		}
	}
	if len(at) != 1 {
		t.Errorf("reports in twosites.go at %v, want one position", slices.Sorted(maps.Keys(at)))
	}
}
