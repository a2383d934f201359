// Package docs turns a pass's doc.go into the texts users read: the
// analyzer's Doc (shown by admitlint help, go vet help and golangci-lint)
// and the Markdown of its README section. doc.go is the single source.
//
// A pass's package comment holds a section headed "# Analyzer <name>";
// everything after the heading up to the next heading is the pass's
// documentation, and its first line is the one-line summary
// ("<name>: report …").
package docs

import (
	"fmt"
	"go/doc/comment"
	"go/parser"
	"go/token"
	"strings"
)

// Extract returns the text of the "# Analyzer name" section of the package
// comment in src, the contents of a doc.go file.
func Extract(src, name string) (string, error) {
	f, err := parser.ParseFile(token.NewFileSet(), "doc.go", src, parser.ParseComments|parser.PackageClauseOnly)
	if err != nil {
		return "", err
	}
	if f.Doc == nil {
		return "", fmt.Errorf("doc.go has no package comment")
	}
	heading := "# Analyzer " + name
	text := f.Doc.Text()
	_, section, found := strings.Cut(text, "\n"+heading+"\n")
	if !found {
		return "", fmt.Errorf("package comment has no %q heading", heading)
	}
	if next := strings.Index(section, "\n# "); next >= 0 {
		section = section[:next]
	}
	section = strings.TrimSpace(section)
	if !strings.HasPrefix(section, name+": ") {
		return "", fmt.Errorf("section %q must begin %q", heading, name+": ")
	}
	return section, nil
}

// MustExtract is Extract for package initialisation: a pass with a broken
// doc.go must not build a usable binary.
func MustExtract(src, name string) string {
	doc, err := Extract(src, name)
	if err != nil {
		panic(fmt.Sprintf("internal error: doc.go of %s: %v", name, err))
	}
	return doc
}

// Markdown renders an analyzer's Doc as Markdown for the README, with its
// headings demoted to sit under a level-3 heading per pass.
func Markdown(doc string) string {
	var p comment.Parser
	parsed := p.Parse(doc)
	pr := comment.Printer{HeadingLevel: 4}
	return string(pr.Markdown(parsed))
}
