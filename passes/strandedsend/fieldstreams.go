package strandedsend

import (
	"fmt"
	"go/token"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/admitlint/admitlint/internal/match"
	"github.com/admitlint/admitlint/passes/strandedsend/internal/waitpath"
)

// streamStopped returns the function whose loop of receives from field
// fc stops on a failure or a cancellation (a return on a non-nil error,
// ctx.Done()) while the channel is still open, and where; nil if there is
// none. Every function receiving from the field must stop so (one that
// keeps receiving until the close takes every value), and the plain
// sends must come from other functions and be a stream: sends no buffer
// holds, because the channel is unbuffered, its capacity is set at run
// time (a pipeline sized to its workers), or a send lies on a loop.
// Whatever the buffer, once the loop has returned the next send blocks
// forever.
func (c *checker) streamStopped(fc *fieldChan) (*ssa.Function, token.Pos) {
	if fc.other || len(fc.makes) == 0 || len(fc.receivers) == 0 || !fc.stream() {
		return nil, token.NoPos
	}
	var loop *ssa.Function
	var at token.Pos
	for _, u := range fc.receivers {
		if !c.cfg.Tests && c.inTestCode(u.Fn, u.Fn.Pos()) {
			continue // a test's receives follow what it expects
		}
		stop := stopsEarly(u.Fn, u)
		if !stop.IsValid() {
			return nil, token.NoPos // this receiver takes every value until the close
		}
		if loop == nil {
			loop, at = u.Fn, stop
		}
	}
	for _, send := range fc.sends {
		if send.Parent() == loop {
			return nil, token.NoPos // the loop feeds itself: another shape
		}
	}
	return loop, at
}

// stream reports whether the plain sends on the field are more than a
// buffer of the field's holds: the channel is unbuffered, or its
// capacity is not a constant, or a send lies on a loop of its function.
func (fc *fieldChan) stream() bool {
	for _, mk := range fc.makes {
		if n, ok := match.ChanCap(mk); !ok || n == 0 {
			return true
		}
	}
	for _, send := range fc.sends {
		if onLoop(send) {
			return true
		}
	}
	return false
}

// onLoop reports whether instr lies on a loop of its function.
func onLoop(instr ssa.Instruction) bool {
	start := instr.Block()
	seen := map[*ssa.BasicBlock]bool{}
	stack := append([]*ssa.BasicBlock(nil), start.Succs...)
	for len(stack) > 0 {
		b := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if b == start {
			return true
		}
		if !seen[b] {
			seen[b] = true
			stack = append(stack, b.Succs...)
		}
	}
	return false
}

// reportStreamStopped reports the plain sends on a field whose every
// receiving loop can stop on a failure while the channel is open.
func (c *checker) reportStreamStopped(fc *fieldChan, loop *ssa.Function, stop token.Pos) {
	name := fc.field.Name()
	first := fc.sends[0]
	msg := fmt.Sprintf("send on %s blocks forever once %s has stopped receiving (return at %s); the caller of %s blocks with it — keep receiving until %s is closed, or select on a signal of the stop as well",
		c.chanText(first.Pos(), name), loopName(loop, c.pass.Pkg), waitpath.Where(c.pass.Fset, stop), outermost(first.Parent()).Name(), name)
	related := []analysis.RelatedInformation{
		{Pos: stop, Message: "the receiving loop can stop here"},
		{Pos: c.makePos(fc.makes[0]), Message: name + " is made here"},
	}
	c.reportSends(fc.sends, msg, related)
}
