package lateacquire

import (
	"bytes"
	"fmt"
	"go/ast"

	"golang.org/x/tools/go/analysis"

	"github.com/admitlint/admitlint/internal/spawn"
)

// hoist returns the fix that moves the acquire of act a (whose syntax is
// node) out of the goroutine, to just before the statement that starts
// it, when that is a mechanical edit: the goroutine is a function literal
// written at the spawn, the acquire is a statement of its own at the top
// of the literal's body (after defers only), its result is not used (so
// no failure handling has to move with it), and every name it uses is
// declared outside the literal. The release stays in the goroutine.
//
//	for _, r := range repos {          for _, r := range repos {
//		go func() {                        sem <- struct{}{}
//			sem <- struct{}{}   =>         go func() {
//			defer func() { <-sem }()           defer func() { <-sem }()
func (c *checker) hoist(site spawn.Site, a act, node, spawnNode ast.Node, sem, start string) []analysis.SuggestedFix {
	if a.try || a.sel || a.fr.via != site.Instr || spawnNode == nil {
		return nil
	}
	lit := spawnedLiteral(site, spawnNode)
	if lit == nil || site.Fn.Syntax() != lit {
		return nil
	}
	stmt := topStatement(lit, node)
	if stmt == nil || !c.usesOnlyOuterNames(stmt, lit) {
		return nil
	}
	spawnStmt := c.statementOf(spawnNode)
	if spawnStmt == nil {
		return nil
	}
	tf := c.pass.Fset.File(stmt.Pos())
	src, err := c.pass.ReadFile(tf.Name())
	if err != nil || tf.Size() != len(src) {
		return nil
	}
	from, to, ok := wholeLine(src, tf.Offset(stmt.Pos()), tf.Offset(stmt.End()))
	if !ok {
		return nil
	}
	moved := bytes.TrimSpace(src[from:to])
	at := lineStart(src, tf.Offset(spawnStmt.Pos()))
	indent := src[at:tf.Offset(spawnStmt.Pos())]
	text := append(append(append([]byte{}, indent...), moved...), '\n')
	verb := "Acquire " + sem
	if a.wrapper {
		verb = "Call " + sem
	}
	return []analysis.SuggestedFix{{
		Message: fmt.Sprintf("%s before %s", verb, start),
		TextEdits: []analysis.TextEdit{
			{Pos: tf.Pos(at), End: tf.Pos(at), NewText: text},
			{Pos: tf.Pos(from), End: tf.Pos(to)},
		},
	}}
}

// spawnedLiteral returns the function literal the spawn runs, if it is
// written at the spawn: go func() { … }(), g.Go(func() error { … }).
func spawnedLiteral(site spawn.Site, spawnNode ast.Node) *ast.FuncLit {
	var fun ast.Expr
	switch n := spawnNode.(type) {
	case *ast.GoStmt:
		fun = n.Call.Fun
	case *ast.CallExpr:
		if len(n.Args) == 1 {
			fun = n.Args[0]
		}
	}
	lit, _ := ast.Unparen(fun).(*ast.FuncLit)
	return lit
}

// topStatement returns the statement of lit's body that is the acquire
// node, when it stands alone (sem <- x, sem.Acquire(ctx, 1) with its
// result unused) and only defers come before it.
func topStatement(lit *ast.FuncLit, node ast.Node) ast.Stmt {
	for _, stmt := range lit.Body.List {
		switch s := stmt.(type) {
		case *ast.DeferStmt:
			continue
		case *ast.SendStmt:
			if s == node {
				return s
			}
		case *ast.ExprStmt:
			if s.X == node {
				return s
			}
		}
		return nil
	}
	return nil
}

// usesOnlyOuterNames reports whether every name stmt uses is declared
// outside lit, so the statement means the same before the spawn.
func (c *checker) usesOnlyOuterNames(stmt ast.Stmt, lit *ast.FuncLit) bool {
	ok := true
	ast.Inspect(stmt, func(n ast.Node) bool {
		if id, isID := n.(*ast.Ident); isID {
			if obj := c.pass.TypesInfo.Uses[id]; obj != nil && within(obj.Pos(), lit) {
				ok = false
			}
		}
		return ok
	})
	return ok
}

// statementOf returns the statement that starts the goroutine: the go
// statement, or the expression statement of a Go call.
func (c *checker) statementOf(spawnNode ast.Node) ast.Stmt {
	if g, ok := spawnNode.(*ast.GoStmt); ok {
		return g
	}
	path := c.pathAt(spawnNode.Pos())
	for i, n := range path {
		if n == spawnNode && i+1 < len(path) {
			if s, ok := path[i+1].(*ast.ExprStmt); ok {
				return s
			}
		}
	}
	return nil
}

// wholeLine widens src[from:to], a statement, to its whole line (with a
// trailing comment and the newline), if nothing else is on that line.
func wholeLine(src []byte, from, to int) (int, int, bool) {
	start := lineStart(src, from)
	if len(bytes.TrimSpace(src[start:from])) > 0 {
		return 0, 0, false
	}
	end := bytes.IndexByte(src[to:], '\n')
	if end < 0 {
		return 0, 0, false
	}
	rest := bytes.TrimSpace(src[to : to+end])
	if len(rest) > 0 && !bytes.HasPrefix(rest, []byte("//")) {
		return 0, 0, false
	}
	return start, to + end + 1, true
}

// lineStart returns the offset of the start of the line holding offset.
func lineStart(src []byte, offset int) int {
	return bytes.LastIndexByte(src[:offset], '\n') + 1
}
