// Package directive parses admitlint's suppression comments,
//
//	//admitlint:ignore lateacquire,strandedsend the pool is bounded by the caller
//
// and offers them to passes as the result of an Analyzer, so a package's
// comments are scanned once however many passes run.
//
// A directive names one or more passes and gives a reason. It silences
// those passes' findings on its own line and on the line below it, so it
// can trail the reported statement or stand on the line above it.
package directive

import (
	"go/ast"
	"go/token"
	"reflect"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// Prefix starts every admitlint directive. Like Go's own directives
// (//go:build, //go:generate), it has no space after the
// slashes.
const Prefix = "//admitlint:"

// Verb is the only directive admitlint knows.
const Verb = "ignore"

// A Directive is one //admitlint: comment.
type Directive struct {
	Pos    token.Pos // start of the comment
	End    token.Pos // end of the comment
	File   string    // file name, as the file set reports it
	Line   int       // line of the comment
	Verb   string    // text after the prefix up to the first space ("ignore")
	Passes []string  // pass names, in the order written
	Reason string    // the rest of the comment, trimmed
	Spaced bool      // written "// admitlint:" with a space, which Go tools do not treat as a directive
}

// Valid reports whether d is a well-formed ignore directive: the verb is
// ignore, it names at least one pass and it gives a reason. Only valid
// directives silence findings.
func (d *Directive) Valid() bool {
	return !d.Spaced && d.Verb == Verb && len(d.Passes) > 0 && d.Reason != ""
}

// Names reports whether d names the pass called name.
func (d *Directive) Names(name string) bool {
	for _, p := range d.Passes {
		if p == name {
			return true
		}
	}
	return false
}

// Covers reports whether d silences a finding at the given file and line:
// the directive's own line (a trailing comment) or the line below it (a
// comment on the line above).
func (d *Directive) Covers(file string, line int) bool {
	return d.File == file && (line == d.Line || line == d.Line+1)
}

// Analyzer parses every admitlint directive in the package's files. It
// reports nothing; its result is a *Set.
var Analyzer = &analysis.Analyzer{
	Name:       "admitlintdirective",
	Doc:        "parse //admitlint: directives once per package",
	URL:        "https://pkg.go.dev/github.com/admitlint/admitlint/internal/directive",
	Run:        run,
	ResultType: reflect.TypeFor[*Set](),
}

// A Set holds a package's directives in file and line order.
type Set struct {
	All []*Directive
}

func run(pass *analysis.Pass) (any, error) {
	set := new(Set)
	for _, f := range pass.Files {
		set.All = append(set.All, parseFile(pass.Fset, f)...)
	}
	return set, nil
}

// Of returns the directives of the package analysed by pass, whose
// analyzer must list Analyzer among its requirements.
func Of(pass *analysis.Pass) *Set {
	return pass.ResultOf[Analyzer].(*Set)
}

// parseFile returns the directives among f's comments.
func parseFile(fset *token.FileSet, f *ast.File) []*Directive {
	var dirs []*Directive
	for _, group := range f.Comments {
		for _, c := range group.List {
			if d := parse(c.Text); d != nil {
				posn := fset.Position(c.Slash)
				d.Pos, d.End, d.File, d.Line = c.Slash, c.End(), posn.Filename, posn.Line
				dirs = append(dirs, d)
			}
		}
	}
	return dirs
}

// parse returns the directive written in the comment text, or nil if the
// comment is not an admitlint directive.
func parse(text string) *Directive {
	d := new(Directive)
	switch {
	case strings.HasPrefix(text, Prefix):
		text = text[len(Prefix):]
	case strings.HasPrefix(text, "// "+Prefix[2:]):
		text, d.Spaced = text[len("// "+Prefix[2:]):], true
	default:
		return nil
	}
	d.Verb, text, _ = strings.Cut(text, " ")
	if d.Spaced && d.Verb != Verb {
		return nil // prose that happens to begin "admitlint:", not a directive gone wrong
	}
	names, reason, _ := strings.Cut(strings.TrimLeft(text, " \t"), " ")
	for _, name := range strings.Split(names, ",") {
		if name = strings.TrimSpace(name); name != "" {
			d.Passes = append(d.Passes, name)
		}
	}
	d.Reason = strings.TrimSpace(reason)
	return d
}
