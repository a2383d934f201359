package analyzer_test

import (
	"os/exec"
	"path"
	"slices"
	"strings"
	"testing"
)

const module = "github.com/admitlint/admitlint"

// TestLayout checks the module's layering as the tree promises it: no
// pass imports another pass, an engine under a pass's internal/ is
// imported by that pass alone (Go enforces it; this says so in the test),
// and a package stays in the top-level internal/ only while two or more
// of the passes and the command use it, their tests included.
func TestLayout(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list over the module")
	}
	for _, line := range goList(t, "-test", "-f", "{{.ImportPath}}:{{join .Imports \" \"}}", module+"/...") {
		p, imports, _ := strings.Cut(line, ":")
		from := own(p)
		for _, imp := range strings.Fields(imports) {
			if !strings.HasPrefix(imp, module+"/") {
				continue
			}
			to := own(imp)
			if pass := passOf(to); pass != "" && passOf(from) != "" && pass != passOf(from) {
				t.Errorf("%s imports %s: a pass must not import another pass", from, to)
			}
			if i := strings.Index(to, "/internal/"); i >= 0 && !within(from, to[:i]) {
				t.Errorf("%s imports %s, internal to %s", from, to, to[:i])
			}
		}
	}
	consumers := []string{"cmd/admitlint"}
	for _, p := range goList(t, "-f", "{{.ImportPath}}", module+"/passes/...") {
		if rel := own(p); path.Dir(rel) == "passes" {
			consumers = append(consumers, rel)
		}
	}
	users := map[string][]string{} // top-level internal package -> consumers using it
	for _, c := range consumers {
		for _, d := range goList(t, "-deps", "-test", "-f", "{{.ImportPath}}", module+"/"+c) {
			if rel := own(d); strings.HasPrefix(rel, "internal/") && !slices.Contains(users[rel], c) {
				users[rel] = append(users[rel], c)
			}
		}
	}
	for _, p := range goList(t, "-f", "{{.ImportPath}}", module+"/internal/...") {
		if rel := own(p); len(users[rel]) < 2 {
			t.Errorf("%s is used by %v only: a package of one pass or of the command belongs under it", rel, users[rel])
		}
	}
}

// own returns the module-relative path of the package go list names as
// p: "passes/x" for "…/passes/x [y.test]", "…/passes/x_test" or
// "…/passes/x.test".
func own(p string) string {
	p, _, _ = strings.Cut(p, " ")
	p = strings.TrimSuffix(strings.TrimSuffix(p, ".test"), "_test")
	return strings.TrimPrefix(p, module+"/")
}

// passOf returns "passes/<name>" for a package of that pass, or "".
func passOf(rel string) string {
	parts := strings.Split(rel, "/")
	if len(parts) < 2 || parts[0] != "passes" {
		return ""
	}
	return parts[0] + "/" + parts[1]
}

// within reports whether package rel is dir or lies under it.
func within(rel, dir string) bool {
	return rel == dir || strings.HasPrefix(rel, dir+"/")
}

func goList(t *testing.T, args ...string) []string {
	t.Helper()
	out, err := exec.Command("go", append([]string{"list"}, args...)...).Output()
	if err != nil {
		t.Fatalf("go list %v: %v", args, err)
	}
	return strings.Split(strings.TrimSpace(string(out)), "\n")
}
