// Package harness gives every admitlint pass the behaviour users expect of
// all of them, whatever driver runs it (the admitlint command, go vet,
// golangci-lint, nogo or analysistest):
//
//   - findings silenced by a valid //admitlint:ignore directive naming the
//     pass are dropped, and a directive naming the pass that silenced
//     nothing is reported, so stale ones do not pile up;
//   - findings in generated files (those with the standard "// Code
//     generated … DO NOT EDIT." header) are dropped: nobody can act on them
//     in place, and the generator's owners see them in its own sources;
//   - a panic inside the pass becomes an analysis error for the package
//     being analysed instead of killing the process.
package harness

import (
	"fmt"
	"go/ast"
	"go/token"
	"runtime/debug"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/admitlint/admitlint/internal/directive"
)

// Wrap returns a, changed in place so that its Run applies the package's
// directives and recovers from panics. It adds directive.Analyzer to a's
// requirements. Call it once, when the analyzer is constructed.
func Wrap(a *analysis.Analyzer) *analysis.Analyzer {
	run := a.Run
	a.Requires = append(a.Requires, directive.Analyzer)
	a.Run = func(pass *analysis.Pass) (result any, err error) {
		defer func() {
			if r := recover(); r != nil {
				err = fmt.Errorf("internal error: %s panicked on package %s: %v\n%s",
					pass.Analyzer.Name, pass.Pkg.Path(), r, debug.Stack())
			}
		}()
		f := newFilter(pass)
		pass.Report = f.report
		defer func() { pass.Report = f.forward }()
		result, err = run(pass)
		if err == nil {
			// A failed run may have stopped before the findings a
			// directive was written for.
			f.reportUnused()
		}
		return result, err
	}
	return a
}

// A filter sits between a pass and its driver's Report.
type filter struct {
	pass      *analysis.Pass
	forward   func(analysis.Diagnostic) // the driver's Report
	dirs      []*directive.Directive    // valid directives naming this pass
	used      []bool                    // parallel to dirs
	generated map[*token.File]bool      // files with a generated-code header
}

func newFilter(pass *analysis.Pass) *filter {
	f := &filter{pass: pass, forward: pass.Report}
	for _, d := range directive.Of(pass).All {
		if d.Valid() && d.Names(pass.Analyzer.Name) {
			f.dirs = append(f.dirs, d)
		}
	}
	f.used = make([]bool, len(f.dirs))
	for _, file := range pass.Files {
		if ast.IsGenerated(file) {
			if f.generated == nil {
				f.generated = map[*token.File]bool{}
			}
			f.generated[pass.Fset.File(file.Pos())] = true
		}
	}
	return f
}

// report forwards d unless it is in a generated file or a directive
// silences it.
func (f *filter) report(d analysis.Diagnostic) {
	if f.generated[f.pass.Fset.File(d.Pos)] {
		return
	}
	if len(f.dirs) > 0 {
		posn := f.pass.Fset.Position(d.Pos)
		silenced := false
		for i, dir := range f.dirs {
			if dir.Covers(posn.Filename, posn.Line) {
				f.used[i], silenced = true, true
			}
		}
		if silenced {
			return
		}
	}
	f.forward(d)
}

// reportUnused reports each directive naming this pass that silenced none
// of its findings, with a fix that removes the pass from the directive (or
// the directive, if it names only this pass).
func (f *filter) reportUnused() {
	name := f.pass.Analyzer.Name
	for i, d := range f.dirs {
		if f.used[i] {
			continue
		}
		f.forward(analysis.Diagnostic{
			Pos:      d.Pos,
			End:      d.End,
			Category: "unused-ignore",
			Message: fmt.Sprintf("//admitlint:ignore names %s but there is no %s finding on this line or the next; remove %s from the directive",
				name, name, name),
			SuggestedFixes: f.removal(d),
		})
	}
}

// removal returns the fix that takes this pass out of directive d.
func (f *filter) removal(d *directive.Directive) []analysis.SuggestedFix {
	name := f.pass.Analyzer.Name
	if len(d.Passes) > 1 {
		var rest []string
		for _, p := range d.Passes {
			if p != name {
				rest = append(rest, p)
			}
		}
		text := directive.Prefix + directive.Verb + " " + strings.Join(rest, ",") + " " + d.Reason
		return []analysis.SuggestedFix{{
			Message:   fmt.Sprintf("Remove %s from the directive", name),
			TextEdits: []analysis.TextEdit{{Pos: d.Pos, End: d.End, NewText: []byte(text)}},
		}}
	}
	pos, end := f.wholeLine(d)
	return []analysis.SuggestedFix{{
		Message:   "Remove the directive",
		TextEdits: []analysis.TextEdit{{Pos: pos, End: end}},
	}}
}

// wholeLine widens the range of a directive that stands alone on its line
// to the whole line, so removing it leaves no blank line; a trailing
// directive loses the spaces before it instead.
func (f *filter) wholeLine(d *directive.Directive) (token.Pos, token.Pos) {
	tf := f.pass.Fset.File(d.Pos)
	if tf == nil || f.pass.ReadFile == nil {
		return d.Pos, d.End
	}
	src, err := f.pass.ReadFile(tf.Name())
	if err != nil || tf.Size() != len(src) {
		return d.Pos, d.End
	}
	lineStart := tf.Offset(tf.LineStart(d.Line))
	start, end := tf.Offset(d.Pos), tf.Offset(d.End)
	before := strings.TrimRight(string(src[lineStart:start]), " \t")
	if before != "" { // code precedes the directive
		return tf.Pos(lineStart + len(before)), d.End
	}
	if end < len(src) && src[end] == '\n' {
		end++
	}
	return tf.Pos(lineStart), tf.Pos(end)
}
