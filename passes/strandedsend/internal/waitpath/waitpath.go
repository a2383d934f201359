// Package waitpath finds how a function that waits for values on a
// channel can stop waiting while the senders it set going still have
// values to deliver: a select that takes another case (ctx.Done(), a
// timer, a default), a return before the receive, a loop of receives that
// returns on the first error.
//
// The search walks the function's control-flow graph from the channel's
// make, counting along each path the senders set going (spawn sites, or
// the send of a request that carries the channel) and the values
// received, and keeps for each block the fewest values received. A path
// that reaches a return (or the make again, abandoning the channel) with
// more sends pending than the buffer holds is a leave. Three facts keep it
// honest about loops:
//
//   - a receive whose comma-ok result is false means the channel was
//     closed: every value was received, the path is done;
//   - a counted receive loop (for i := 0; i < n; i++, range over a
//     slice) that receives on every iteration and exits normally has
//     received its trip count; when that count is not a constant, the
//     path is done (it matched the senders, or the analysis cannot tell);
//   - a return from inside any other loop of receives is not a leave by
//     itself (a counter may have reached the number of senders), only a
//     return through a select case that stopped waiting is;
//   - a loop whose test compares a counter with a bound, the counter
//     starting at zero and growing by one only after a receive of the
//     channel (or of one of Last, which each sender sends on last), has
//     received its bound when it ends through that test: a constant
//     bound counts as that many values, any other one means the path is
//     done, as for a counted loop.
package waitpath

import (
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/admitlint/admitlint/passes/strandedsend/internal/chanuse"
)

// A Start is a place that sets senders going: a spawn site, or the send
// (or select case) that hands a request carrying the channel to a worker.
type Start struct {
	Instr ssa.Instruction
	Case  int   // for a select: the index of the case that starts; -1 otherwise
	Sends Count // how many values the senders it starts will send
	// Least: how many of Sends the senders make on every path (none
	// when unknown). A way out that has received fewer than Least, less
	// the room, strands a sender for certain, not by a race.
	Least int64
	// Again: each pass through the start sets one more sender going,
	// each of which sends Sends (a go statement in a loop the analysis
	// cannot count). The search counts the passes, so a loop that
	// receives each sender's value before it starts the next one has
	// at most one sender pending.
	Again bool
	// Gates holds channels of Fn the senders it starts consume before
	// they can send (they pass one to a call that reads it until it is
	// closed), or send on first (outcome <- o before failure <- err):
	// their sends are pending only once the path has closed one, or
	// received from it.
	Gates []ssa.Value
	// Rounds holds channels of Fn the senders it starts send on between
	// any two of their sends on the channel waited on (an accept loop
	// sending each connection on conns, and an error on errs when one
	// fails): they send at most one value a round (Sends is One), and
	// start another round for each value the path takes from one of
	// these. Once the receiver has left, the sender blocks there before
	// it can send again. The buffer must be smaller than RoundsRoom.
	Rounds []ssa.Value
	// Awaits holds values of Fn its senders wait on before they send,
	// each send carrying what that wait returned (c, err := l.Accept();
	// conns <- result{c, err}). Where Fn itself makes the step the wait
	// is for, a call aimed at the value (its argument comes from the
	// value's own methods: net.DialTCP(network, nil, l.Addr())), the
	// sends are pending only once the path has made that call, and not
	// on the edge where it reported failure: until then the sender is
	// inside its wait, not at its send (validation set 42, socketpair).
	Awaits []ssa.Value
}

