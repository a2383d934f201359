package strandedsend_test

import (
	"fmt"
	"path/filepath"
	"slices"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"
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
