package analyzer_test

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/format"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"

	"github.com/admitlint/admitlint/analyzer"
)

// This file holds the robustness tests: the suite must not fail
// internally (panic, or an "internal error" analysis error) on anything
// that type-checks, whatever the order of its statements, and must be safe
// to run on many packages at once.
//
// The packages are the analysistest inputs under testdata/src, loaded
// in memory (no go command per run) so that fuzzing is fast.

// A loader type-checks testdata packages from source, resolving other
// testdata packages from source and the standard library from export data.
type loader struct {
	fset *token.FileSet
	std  types.Importer
	src  string // testdata/src
	pkgs map[string]*packages.Package
}

// stdImporter is shared: export data is the same for every loader, and
// reading it once keeps the fuzz loop fast.
var (
	stdOnce sync.Once
	stdFset *token.FileSet
	stdImp  types.Importer
)

func newLoader(t testing.TB) *loader {
	stdOnce.Do(func() {
		stdFset = token.NewFileSet()
		stdImp = importer.ForCompiler(stdFset, "gc", nil)
	})
	return &loader{fset: stdFset, std: stdImp, src: filepath.Join(testdata(t), "src"), pkgs: map[string]*packages.Package{}}
}

// sources returns the non-test .go files of the testdata package at path.
func (l *loader) sources(path string) map[string][]byte {
	entries, err := os.ReadDir(filepath.Join(l.src, path))
	if err != nil {
		return nil
	}
	files := map[string][]byte{}
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() || !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			continue
		}
		data, err := os.ReadFile(filepath.Join(l.src, path, name))
		if err == nil {
			files[filepath.Join(l.src, path, name)] = data
		}
	}
	return files
}

func (l *loader) Import(path string) (*types.Package, error) {
	if pkg, err := l.load(path, nil); err != nil {
		return nil, err
	} else if pkg != nil {
		return pkg.Types, nil
	}
	return l.std.Import(path)
}

// load type-checks the testdata package at path, with override replacing
// some of its files' contents. It returns nil, nil if path is not a
// testdata package, and an error if the package does not type-check.
func (l *loader) load(path string, override map[string][]byte) (*packages.Package, error) {
	if pkg, ok := l.pkgs[path]; ok && override == nil {
		return pkg, nil
	}
	files := l.sources(path)
	if len(files) == 0 {
		return nil, nil
	}
	pkg := &packages.Package{ID: path, PkgPath: path, Fset: l.fset, Imports: map[string]*packages.Package{}}
	names := slices.Sorted(maps.Keys(files))
	for _, name := range names {
		src := files[name]
		if o, ok := override[name]; ok {
			src = o
		}
		f, err := parser.ParseFile(l.fset, name, src, parser.ParseComments)
		if err != nil {
			return nil, err
		}
		pkg.Syntax = append(pkg.Syntax, f)
		pkg.GoFiles = append(pkg.GoFiles, name)
	}
	pkg.Name = pkg.Syntax[0].Name.Name
	pkg.TypesInfo = &types.Info{
		Types: map[ast.Expr]types.TypeAndValue{}, Defs: map[*ast.Ident]types.Object{}, Uses: map[*ast.Ident]types.Object{},
		Implicits: map[ast.Node]types.Object{}, Instances: map[*ast.Ident]types.Instance{}, Scopes: map[ast.Node]*types.Scope{},
		Selections: map[*ast.SelectorExpr]*types.Selection{}, FileVersions: map[*ast.File]string{},
	}
	pkg.TypesSizes = types.SizesFor("gc", "amd64")
	conf := types.Config{Importer: l, Sizes: pkg.TypesSizes}
	types_, err := conf.Check(path, l.fset, pkg.Syntax, pkg.TypesInfo)
	if err != nil {
		return nil, err
	}
	pkg.Types = types_
	for _, imp := range types_.Imports() {
		if dep := l.pkgs[imp.Path()]; dep != nil {
			pkg.Imports[imp.Path()] = dep
		}
	}
	if override == nil {
		l.pkgs[path] = pkg
	}
	return pkg, nil
}

// programs lists the testdata packages: every directory under
// testdata/src holding .go files, stubs of third-party APIs excluded.
func programs(t testing.TB) []string {
	root := filepath.Join(testdata(t), "src")
	var paths []string
	filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		if strings.HasPrefix(rel, "golang.org") {
			return filepath.SkipDir
		}
		if matches, _ := filepath.Glob(filepath.Join(path, "*.go")); len(matches) > 0 {
			paths = append(paths, filepath.ToSlash(rel))
		}
		return nil
	})
	return paths
}