// A Query asks how Fn can stop waiting for the values of one channel (or
// of channels whose values count together, because each sender sends on
// only one of them).
type Query struct {
	Fn     *ssa.Function
	Info   *types.Info
	Made   ssa.Instruction    // the make: waiting starts after it, and reaching it again abandons the channel
	Chans  map[ssa.Value]bool // the values of Fn that are the channel
	Starts []Start
	Room   int64 // the channel's buffer capacity

	// Never holds channels nothing sends on or closes: a select case
	// receiving from one never fires.
	Never map[ssa.Value]bool
	// Done holds channels the senders close instead of sending, and then
	// send no more: receiving from one means nothing is pending.
	Done map[ssa.Value]bool
	// Last holds channels every sender sends on exactly once, after its
	// last send on the queried channels: a loop that counts their values
	// up to a bound has, once it reaches it, nothing left pending.
	Last map[ssa.Value]bool
	// Withdrawn holds channels one of several senders closes instead of
	// sending, with no send before or after, by the start that sets that
	// sender going: receiving from one means its sends are not pending.
	Withdrawn map[ssa.Value]ssa.Instruction
	// Bounded holds the other channels the function makes whose every
	// sender it starts in view and that nobody closes, and Delivered the
	// most values they send in all: a loop taking a fixed number of
	// values from a select over the channel and these takes at most
	// Delivered of them from these (two copying goroutines, each
	// reporting on a done channel of its own).
	Bounded   map[ssa.Value]bool
	Delivered int
	// Ends reports whether a call ends the interest in a path: after a
	// test has failed (t.Error), nobody fixes what it leaks.
	Ends func(ssa.CallInstruction) bool
	// Stops reports whether a call ends the path with nothing stranded:
	// the process exits (os.Exit, log.Fatal), or the server whose error
	// the senders would report only if it were not the shutdown's is
	// shut down.
	Stops func(ssa.CallInstruction) bool
	// Exits reports whether a return of Fn ends the process: its callers
	// exit on the error it returns (log.Fatal in main).
	Exits func(*ssa.Return) bool
	// Stalls reports whether a call waits for the senders to finish
	// (their WaitGroup's or errgroup's Wait), which they do only after
	// their sends: with more pending than the buffer holds, the
	// function and its senders wait for each other forever.
	Stalls func(ssa.CallInstruction) bool
	// Shared holds values of Fn that the senders wrote (loads of
	// variables their goroutines assign): a path that branches on one
	// goes where the senders' progress leads, which the analysis cannot
	// follow, so it is not reported.
	Shared map[ssa.Value]bool
	// EndMarked reports whether the senders mark their last value: right
	// after a send they test what they sent and, on one branch, send no
	// more. A path that leaves its loop of receives on a test of a
	// received value may be reading that mark, so it is not reported.
	EndMarked bool
	// LastNil is a field of the values the one sender sends that is nil
	// in its last value only: a received value whose field is nil was
	// the last, and a path that goes on from that test has nothing left
	// to take (an error sent with no return after it, then the result
	// with none). Nil if there is no such field.
	LastNil *types.Var
	// Kept reports whether Fn keeps every channel Made gives in a
	// container of its own (chanuse.Uses.Kept): reaching Made again
	// adds a channel to those waited on and replaces none.
	Kept bool
}

// A Leave is a way for Fn to stop waiting with sends still pending.
type Leave struct {
	At      ssa.Instruction // the return, the make reached again, or the stalling wait
	Case    *chanuse.Case   // the select case taken to stop waiting, if any; Index -1 for default
	Recvd   int             // values received on the way
	Pending Count           // sends the starts on the way set going
	Stall   bool            // At is a call that waits for the senders (Query.Stalls)
	// Out holds the instructions of the starts whose senders the path
	// leaves with sends pending (not those it knows are done).
	Out []ssa.Instruction
	// certain: the senders still have Least values to send that no room
	// holds, or never stop, and no path to the way out receives: the
	// receiver strands them on every run that leaves this way, not only
	// when it wins a race.
	certain bool
	// OneOut: every way out the search found leaves at most one value
	// pending, however many times it passed the starts (a loop that takes
	// each sender's value before it starts the next); when it is false, a
	// way out may leave more than Pending.
	OneOut bool
	// waited: Case is a case after which the loop waits again (passed
	// on the way, not left through).
	waited bool
}

// Pos returns the position that best shows where the receiver leaves:
// the select case it took, or the return.
func (l *Leave) Pos() token.Pos {
	if l.Case != nil {
		if l.Case.Index >= 0 {
			return l.Case.Select.States[l.Case.Index].Pos
		}
		return l.Case.Select.Pos()
	}
	if pos := l.At.Pos(); pos.IsValid() {
		return pos
	}
	return endOf(l.At.Parent()) // an implicit return
}

// endOf returns the position of the closing brace of fn's body.
func endOf(fn *ssa.Function) token.Pos {
	switch syn := fn.Syntax().(type) {
	case *ast.FuncDecl:
		if syn.Body != nil {
			return syn.Body.Rbrace
		}
	case *ast.FuncLit:
		return syn.Body.Rbrace
	}
	return fn.Pos()
}

// maxStarts bounds the sets of starts a path may have passed; maxStates
// bounds the whole search. Beyond either, Find stays silent.
const (
	maxStarts = 6
	maxStates = 50000
)

// Find returns the leave through which Fn can stop waiting with the
// most evidently stranded sends, or nil if every way out of Fn receives
// enough values. Leaves through a select case come first, then by
// position.
func Find(q *Query) *Leave {
	if len(q.Starts) == 0 || len(q.Starts) > maxStarts || q.Made.Block() == nil {
		return nil
	}
	s := newSearch(q)
	if s == nil || s.failures {
		return nil
	}
	return s.run()
}
