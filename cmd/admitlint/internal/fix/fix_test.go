package fix

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/admitlint/admitlint/cmd/admitlint/internal/finding"
)

const src = `package p

func a() {
	ch := make(chan int)
	_ = ch
}

func b() {
	sem := make(chan struct{}, 2)
	_ = sem
}

func c() {
	buf := make([]byte, 1<<20)
	_ = buf
}
`

// edit returns an edit of src replacing the first occurrence of old.
func edit(t *testing.T, file, old, new string) finding.Edit {
	t.Helper()
	i := strings.Index(src, old)
	if i < 0 {
		t.Fatalf("%q not in src", old)
	}
	return finding.Edit{File: file, Start: i, End: i + len(old), New: new}
}

func withFix(msg string, edits ...finding.Edit) finding.Finding {
	return finding.Finding{Message: msg, Fixes: []finding.Fix{{Message: msg, Edits: edits}}}
}

func TestPlanAppliesAndSkipsConflicts(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "p.go")
	if err := os.WriteFile(file, []byte(src), 0o640); err != nil {
		t.Fatal(err)
	}
	buffer := edit(t, file, "make(chan int)", "make(chan int, 1)")
	findings := []finding.Finding{
		withFix("buffer", buffer),
		withFix("same edit again", buffer),
		withFix("overlaps", edit(t, file, "chan int", "chan string")),
		{Message: "no fix"},
		withFix("clone", edit(t, file, "buf := make", "buf := bytes.Clone(make"), edit(t, file, "1<<20)", "1<<20))")),
	}
	plan, err := NewPlan(findings, os.ReadFile)
	if err != nil {
		t.Fatal(err)
	}
	if got := messages(plan.Applied); got != "buffer, same edit again, clone" {
		t.Errorf("applied = %s", got)
	}
	if got := messages(plan.Skipped); got != "overlaps" {
		t.Errorf("skipped = %s", got)
	}
	if err := plan.Write(); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(file)
	want := strings.NewReplacer("make(chan int)", "make(chan int, 1)", "make([]byte, 1<<20)", "bytes.Clone(make([]byte, 1<<20))").Replace(src)
	if string(got) != want {
		t.Errorf("fixed file:\n%s\nwant:\n%s", got, want)
	}
	if info, _ := os.Stat(file); info.Mode().Perm() != 0o640 {
		t.Errorf("permissions changed to %v", info.Mode().Perm())
	}
}

func messages(fs []finding.Finding) string {
	var ms []string
	for _, f := range fs {
		ms = append(ms, f.Message)
	}
	return strings.Join(ms, ", ")
}

// TestDiffAppliesWithPatch checks the diff is a real patch: applied to the
// original with patch(1) it yields exactly the fixed file.
func TestDiffAppliesWithPatch(t *testing.T) {
	if _, err := exec.LookPath("patch"); err != nil {
		t.Skip("patch(1) not installed")
	}
	for name, edits := range map[string][]string{
		"one change":          {"make(chan int)", "make(chan int, 1)"},
		"two nearby changes":  {"make(chan int)", "make(chan int, 1)", "sem := make", "sem = make"},
		"far apart":           {"ch := make", "ch = make", "buf := make", "buf = make"},
		"insert lines":        {"\tsem := make(chan struct{}, 2)\n", "\t// note\n\tsem := make(chan struct{}, 2)\n\t// more\n"},
		"delete a line":       {"\t_ = buf\n", ""},
		"adjacent lines":      {"\tsem := make", "\tsem = make", "\t_ = sem\n", ""},
		"first and last line": {"package p\n", "package q\n", "\t_ = buf\n}\n", "}\n"},
	} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			file := filepath.Join(dir, "p.go")
			os.WriteFile(file, []byte(src), 0o644)
			var f finding.Finding
			var es []finding.Edit
			for i := 0; i < len(edits); i += 2 {
				es = append(es, edit(t, file, edits[i], edits[i+1]))
			}
			f = withFix(name, es...)
			plan, err := NewPlan([]finding.Finding{f}, os.ReadFile)
			if err != nil || len(plan.Applied) != 1 {
				t.Fatalf("plan: %v, applied %d", err, len(plan.Applied))
			}
			var diff bytes.Buffer
			plan.Diff(&diff, func(string) string { return "p.go" })
			cmd := exec.Command("patch", "-s", "-p1")
			cmd.Dir = dir
			cmd.Stdin = &diff
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("patch failed: %v\n%s\ndiff:\n%s", err, out, diff.String())
			}
			got, _ := os.ReadFile(file)
			if want := plan.New(file); !bytes.Equal(got, want) {
				t.Fatalf("patched file differs from fixed file\npatched:\n%s\nfixed:\n%s\ndiff:\n%s", got, want, diff.String())
			}
		})
	}
}

func TestDiffFormat(t *testing.T) {
	file := "/x/p.go"
	plan, _ := NewPlan([]finding.Finding{withFix("b", edit(t, file, "make(chan int)", "make(chan int, 1)"))},
		func(string) ([]byte, error) { return []byte(src), nil })
	var diff bytes.Buffer
	plan.Diff(&diff, func(f string) string { return filepath.Base(f) })
	want := ("--- a/p.go\n+++ b/p.go\n@@ -1,7 +1,7 @@\n package p\n \n func a() {\n-\tch := make(chan int)\n+\tch := make(chan int, 1)\n \t_ = ch\n }\n \n")
	if diff.String() != want {
		t.Errorf("diff:\n%s\nwant:\n%s", diff.String(), want)
	}
}
