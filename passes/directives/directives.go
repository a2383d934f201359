package directives

import (
	"fmt"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/admitlint/admitlint/internal/directive"
	"github.com/admitlint/admitlint/internal/docs"
)

// New returns a directives analyzer that accepts the given pass names.
// The suite (package analyzer) constructs it with the names of its
// passes; with no names, a directive's pass names are not checked.
func New(passes ...string) *analysis.Analyzer {
	known := make(map[string]bool, len(passes))
	for _, p := range passes {
		known[p] = true
	}
	return &analysis.Analyzer{
		Name:     "directives",
		Doc:      docs.MustExtract(doc, "directives"),
		URL:      "https://pkg.go.dev/github.com/admitlint/admitlint/passes/directives",
		Requires: []*analysis.Analyzer{directive.Analyzer},
		Run: func(pass *analysis.Pass) (any, error) {
			for _, d := range directive.Of(pass).All {
				if problem := check(d, known, passes); problem != "" {
					pass.Report(analysis.Diagnostic{Pos: d.Pos, End: d.End, Message: problem, SuggestedFixes: unspace(d)})
				}
			}
			return nil, nil
		},
	}
}

// unspace returns the fix for a directive written with a space after the
// slashes: remove the space.
func unspace(d *directive.Directive) []analysis.SuggestedFix {
	if !d.Spaced {
		return nil
	}
	return []analysis.SuggestedFix{{
		Message:   "Remove the space after //",
		TextEdits: []analysis.TextEdit{{Pos: d.Pos + 2, End: d.Pos + 3}},
	}}
}

// check returns what makes d unable to take effect, or "".
func check(d *directive.Directive, known map[string]bool, passes []string) string {
	switch {
	case d.Spaced:
		return "\"// admitlint:\" is not a directive; write //admitlint: with no space so it can take effect"
	case d.Verb != directive.Verb:
		return fmt.Sprintf("unknown admitlint directive %q; the only one is //admitlint:ignore <pass> <reason>", d.Verb)
	case len(d.Passes) == 0:
		return "//admitlint:ignore names no pass; write //admitlint:ignore <pass> <reason>"
	}
	var unknown []string
	for _, p := range d.Passes {
		if !known[p] {
			unknown = append(unknown, p)
		}
	}
	switch {
	case len(unknown) > 0 && len(passes) > 0:
		return fmt.Sprintf("//admitlint:ignore names unknown pass %s; admitlint's passes are %s",
			strings.Join(unknown, ", "), strings.Join(passes, ", "))
	case d.Reason == "":
		return "//admitlint:ignore has no reason; say why the finding is wrong or acceptable, after the pass names"
	}
	return ""
}

// Analyzer checks the form of directives. It does not know which passes
// exist, so it accepts any pass name; the suite's directives analyzer
// (analyzer.All, or analyzer/directives for drivers that take analyzers
// one package at a time) also reports names that are not admitlint's.
var Analyzer = New()