// analyze runs the whole suite on pkgs and fails on any internal error.
func analyze(t testing.TB, pkgs []*packages.Package, describe func(*packages.Package) string) {
	graph, err := checker.Analyze(analyzer.All, pkgs, nil)
	if err != nil {
		t.Fatal(err)
	}
	for act := range graph.All() {
		if act.Err != nil && strings.Contains(act.Err.Error(), "internal error") {
			t.Fatalf("%s on %s: %v\n%s", act.Analyzer.Name, act.Package.PkgPath, act.Err, describe(act.Package))
		}
	}
}

// TestParallel runs the suite on every testdata package at once, so the
// checker analyses many packages concurrently; run under -race it shows the
// passes share no unsynchronised state.
func TestParallel(t *testing.T) {
	l := newLoader(t)
	var pkgs []*packages.Package
	for _, path := range programs(t) {
		pkg, err := l.load(path, nil)
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		pkgs = append(pkgs, pkg)
	}
	if len(pkgs) < 3 {
		t.Fatalf("only %d testdata packages found", len(pkgs))
	}
	analyze(t, pkgs, func(*packages.Package) string { return "" })
}

// mutate applies ops to src: each triple (op, i, j) deletes statement i,
// duplicates it, or swaps statements i and j of the same block, counting
// the statements of all blocks in source order. It returns the formatted
// result, or nil if nothing changed.
func mutate(fset *token.FileSet, name string, src, ops []byte) []byte {
	f, err := parser.ParseFile(fset, name, src, parser.ParseComments)
	if err != nil {
		return nil
	}
	var lists []*[]ast.Stmt
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.BlockStmt:
			lists = append(lists, &n.List)
		case *ast.CaseClause:
			lists = append(lists, &n.Body)
		case *ast.CommClause:
			lists = append(lists, &n.Body)
		}
		return true
	})
	changed := false
	for k := 0; k+2 < len(ops) && len(lists) > 0; k += 3 {
		list := lists[int(ops[k+1])%len(lists)]
		if len(*list) == 0 {
			continue
		}
		i, j := int(ops[k+1])%len(*list), int(ops[k+2])%len(*list)
		switch ops[k] % 3 {
		case 0:
			*list = slices.Delete(*list, i, i+1)
		case 1:
			*list = slices.Insert(*list, i, (*list)[i])
		case 2:
			(*list)[i], (*list)[j] = (*list)[j], (*list)[i]
		}
		changed = true
	}
	if !changed {
		return nil
	}
	var buf bytes.Buffer
	if err := format.Node(&buf, fset, f); err != nil {
		return nil
	}
	return buf.Bytes()
}

// FuzzSuite mutates a testdata program and, when the result type-checks,
// runs the whole suite on it: no pass may fail internally. Its seed corpus
// (every testdata package, unmutated and with a few fixed mutations) runs
// in the normal test suite.
func FuzzSuite(f *testing.F) {
	progs := programs(f)
	for i := range progs {
		f.Add(uint16(i), uint8(0), []byte{})
		f.Add(uint16(i), uint8(0), []byte{2, 0, 1, 2, 3, 1, 1, 5, 0})
		f.Add(uint16(i), uint8(1), []byte{0, 7, 0, 1, 2, 2})
	}
	l := newLoader(f)
	for _, path := range progs {
		if _, err := l.load(path, nil); err != nil {
			f.Fatalf("%s: %v", path, err)
		}
	}
	f.Fuzz(func(t *testing.T, prog uint16, file uint8, ops []byte) {
		path := progs[int(prog)%len(progs)]
		files := l.sources(path)
		names := slices.Sorted(maps.Keys(files))
		name := names[int(file)%len(names)]
		override := map[string][]byte{}
		if len(ops) > 0 {
			mutated := mutate(token.NewFileSet(), name, files[name], ops)
			if mutated == nil {
				return
			}
			override[name] = mutated
		}
		pkg, err := l.load(path, override)
		if err != nil {
			return // only programs that type-check are in scope
		}
		analyze(t, []*packages.Package{pkg}, func(*packages.Package) string {
			return fmt.Sprintf("mutated %s:\n%s", name, override[name])
		})
	})
}
