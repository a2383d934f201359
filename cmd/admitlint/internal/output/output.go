// Package output writes a run's results in the formats the admitlint
// command offers. Every format writes from the same finding.Results, after
// suppressions and baselines have been applied, so they always agree.
package output

import (
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/admitlint/admitlint/cmd/admitlint/internal/finding"
)

// Text writes one line per finding, "file:line:col: message (pass)", with
// each related position on an indented line below it. File names are
// relative to dir when they lie inside it.
func Text(w io.Writer, res *finding.Results, dir string) error {
	var b strings.Builder
	for _, f := range res.Findings {
		fmt.Fprintf(&b, "%s: %s (%s)\n", relPosn(f.Posn, dir), f.Message, f.Pass)
		for _, r := range f.Related {
			fmt.Fprintf(&b, "\t%s: %s\n", relPosn(r.Posn, dir), r.Message)
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func relPosn(p finding.Position, dir string) string {
	p.File = Rel(dir, p.File)
	return p.String()
}

// Rel returns file relative to dir if it lies inside dir, and file
// unchanged otherwise.
func Rel(dir, file string) string {
	if dir == "" {
		return file
	}
	rel, err := filepath.Rel(dir, file)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return file
	}
	return rel
}

// JSON writes the x/tools checker shape: an object keyed by package, then
// by pass, holding the list of diagnostics or {"error": text}.
func JSON(w io.Writer, res *finding.Results) error {
	tree := map[string]map[string]any{}
	at := func(pkg string) map[string]any {
		if tree[pkg] == nil {
			tree[pkg] = map[string]any{}
		}
		return tree[pkg]
	}
	for _, f := range res.Findings {
		list, _ := at(f.Package)[f.Pass].([]finding.Finding)
		at(f.Package)[f.Pass] = append(list, f)
	}
	for _, fail := range res.Failures {
		at(fail.Package)[fail.Pass] = map[string]string{"error": fail.Err}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "\t")
	return enc.Encode(tree)
}
