package strandedsend

import (
	"go/token"

	"golang.org/x/tools/go/ssa"

	"github.com/admitlint/admitlint/internal/match"
	"github.com/admitlint/admitlint/internal/ssacfg"
	"github.com/admitlint/admitlint/passes/strandedsend/internal/waitpath"
)

// A read from the reading end of an io.Pipe fails only as the pipe is
// closed: with io.EOF when the writer is closed with Close, with the
// error given to CloseWithError, or with io.ErrClosedPipe once the
// reader itself is closed. When the function making the pipe never
// calls CloseWithError on the writer nor closes the reader, and lets
// the writer go nowhere that could (only to its Write and Close, or as
// an io.Writer: the Stdout of an exec.Cmd, an argument of io.Copy), a
// read from it, directly or through a bufio.Reader reading whole
// strings, bytes or runes, returns no error but io.EOF. A send made
// only when such a read's error is neither nil nor io.EOF is never made
// (validation set 30, helmfile: a reader goroutine forwarding lines,
// which breaks on io.EOF and sends any other error).

// onOtherReadError reports whether instr runs only on a path on which
// the error of a read that can fail only with io.EOF (see above) is
// neither nil nor io.EOF: never.
func onOtherReadError(instr ssa.Instruction) bool {
	fn, b := instr.Parent(), instr.Block()
	if fn == nil || b == nil {
		return false
	}
	notNil := map[ssa.Value]bool{} // EOF-only errors known not nil on every way to b
	notEOF := map[ssa.Value]bool{} // and known not io.EOF
	for _, blk := range fn.Blocks {
		if len(blk.Instrs) == 0 || !blk.Dominates(b) {
			continue
		}
		cond, ok := blk.Instrs[len(blk.Instrs)-1].(*ssa.If)
		if !ok {
			continue
		}
		for i, succ := range blk.Succs {
			if len(succ.Preds) != 1 || !succ.Dominates(b) {
				continue // the edge i is not on every way to b
			}
			err, eof, eq := errorTest(cond.Cond)
			if err == nil || !eofOnly(err) {
				continue
			}
			equal := (i == 0) == eq // err is nil (or io.EOF) on this edge
			switch {
			case !equal && eof:
				notEOF[err] = true
			case !equal:
				notNil[err] = true
			}
		}
	}
	for err := range notNil {
		if notEOF[err] {
			return true
		}
	}
	return false
}

// errorTest returns the error cond compares with nil or with io.EOF
// (eof), and whether by == (eq).
func errorTest(cond ssa.Value) (err ssa.Value, eof, eq bool) {
	bin, ok := cond.(*ssa.BinOp)
	if !ok || bin.Op != token.EQL && bin.Op != token.NEQ {
		return nil, false, false
	}
	x, y := bin.X, bin.Y
	if waitpath.IsNilConst(x) || isEOFVar(x) {
		x, y = y, x
	}
	switch {
	case waitpath.IsNilConst(y):
		return x, false, bin.Op == token.EQL
	case isEOFVar(y):
		return x, true, bin.Op == token.EQL
	}
	return nil, false, false
}

// isEOFVar reports whether v is a load of io.EOF.
func isEOFVar(v ssa.Value) bool {
	load, ok := v.(*ssa.UnOp)
	if !ok || load.Op != token.MUL {
		return false
	}
	g, ok := load.X.(*ssa.Global)
	return ok && g.Pkg != nil && g.Pkg.Pkg.Path() == "io" && g.Name() == "EOF"
}

// eofOnly reports whether err is the error of a read that can fail
// only with io.EOF: Read of an *io.PipeReader, or ReadString, ReadBytes,
// ReadRune or ReadByte of a *bufio.Reader reading one, whose pipe is
// only ever closed by its writer's Close.
func eofOnly(err ssa.Value) bool {
	x, ok := err.(*ssa.Extract)
	if !ok {
		return false
	}
	call, ok := x.Tuple.(*ssa.Call)
	if !ok || call.Call.IsInvoke() || len(call.Call.Args) == 0 || x.Index != call.Call.Signature().Results().Len()-1 {
		return false
	}
	fn, recv := match.Callee(call), call.Call.Args[0]
	switch {
	case match.IsMethod(fn, "io", "PipeReader", "Read"):
	case match.IsMethod(fn, "bufio", "Reader", "ReadString", "ReadBytes", "ReadRune", "ReadByte"):
		mk, ok := recv.(*ssa.Call)
		if !ok || !match.IsFunc(match.Callee(mk), "bufio", "NewReader", "NewReaderSize") || len(mk.Call.Args) == 0 {
			return false
		}
		recv = mk.Call.Args[0]
		if mi, ok := recv.(*ssa.MakeInterface); ok {
			recv = mi.X
		}
	default:
		return false
	}
	pipe := pipeOf(recv)
	return pipe != nil && closedOnlyByWriter(pipe)
}

