package replyfields

import (
	"fmt"
	"go/ast"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/inspect"
	"golang.org/x/tools/go/ast/inspector"
	"golang.org/x/tools/go/types/objectpath"

	"github.com/admitlint/admitlint/passes/strandedsend/internal/waitpath"
)

// Answers is the package fact that functions of a package answer on
// channel fields with plain sends: a worker's req.reply <- r. A package
// importing it that gives such a field an unbuffered channel and can
// stop waiting strands the worker (the worker's package is then a
// dependency of the requester's, and the send is out of the requester's
// view: this fact is what it sees of it).
type Answers struct {
	Sends []Answer // in source order, the first send on each field
}

// An Answer is a plain send on a channel field.
type Answer struct {
	Field string // the field, as "importpath objectpath"
	Func  string // the function sending, such as "(*Server).serve"
	At    string // where, such as "server.go:21"
}

func (*Answers) AFact() {}

func (a *Answers) String() string {
	parts := make([]string, len(a.Sends))
	for i, s := range a.Sends {
		parts[i] = fmt.Sprintf("%s by %s at %s", s.Field, s.Func, s.At)
	}
	return "answers(" + strings.Join(parts, "; ") + ")"
}

// fieldKey names a field across packages: its package's path and its
// object path there; false for a field no path reaches (one of a type
// local to a function).
func fieldKey(field *types.Var) (string, bool) {
	if field.Pkg() == nil {
		return "", false
	}
	path, err := objectpath.For(field)
	if err != nil {
		return "", false
	}
	return field.Pkg().Path() + " " + string(path), true
}

// exportAnswers exports the package's Answers: its plain sends (not a
// select's cases) on channel fields, outside test files.
func exportAnswers(pass *analysis.Pass) {
	var fact Answers
	seen := map[string]bool{}
	ins := pass.ResultOf[inspect.Analyzer].(*inspector.Inspector)
	ins.WithStack([]ast.Node{(*ast.SendStmt)(nil)}, func(n ast.Node, push bool, stack []ast.Node) bool {
		send := n.(*ast.SendStmt)
		if !push || isCase(send, stack) || strings.HasSuffix(pass.Fset.File(send.Pos()).Name(), "_test.go") {
			return false
		}
		field := FieldOf(pass.TypesInfo, send.Chan)
		fd := enclosingDecl(stack)
		if field == nil || fd == nil {
			return false
		}
		if key, ok := fieldKey(field); ok && !seen[key] {
			seen[key] = true
			fact.Sends = append(fact.Sends, Answer{Field: key, Func: declName(pass, fd), At: waitpath.Where(pass.Fset, send.Arrow)})
		}
		return false
	})
	if len(fact.Sends) > 0 {
		pass.ExportPackageFact(&fact)
	}
}

// isCase reports whether send, at the top of stack, is a select's case.
func isCase(send *ast.SendStmt, stack []ast.Node) bool {
	cc, ok := stack[len(stack)-2].(*ast.CommClause)
	return ok && cc.Comm == send
}

// enclosingDecl returns the function declaration in stack, if any.
func enclosingDecl(stack []ast.Node) *ast.FuncDecl {
	for _, n := range stack {
		if fd, ok := n.(*ast.FuncDecl); ok {
			return fd
		}
	}
	return nil
}

// FieldOf returns the struct field e selects, if e is x.f.
func FieldOf(info *types.Info, e ast.Expr) *types.Var {
	sel, ok := ast.Unparen(e).(*ast.SelectorExpr)
	if !ok {
		return nil
	}
	s, ok := info.Selections[sel]
	if !ok || s.Kind() != types.FieldVal {
		return nil
	}
	field, _ := s.Obj().(*types.Var)
	return field
}

// declName returns the name of the function fd declares, as the package
// reads it: "serve", "(*Server).serve".
func declName(pass *analysis.Pass, fd *ast.FuncDecl) string {
	fn, ok := pass.TypesInfo.Defs[fd.Name].(*types.Func)
	if !ok {
		return fd.Name.Name
	}
	sig := fn.Signature()
	if sig.Recv() == nil {
		return fn.Name()
	}
	recv := types.TypeString(sig.Recv().Type(), types.RelativeTo(pass.Pkg))
	if strings.HasPrefix(recv, "*") {
		recv = "(" + recv + ")"
	}
	return recv + "." + fn.Name()
}

// importAnswers returns the answers, by field, of the packages pkg
// depends on, directly or not, for the fields of makers: a requester
// may hand its request to a package that hands it on to the worker's,
// which is then a dependency of the requester's at any depth. Packages
// are taken in the order of their paths, and the first answer on a
// field is the one named.
func importAnswers(pass *analysis.Pass, makers map[*types.Var][]*Maker) map[*types.Var]*Answer {
	if len(makers) == 0 {
		return nil // nothing to answer: spare the walk over every dependency's facts
	}
	facts := pass.AllPackageFacts()
	slices.SortFunc(facts, func(a, b analysis.PackageFact) int {
		return strings.Compare(a.Package.Path(), b.Package.Path())
	})
	byKey := map[string]*Answer{}
	for _, pf := range facts {
		fact, ok := pf.Fact.(*Answers)
		if !ok || pf.Package == pass.Pkg {
			continue
		}
		for _, send := range fact.Sends {
			a := send // the fact is shared: name the function on a copy
			a.Func = pf.Package.Name() + "." + a.Func
			if _, dup := byKey[a.Field]; !dup {
				byKey[a.Field] = &a
			}
		}
	}
	answered := map[*types.Var]*Answer{}
	for field := range makers {
		if key, ok := fieldKey(field); ok && byKey[key] != nil {
			answered[field] = byKey[key]
		}
	}
	return answered
}
