package strandedsend

import (
	"go/token"
	"slices"

	"golang.org/x/tools/go/ssa"

	"github.com/admitlint/admitlint/internal/match"
	"github.com/admitlint/admitlint/internal/ssacfg"
)

// gatesOf returns the values of a channel of sc that sender s consumes
// before it can make its sends on channel i of group g: a channel the
// function sends on and closes, which the goroutine passes to a call made
// before each of those sends (Save(height, chunks), reading chunks until
// the function closes it). Until the function has closed it, the sender
// is inside that call, not at its send; a receiver that leaves earlier
// strands it there, where this pass does not look.
func gatesOf(sc *scope, s *sender, i int, g []int) []ssa.Value {
	targets := s.targetsOn(i, g)
	if len(targets) == 0 || s.site.Fn == nil {
		return nil
	}
	for _, t := range targets {
		if t.instr.Parent() != s.site.Fn {
			return nil
		}
	}
	var gates []ssa.Value
	for _, b := range s.site.Fn.Blocks {
		for _, instr := range b.Instrs {
			call, ok := instr.(*ssa.Call)
			if !ok || !beforeAll(call, targets) {
				continue
			}
			for _, arg := range call.Call.Args {
				gates = append(gates, sc.streamedAndClosed(i, outerOperand(s, arg))...)
			}
		}
	}
	return append(gates, sc.sentBefore(s, i, g, targets)...)
}

// sentBefore returns the values of the channels of sc on which sender s
// makes a plain send before each of its sends on channel i (outcome <-
// o; failure <- f): it reaches those only once the function has taken
// that value, so a receiver that leaves before taking it strands the
// sender at the first send, not at these.
func (sc *scope) sentBefore(s *sender, i int, g []int, targets []*op) []ssa.Value {
	var gates []ssa.Value
	for _, x := range s.ops {
		if x.anchor != nil || x.via != nil || len(x.chans) != 1 || x.touchesAny(g) || !x.plainFor(x.chans) {
			continue
		}
		if _, plain := x.instr.(*ssa.Send); !plain || x.instr.Parent() != s.site.Fn || !beforeAll(x.instr, targets) {
			continue
		}
		for v := range sc.chans[x.chans[0]].uses.Values {
			gates = append(gates, v)
		}
	}
	return gates
}

// awaitsOf returns the values of the spawning function that sender s
// waits on before each of its sends on channel i of group g, when every
// such send delivers what that wait returned: the goroutine calls a
// method of the value (c, err := l.AcceptTCP()) before the send, and
// the value sent is made from that call's results (ch <- accepted{c,
// err}). See waitpath.Start.Awaits for what the search makes of them.
func awaitsOf(s *sender, i int, g []int) []ssa.Value {
	targets := s.targetsOn(i, g)
	if len(targets) == 0 || s.site.Fn == nil {
		return nil
	}
	for _, t := range targets {
		if _, plain := t.instr.(*ssa.Send); !plain || t.anchor != nil || t.via != nil || t.instr.Parent() != s.site.Fn {
			return nil
		}
	}
	var awaits []ssa.Value
	for _, b := range s.site.Fn.Blocks {
		for _, instr := range b.Instrs {
			call, ok := instr.(*ssa.Call)
			if !ok || !beforeAll(call, targets) || !deliversAll(call, targets) {
				continue
			}
			if recv := match.Receiver(call.Common()); recv != nil {
				if v := outerOperand(s, recv); v != nil && !slices.Contains(awaits, v) {
					awaits = append(awaits, v)
				}
			}
		}
	}
	return awaits
}

// deliversAll reports whether each of the sends targets sends a value
// made from a result of call.
func deliversAll(call *ssa.Call, targets []*op) bool {
	for _, t := range targets {
		if !carries(t.instr.(*ssa.Send).X, call, 0) {
			return false
		}
	}
	return true
}

// carries reports whether v is a result of call, or is made from one: a
// conversion of it, or a struct or variable a result was stored into.
func carries(v ssa.Value, call *ssa.Call, depth int) bool {
	if depth > 4 {
		return false
	}
	next := func(x ssa.Value) bool { return carries(x, call, depth+1) }
	if x := match.Converted(v); x != nil {
		return next(x)
	}
	switch v := v.(type) {
	case *ssa.Call:
		return v == call
	case *ssa.Extract:
		return v.Tuple == call
	case *ssa.Phi:
		return slices.ContainsFunc(v.Edges, next)
	case *ssa.UnOp:
		if v.Op != token.MUL {
			return false
		}
		return storedInto(v.X, next)
	}
	return false
}

