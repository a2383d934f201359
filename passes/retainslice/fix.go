package retainslice

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"go/version"
	"strconv"

	"golang.org/x/tools/go/analysis"
)

// cloneFix returns the fix that copies each piece where it leaves the
// function: the expression at each site wrapped in bytes.Clone,
// strings.Clone or slices.Clone, the imports added when missing. There is
// none when a site has no expression (a bare return), when the copy would
// change the type (a named string type), or when the file's Go version
// predates the function: a fix that copies only some of the pieces would
// not free the buffer.
func (c *checker) cloneFix(sites []site) []analysis.SuggestedFix {
	var edits []analysis.TextEdit
	imports := map[string]bool{}
	var copied []string
	for _, at := range sites {
		e, imp, ok := c.cloneEdits(at, imports)
		if !ok {
			return nil
		}
		edits = append(edits, e...)
		if imp != nil {
			edits = append(edits, *imp)
		}
		copied = append(copied, exprText(at.expr))
	}
	if len(edits) == 0 {
		return nil
	}
	_, pkg := c.clonerOf(sites[0])
	msg := "Copy " + copied[0] + " with " + pkg + ".Clone"
	if len(copied) > 1 {
		msg = fmt.Sprintf("Copy %s and %d more with Clone", copied[0], len(copied)-1)
	}
	return []analysis.SuggestedFix{{Message: msg, TextEdits: edits}}
}

// clonerOf returns the type of the expression at a site and the package
// whose Clone copies it.
func (c *checker) clonerOf(at site) (types.Type, string) {
	if at.expr == nil {
		return nil, ""
	}
	t := c.pass.TypesInfo.TypeOf(at.expr)
	if t == nil {
		return nil, ""
	}
	pkg, _ := cloner(t)
	return t, pkg
}

// cloneEdits returns the edits wrapping the expression at a site in a
// Clone, and the import to add unless imports (the packages already being
// imported by the fix, keyed by file and path) has it.
func (c *checker) cloneEdits(at site, imports map[string]bool) ([]analysis.TextEdit, *analysis.TextEdit, bool) {
	t, pkg := c.clonerOf(at)
	if pkg == "" || types.Unalias(t) != types.Typ[types.String] && isString(t) {
		return nil, nil, false // strings.Clone takes a string, not a named string type
	}
	_, minGo := cloner(t)
	file := c.fileOf(at.expr.Pos())
	if file == nil {
		return nil, nil, false
	}
	if v := c.pass.TypesInfo.FileVersions[file]; v != "" && version.Compare(v, minGo) < 0 {
		return nil, nil, false
	}
	name, imp, ok := c.importName(file, pkg, at.expr.Pos())
	if !ok {
		return nil, nil, false
	}
	key := c.pass.Fset.File(file.Pos()).Name() + " " + pkg
	if imp != nil && imports[key] {
		imp = nil
	}
	imports[key] = true
	return []analysis.TextEdit{
		{Pos: at.expr.Pos(), End: at.expr.Pos(), NewText: []byte(name + ".Clone(")},
		{Pos: at.expr.End(), End: at.expr.End(), NewText: []byte(")")},
	}, imp, true
}

// cloner returns the package whose Clone copies a value of type t, and
// the Go version that introduced it.
func cloner(t types.Type) (pkg, minGo string) {
	switch {
	case isString(t):
		return "strings", "go1.20"
	case isByteSlice(t) && isUnnamed(t):
		return "bytes", "go1.20"
	case isSlice(t):
		return "slices", "go1.21" // keeps a named slice type
	}
	return "", ""
}

// importName returns the name by which file refers to package path at
// pos, and the edit importing it when the file does not yet. It fails
// when the name is taken, or the package is imported as _ or dot.
func (c *checker) importName(file *ast.File, path string, pos token.Pos) (string, *analysis.TextEdit, bool) {
	scope := c.pass.Pkg.Scope().Innermost(pos)
	for _, spec := range file.Imports {
		if p, _ := strconv.Unquote(spec.Path.Value); p != path {
			continue
		}
		name := path
		if spec.Name != nil {
			name = spec.Name.Name
		}
		if name == "_" || name == "." {
			return "", nil, false
		}
		_, obj := scope.LookupParent(name, pos)
		pn, ok := obj.(*types.PkgName)
		return name, nil, ok && pn.Imported().Path() == path
	}
	if _, obj := scope.LookupParent(path, pos); obj != nil {
		return "", nil, false
	}
	return path, addImport(file, path), true
}

// addImport returns the edit adding import path to file: into its first
// import block, in sorted position, or as a new declaration.
func addImport(file *ast.File, path string) *analysis.TextEdit {
	quoted := strconv.Quote(path)
	for _, decl := range file.Decls {
		gen, ok := decl.(*ast.GenDecl)
		if !ok || gen.Tok != token.IMPORT {
			continue
		}
		if !gen.Lparen.IsValid() {
			return &analysis.TextEdit{Pos: gen.End(), End: gen.End(), NewText: []byte("\nimport " + quoted)}
		}
		for _, spec := range gen.Specs {
			if spec.(*ast.ImportSpec).Path.Value > quoted {
				return &analysis.TextEdit{Pos: spec.Pos(), End: spec.Pos(), NewText: []byte(quoted + "\n\t")}
			}
		}
		return &analysis.TextEdit{Pos: gen.Rparen, End: gen.Rparen, NewText: []byte("\t" + quoted + "\n")}
	}
	return &analysis.TextEdit{Pos: file.Name.End(), End: file.Name.End(), NewText: []byte("\n\nimport " + quoted)}
}

// isUnnamed reports whether t is a type literal, not a defined type.
func isUnnamed(t types.Type) bool {
	_, named := types.Unalias(t).(*types.Named)
	return !named
}

// isSlice reports whether t's underlying type is a slice.
func isSlice(t types.Type) bool {
	_, ok := t.Underlying().(*types.Slice)
	return ok
}
