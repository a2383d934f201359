package retainslice

import (
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/inspect"
	"golang.org/x/tools/go/ast/inspector"
	"golang.org/x/tools/go/ssa"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/admitlint/admitlint/internal/docs"
	"github.com/admitlint/admitlint/internal/harness"
	"github.com/admitlint/admitlint/internal/lazyssa"
	"github.com/admitlint/admitlint/internal/settings"
	"github.com/admitlint/admitlint/internal/ssacfg"
	"github.com/admitlint/admitlint/passes/retainslice/internal/borrow"
)

// Config holds retainslice's settings.
type Config struct {
	MinBytes int64 `json:"min-bytes" help:"smallest buffer, in bytes, that counts as large when its size is a constant (make, arrays)"`
	Files    bool  `json:"files" help:"also count files read whole by path (os.ReadFile, fs.ReadFile) as large: their size is the file's, which the pass cannot know (widens the default run; see the README for its cost)"`
	Streams  bool  `json:"streams" help:"also count buffers sized by their input as large: a stream read to its end (io.ReadAll of a body, a connection, a reader), a bytes.Buffer filled from one, a buffer read with io.ReadFull and sized from the input (widens the default run; see the README for its cost)"`
}

// Defaults returns retainslice's default settings.
func Defaults() Config {
	return Config{MinBytes: 64 << 10}
}

// Analyzer is retainslice with its default settings.
var Analyzer = New(Defaults())

// New returns a retainslice analyzer with the given settings.
func New(cfg Config) *analysis.Analyzer {
	a := &analysis.Analyzer{
		Name:     "retainslice",
		Doc:      docs.MustExtract(doc, "retainslice"),
		URL:      "https://pkg.go.dev/github.com/admitlint/admitlint/passes/retainslice",
		Requires: []*analysis.Analyzer{inspect.Analyzer, lazyssa.Analyzer, borrow.Analyzer, newFactsAnalyzer(&cfg)},
	}
	settings.Bind(&a.Flags, &cfg)
	a.Run = func(pass *analysis.Pass) (any, error) { return run(pass, &cfg) }
	return harness.Wrap(a)
}

func run(pass *analysis.Pass, cfg *Config) (any, error) {
	// Most packages neither read whole streams nor allocate large
	// buffers, nor call a function that returns one: they never get SSA.
	fresh := factsOf(pass)
	if !fresh.sources {
		return nil, nil
	}
	res, err := lazyssa.Of(pass).SSA()
	if err != nil {
		return nil, err
	}
	c := newChecker(pass, cfg, borrow.Of(pass))
	c.fresh = fresh
	for _, fn := range res.SrcFuncs {
		c.checkFunc(fn)
	}
	return nil, nil
}

// checkFunc reports the pieces of fn's large buffers that outlive fn.
// Each buffer is traced separately; a string converted from a traced
// buffer is a buffer of its own, since the conversion copies.
func (c *checker) checkFunc(fn *ssa.Function) {
	roots := c.roots(fn)
	for i := 0; i < len(roots); i++ {
		c.states = borrow.Trace(fn, roots[i].v, borrow.State{Kind: borrow.Whole}, c.sums.Of)
		roots = append(roots, c.conversions(fn, roots[i], c.states)...)
		c.checkPieces(fn, roots[i])
	}
}

// checkPieces reports where the pieces of root r (traced into c.states)
// outlive fn, unless together they are the buffer: one finding per root,
// at the first place in instruction order, the others related to it.
func (c *checker) checkPieces(fn *ssa.Function, r *root) {
	var all []kept
	keeps := map[*ssa.BasicBlock]bool{}
	for _, v := range values(fn) {
		st, ok := c.states[v]
		if !ok || st.Kind != borrow.Piece || st.Depth != 0 || st.Ptr {
			continue
		}
		for _, s := range c.sinks(v) {
			all = append(all, kept{v: v, st: st, s: s})
			keeps[s.instr.Block()] = true
		}
	}
	var report []kept
	for _, k := range all {
		if !c.isRecordKept(fn, k, keeps) && !isStoredBack(k) {
			report = append(report, k)
		}
	}
	c.report(fn, r, report)
}

// hasSources reports whether the package's syntax holds a candidate
// source: a call of a whole-stream reader, a make with a large constant
// size, or a large array type.
func hasSources(pass *analysis.Pass, ins *inspector.Inspector, cfg *Config) bool {
	found := false
	ins.Preorder([]ast.Node{(*ast.CallExpr)(nil), (*ast.ArrayType)(nil)}, func(n ast.Node) {
		if found {
			return
		}
		switch n := n.(type) {
		case *ast.CallExpr:
			switch callee := typeutil.Callee(pass.TypesInfo, n).(type) {
			case *types.Func:
				found = cfg.counts(callee)
			case *types.Builtin:
				found = callee.Name() == "make" && isLargeMake(pass, n, cfg.MinBytes)
			}
		case *ast.ArrayType:
			if t, ok := pass.TypesInfo.TypeOf(n).(*types.Array); ok {
				size, ok := sizeof(pass.TypesSizes, t)
				found = ok && size >= cfg.MinBytes
			}
		}
	})
	return found
}

// counts reports whether a call of fn can make a buffer that cfg counts
// as large: a file read whole with -retainslice.files, a stream read to
// its end or a buffer read full with -retainslice.streams.
func (cfg *Config) counts(fn *types.Func) bool {
	switch {
	case isFileReader(fn):
		return cfg.Files
	case isSourceFunc(fn), isReadFull(fn):
		return cfg.Streams
	}
	return false
}

// isLargeMake reports whether call, a make of a slice, has a constant
// length or capacity of at least minBytes.
func isLargeMake(pass *analysis.Pass, call *ast.CallExpr, minBytes int64) bool {
	s, ok := pass.TypesInfo.TypeOf(call).Underlying().(*types.Slice)
	if !ok {
		return false
	}
	elem, ok := sizeof(pass.TypesSizes, s.Elem())
	if !ok {
		return false
	}
	for _, arg := range call.Args[1:] {
		if tv, ok := pass.TypesInfo.Types[arg]; ok && tv.Value != nil {
			if n, ok := constInt(tv.Value); ok && mulSat(n, elem) >= minBytes {
				return true
			}
		}
	}
	return false
}

// fileOf returns the syntax of the file holding pos, or nil.
func (c *checker) fileOf(pos token.Pos) *ast.File {
	for _, f := range c.pass.Files {
		if f.FileStart <= pos && pos <= f.FileEnd {
			return f
		}
	}
	return nil
}

// values returns the values fn computes, in instruction order, then
// those of the bodies of its range-over-func loops, at any depth, which
// run within fn: their parameters (the loop's variables) first.
func values(fn *ssa.Function) []ssa.Value {
	var vs []ssa.Value
	if ssacfg.IsYieldBody(fn) {
		for _, p := range fn.Params {
			vs = append(vs, p)
		}
	}
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			if v, ok := instr.(ssa.Value); ok {
				vs = append(vs, v)
			}
		}
	}
	for _, anon := range fn.AnonFuncs {
		if ssacfg.IsYieldBody(anon) {
			vs = append(vs, values(anon)...)
		}
	}
	return vs
}
