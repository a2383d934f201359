package analyzer_test

import (
	"flag"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/admitlint/admitlint/analyzer"
	"github.com/admitlint/admitlint/internal/docs"
)

var update = flag.Bool("update", false, "rewrite README.md's generated section")

const (
	beginPasses = "<!-- BEGIN passes: generated from each pass's doc.go by `go test ./analyzer -run TestREADME -update`; edit doc.go, not this -->\n"
	endPasses   = "<!-- END passes -->\n"
)

// renderPasses returns the README section describing every analyzer: its
// doc.go documentation and its flags.
func renderPasses() string {
	var b strings.Builder
	for _, a := range analyzer.All {
		fmt.Fprintf(&b, "### %s\n\n", a.Name)
		title, body, _ := strings.Cut(a.Doc, "\n")
		fmt.Fprintf(&b, "**%s**\n\n", strings.TrimPrefix(title, a.Name+": "))
		b.WriteString(docs.Markdown(strings.TrimSpace(body)))
		var rows []string
		a.Flags.VisitAll(func(f *flag.Flag) {
			rows = append(rows, fmt.Sprintf("| `-%s.%s` | `%s` | %s |", a.Name, f.Name, f.DefValue, f.Usage))
		})
		if len(rows) > 0 {
			fmt.Fprintf(&b, "\n| flag | default | meaning |\n|---|---|---|\n%s\n", strings.Join(rows, "\n"))
		}
		fmt.Fprintf(&b, "\nMore: `admitlint help %s`, %s\n\n", a.Name, a.URL)
	}
	return b.String()
}

// TestREADME checks that the README describes every pass exactly as its
// doc.go does, so the two cannot drift.
func TestREADME(t *testing.T) {
	const file = "../README.md"
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	readme := string(data)
	begin, end := strings.Index(readme, beginPasses), strings.Index(readme, endPasses)
	if begin < 0 || end < begin {
		t.Fatalf("README.md lacks the generated passes section markers")
	}
	current := readme[begin+len(beginPasses) : end]
	want := renderPasses()
	if current == want {
		return
	}
	if *update {
		readme = readme[:begin+len(beginPasses)] + want + readme[end:]
		if err := os.WriteFile(file, []byte(readme), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Errorf("README.md's passes section is stale; run go test ./analyzer -run TestREADME -update")
}