// storedInto reports whether some value stored into the variable addr,
// or into a field of it, satisfies f.
func storedInto(addr ssa.Value, f func(ssa.Value) bool) bool {
	if _, ok := addr.(*ssa.Alloc); !ok {
		return false
	}
	for _, ref := range *addr.Referrers() {
		switch ref := ref.(type) {
		case *ssa.Store:
			if ref.Addr == addr && f(ref.Val) {
				return true
			}
		case *ssa.FieldAddr:
			for _, fr := range *ref.Referrers() {
				if st, ok := fr.(*ssa.Store); ok && st.Addr == ref && f(st.Val) {
					return true
				}
			}
		}
	}
	return false
}

// outerOperand returns the value or variable of the spawning function
// that arg, an argument of a call in the goroutine, reads.
func outerOperand(s *sender, arg ssa.Value) ssa.Value {
	if ct, ok := arg.(*ssa.ChangeType); ok { // chan T to <-chan T
		arg = ct.X
	}
	if load, ok := arg.(*ssa.UnOp); ok && load.Op == token.MUL { // a captured variable
		arg = load.X
	}
	return outerValue(s.site, arg)
}

// streamedAndClosed returns the values of the channel of sc, other than
// channel i, that v is or holds, when the function sends on it and
// closes it.
func (sc *scope) streamedAndClosed(i int, v ssa.Value) []ssa.Value {
	if v == nil {
		return nil
	}
	for d, ch := range sc.chans {
		u := ch.uses
		if d == i || len(u.Sends) == 0 || len(u.Closes) == 0 || !holds(u.Values, v) {
			continue
		}
		var vals []ssa.Value
		for x := range u.Values {
			vals = append(vals, x)
		}
		return vals
	}
	return nil
}

// holds reports whether v is one of values, or a variable one of them
// is loaded from.
func holds(values map[ssa.Value]bool, v ssa.Value) bool {
	if values[v] {
		return true
	}
	if _, ok := v.(*ssa.Alloc); !ok {
		return false
	}
	for _, ref := range *v.Referrers() {
		if load, ok := ref.(*ssa.UnOp); ok && load.Op == token.MUL && values[load] {
			return true
		}
	}
	return false
}

// beforeAll reports whether call comes before each of the sends on every
// path: it dominates them.
func beforeAll(call ssa.Instruction, targets []*op) bool {
	for _, t := range targets {
		b := t.instr.Block()
		if call.Block() == b {
			if indexOf(b, call) > indexOf(b, t.instr) {
				return false
			}
		} else if !call.Block().Dominates(b) {
			return false
		}
	}
	return true
}

// indexOf returns the index of instr in b, or -1.
func indexOf(b *ssa.BasicBlock, instr ssa.Instruction) int {
	for i, x := range b.Instrs {
		if x == instr {
			return i
		}
	}
	return -1
}

// roundsOf returns the channels of sc that sender s sends on between
// any two of its sends on group g, when each stretch between them holds
// at most one send on g (see Start.Rounds):
//
//	for {
//		conn, err := l.Accept()
//		if err != nil {
//			errc <- err // at most one a round
//		}
//		conns <- conn // a round ends when the receiver takes it
//	}
//
// The sends on g are then no stream: once the receiver has left it
// takes no conn, and the goroutine blocks at conns before it can send
// on errc again. A round's end is a plain send on one unbuffered
// channel of sc, made by the goroutine itself; the sends on g must be
// plain sends of the goroutine's own function too.
func roundsOf(sc *scope, s *sender, g []int) []ssa.Value {
	fn := s.site.Fn
	if fn == nil || len(fn.Blocks) == 0 {
		return nil
	}
	weights := map[ssa.Instruction]int{}
	ends := map[ssa.Instruction]bool{}
	var rounds []int
	for _, o := range s.ops {
		_, plain := o.instr.(*ssa.Send)
		switch {
		case o.touchesAny(g):
			if !o.plainFor(g) {
				continue // a select that can give up: not counted
			}
			if !plain || o.anchor != nil || o.via != nil || o.instr.Parent() != fn {
				return nil
			}
			weights[o.instr]++
		case plain && o.anchor == nil && o.via == nil && o.instr.Parent() == fn &&
			len(o.chans) == 1 && o.plainFor(o.chans) && sc.chans[o.chans[0]].room == 0:
			ends[o.instr] = true
			if !slices.Contains(rounds, o.chans[0]) {
				rounds = append(rounds, o.chans[0])
			}
		}
	}
	if len(ends) == 0 || len(weights) == 0 {
		return nil
	}
	if most, bounded := ssacfg.MostWeightBetween(fn, weights, ends); !bounded || most != 1 {
		return nil
	}
	var vals []ssa.Value
	for _, d := range rounds {
		for v := range sc.chans[d].uses.Values {
			vals = append(vals, v)
		}
	}
	return vals
}
