package baseline

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/admitlint/admitlint/cmd/admitlint/internal/finding"
)

// module writes files under a temporary directory and returns it.
func module(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, text := range files {
		path := filepath.Join(dir, name)
		os.MkdirAll(filepath.Dir(path), 0o755)
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func at(dir, file string, line int, pass, msg string) finding.Finding {
	return finding.Finding{Pass: pass, Message: msg, Posn: finding.Position{File: filepath.Join(dir, file), Line: line, Col: 2}}
}

func TestRoundTripAndMatching(t *testing.T) {
	dir := module(t, map[string]string{
		"a/a.go": "package a\n\nfunc f() {\n\tgo g()\n\tgo g()\n}\n",
		"b.go":   "package b\n\nvar x = 1\n",
	})
	findings := []finding.Finding{
		at(dir, "a/a.go", 4, "lateacquire", "sem acquired late\tin a.go:4"),
		at(dir, "a/a.go", 5, "lateacquire", "sem acquired late\tin a.go:5"), // same line text and message: counted twice
		at(dir, "b.go", 3, "retainslice", "x keeps data alive"),
	}
	entries := Entries(findings, finding.NewSources(), dir)
	var buf bytes.Buffer
	if err := Write(&buf, entries); err != nil {
		t.Fatal(err)
	}
	text := buf.String()
	if !strings.Contains(text, "lateacquire\ta/a.go\t") || !strings.Contains(text, "retainslice\tb.go\t") {
		t.Fatalf("baseline text:\n%s", text)
	}
	var again bytes.Buffer
	Write(&again, Entries(findings, finding.NewSources(), dir))
	if again.String() != text {
		t.Error("writing the same findings twice gave different bytes")
	}

	read, err := Read(strings.NewReader(text))
	if err != nil {
		t.Fatal(err)
	}

	// The code moved down three lines and one lateacquire finding was fixed;
	// a new retainslice finding appeared.
	os.WriteFile(filepath.Join(dir, "a/a.go"), []byte("package a\n\n// moved\n// down\n// lines\nfunc f() {\n\tgo g()\n}\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "b.go"), []byte("package b\n\nvar x = 1\nvar y = 2\n"), 0o644)
	now := []finding.Finding{
		at(dir, "a/a.go", 7, "lateacquire", "sem acquired late\tin a.go:7"),
		at(dir, "b.go", 3, "retainslice", "x keeps data alive"),
		at(dir, "b.go", 4, "retainslice", "y keeps data alive"),
	}
	fresh, matched, stale := Filter(now, read, finding.NewSources(), dir)
	if matched != 2 {
		t.Errorf("matched = %d, want 2", matched)
	}
	if len(fresh) != 1 || fresh[0].Message != "y keeps data alive" {
		t.Errorf("fresh = %+v, want only the new finding", fresh)
	}
	if len(stale) != 1 || stale[0].Pass != "lateacquire" {
		t.Errorf("stale = %+v, want the fixed lateacquire finding", stale)
	}
}

func TestReadRejectsMalformed(t *testing.T) {
	if _, err := Read(strings.NewReader("# comment\nlateacquire\tonly-two\n")); err == nil {
		t.Error("a line with two fields was accepted")
	}
	entries, err := Read(strings.NewReader("# comment\n\nlateacquire\ta.go\tabc\n"))
	if err != nil || len(entries) != 1 || entries[0].Message != "" {
		t.Errorf("entry without message: %+v, %v", entries, err)
	}
}