// pipeOf returns the io.Pipe call whose reader r is: the call's first
// result itself, or a variable holding it (stored there once), in the
// function or in the one making the closure that captured it.
func pipeOf(r ssa.Value) *ssa.Call {
	for range 8 {
		switch v := r.(type) {
		case *ssa.Extract:
			call, ok := v.Tuple.(*ssa.Call)
			if ok && v.Index == 0 && match.IsFunc(match.Callee(call), "io", "Pipe") {
				return call
			}
			return nil
		case *ssa.FreeVar:
			r = ssacfg.Binding(v)
		case *ssa.UnOp:
			if v.Op != token.MUL {
				return nil
			}
			r = v.X
		case *ssa.Alloc:
			stored := ssacfg.Stores(v)
			if len(stored) != 1 {
				return nil
			}
			r = stored[0]
		default:
			return nil
		}
	}
	return nil
}

// closedOnlyByWriter reports whether the pipe's reader is never closed
// and its writer goes nowhere that could close it with an error: its
// uses are Write, Close, and conversions to io.Writer.
func closedOnlyByWriter(pipe *ssa.Call) bool {
	for _, ref := range *pipe.Referrers() {
		x, ok := ref.(*ssa.Extract)
		if !ok {
			continue
		}
		if !onlyUsed(x, x.Index == 1, 0) {
			return false
		}
	}
	return true
}

// onlyUsed reports whether end, one end of a pipe (or a variable
// holding it), is used only to read (the reader: Read, or handed to
// bufio.NewReader) or only to write (the writer: Write, Close, or
// converted to io.Writer), wherever a closure capturing it takes it.
func onlyUsed(end ssa.Value, writer bool, depth int) bool {
	if depth > 4 {
		return false
	}
	for _, ref := range *end.Referrers() {
		switch ref := ref.(type) {
		case *ssa.DebugRef:
		case *ssa.Store:
			if ref.Addr == end {
				continue // end is the variable: a value stored into it
			}
			alloc, ok := ref.Addr.(*ssa.Alloc)
			if !ok || !onlyUsed(alloc, writer, depth+1) {
				return false // stored anywhere but a variable of its own
			}
		case *ssa.UnOp:
			if ref.Op != token.MUL || !onlyUsed(ref, writer, depth+1) {
				return false
			}
		case *ssa.Call:
			fn := match.Callee(ref)
			switch {
			case writer && match.IsMethod(fn, "io", "PipeWriter", "Write", "Close"):
			case !writer && match.IsMethod(fn, "io", "PipeReader", "Read"):
			default:
				return false
			}
		case *ssa.MakeInterface:
			if writer && !match.IsNamed(ref.Type(), "io", "Writer") {
				return false
			}
			if !writer && !onlyToBufio(ref) {
				return false
			}
		case *ssa.MakeClosure:
			for i, b := range ref.Bindings {
				if b == end && !onlyUsed(ref.Fn.(*ssa.Function).FreeVars[i], writer, depth+1) {
					return false
				}
			}
		default:
			return false
		}
	}
	return true
}

// onlyToBufio reports whether mi, the reader as an io.Reader, is only
// handed to bufio.NewReader or NewReaderSize.
func onlyToBufio(mi *ssa.MakeInterface) bool {
	for _, ref := range *mi.Referrers() {
		call, ok := ref.(*ssa.Call)
		if !ok || !match.IsFunc(match.Callee(call), "bufio", "NewReader", "NewReaderSize") || call.Call.Args[0] != mi {
			return false
		}
	}
	return true
}
