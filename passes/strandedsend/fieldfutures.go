package strandedsend

import (
	"fmt"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/admitlint/admitlint/internal/spawn"
	"github.com/admitlint/admitlint/internal/ssacfg"
	"github.com/admitlint/admitlint/passes/strandedsend/internal/chanuse"
	"github.com/admitlint/admitlint/passes/strandedsend/internal/waitpath"
)

// checkFieldFuture reports the one send feeding a future kept in a
// field: the function making the field's channel (unbuffered wherever it
// is made) starts the goroutine that sends on it once, and methods hand
// it out (return c.next). A caller of such a method that can stop
// waiting for the value (a select that takes ctx.Done(), a return before
// the receive) strands the goroutine. Only callers in view count, through
// static calls or calls of an interface method the field's type
// implements; with none that can stop waiting, nothing is reported.
// (Only with -strandedsend.fields.)
func (c *checker) checkFieldFuture(fc *fieldChan) {
	if len(fc.sends) == 0 || !oneSendPerMaker(fc) {
		return
	}
	send := fc.sends[0]
	for _, g := range fc.getters {
		for _, call := range c.callsOf(g) {
			if c.inTestCode(call.Parent(), call.Pos()) && !c.cfg.Tests {
				continue
			}
			if leave := c.stopsWaiting(call); leave != nil {
				c.reportFieldFuture(fc, send, g, leave)
				return
			}
		}
	}
}

// oneSendPerMaker reports whether each plain send on the field is made
// once, outside any loop, by a goroutine that one of the functions making
// the field's channel starts, and no maker starts two of them: each
// construction site's future has one sender, one value. A type built at
// two sites (a constructor and a variant of it) is one future each.
func oneSendPerMaker(fc *fieldChan) bool {
	sendsOf := map[*ssa.Function]int{}
	for _, send := range fc.sends {
		maker := startedByMaker(fc, send)
		if maker == nil || ssacfg.OnCycle(send.Parent())[send.Block().Index] {
			return false
		}
		sendsOf[maker]++
		if sendsOf[maker] > 1 {
			return false
		}
	}
	return true
}

// startedByMaker returns the function making the field's channel that
// starts the goroutine making send (handed the channel, go func(ch chan
// T) { … }(c.next), or loading the field itself), or nil.
func startedByMaker(fc *fieldChan, send *ssa.Send) *ssa.Function {
	from := fc.started[send]
	for _, mk := range fc.makes {
		maker := mk.Parent()
		if from == maker {
			return maker
		}
		for _, site := range spawn.Sites(maker) {
			if site.Fn == send.Parent() {
				return maker
			}
		}
	}
	return nil
}

// callsOf returns the package's calls of the method or function g:
// static calls, and calls of an interface method of g's name that g's
// receiver type implements.
func (c *checker) callsOf(g *ssa.Function) []*ssa.Call {
	if c.index == nil {
		c.index = indexCalls(c.funcs)
		c.index.embedded(c.pass.Pkg)
	}
	calls := c.index.calls[g]
	recv := g.Signature.Recv()
	if recv == nil {
		return calls
	}
	for _, fn := range c.funcs {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				call, ok := instr.(*ssa.Call)
				if !ok || !call.Call.IsInvoke() || call.Call.Method.Name() != g.Name() {
					continue
				}
				if iface, ok := call.Call.Value.Type().Underlying().(*types.Interface); ok && types.Implements(recv.Type(), iface) {
					calls = append(calls, call)
				}
			}
		}
	}
	return calls
}

// stopsWaiting returns how the caller of a getter can stop waiting for
// the channel it returns before receiving its one value, or nil. A
// caller that passes the channel on is out of view: silence.
func (c *checker) stopsWaiting(call *ssa.Call) *waitpath.Leave {
	fn := call.Parent()
	uses := chanuse.Trace(fn, []ssa.Value{call}, spawn.Sites(fn))
	if uses.Escape != nil || len(uses.Returns)+len(uses.Handoffs)+len(uses.FieldStore)+len(uses.Sends)+len(uses.SendCases)+len(uses.Closes)+len(uses.Calls) > 0 {
		return nil
	}
	if len(uses.Recvs)+len(uses.RecvCases) == 0 {
		return nil // the value is dropped: a caller that wants no result, not one that gives up on it
	}
	return c.leaveFromCall(call, uses, 0)
}

// reportFieldFuture reports the send of a field future whose receiver,
// a caller of getter g, can leave; the fix buffers every make of the
// field.
func (c *checker) reportFieldFuture(fc *fieldChan, send *ssa.Send, g *ssa.Function, leave *waitpath.Leave) {
	name := fc.field.Name()
	text := c.chanText(send.Pos(), name)
	if !strings.HasSuffix(text, name) {
		text += " (field " + name + ")" // handed to the goroutine under another name
	}
	where, at := waitpath.Describe(c.pass.Fset, c.pass.Files, leave)
	msg := fmt.Sprintf("send on unbuffered %s blocks forever once a caller of %s stops waiting (%s); the goroutine leaks — make %s buffered",
		text, calleeName(g, c.pass.Pkg), where, name)
	related := []analysis.RelatedInformation{
		{Pos: at, Message: "the receiver can leave here"},
		{Pos: c.makePos(fc.makes[0]), Message: name + " is made here, unbuffered"},
	}
	for _, other := range fc.sends {
		if other != send {
			related = append(related, analysis.RelatedInformation{Pos: other.Pos(), Message: "another construction's goroutine sends here"})
		}
	}
	c.reportAt(send.Pos(), send.Pos(), msg, c.fieldCapacityFix(fc), related...)
}

// fieldCapacityFix gives every make of the field a capacity of one, when
// each is a make(chan T) the syntax shows.
func (c *checker) fieldCapacityFix(fc *fieldChan) []analysis.SuggestedFix {
	var edits []analysis.TextEdit
	for _, mk := range fc.makes {
		call := c.makes[mk.Pos()]
		if call == nil || len(call.Args) != 1 {
			return nil
		}
		edits = append(edits, analysis.TextEdit{Pos: call.Rparen, End: call.Rparen, NewText: []byte(", 1")})
	}
	return []analysis.SuggestedFix{{Message: "Buffer " + fc.field.Name() + " with capacity 1", TextEdits: edits}}
}
