package strandedsend

import (
	"slices"

	"golang.org/x/tools/go/ssa"

	"github.com/admitlint/admitlint/internal/spawn"
	"github.com/admitlint/admitlint/passes/strandedsend/internal/chanuse"
	"github.com/admitlint/admitlint/passes/strandedsend/internal/waitpath"
)

// lockstep returns the requests that drive sender s, if it answers
// requests in lockstep: its goroutine loops on a request channel the
// function makes and alone sends on, and between two requests it takes
// it makes at most one plain send on group g. The function's request
// sends are then where the answers are set going, one each, and a
// receiver that takes each answer before its next request has at most
// one outstanding however long the loop runs.
//
//	go readLines(lines, prompts) // for p := range prompts { lines <- read(p) }
//	for {
//		prompts <- "> "
//		select { case l := <-lines: …; case <-stop: return }
//	}
//
// It returns nil when s is not such a sender.
func lockstep(sc *scope, s *sender, g []int) []waitpath.Start {
	var sends []ssa.Instruction
	for _, o := range s.ops {
		if !o.plainFor(g) {
			continue
		}
		if o.anchor != nil {
			return nil // in a closure of the goroutine: keep to one function
		}
		sends = append(sends, o.instr)
	}
	if len(sends) == 0 {
		return nil
	}
	for d, req := range sc.chans {
		if slices.Contains(g, d) {
			continue
		}
		recvs := requestRecvs(sc.fn, req, s.site)
		if recvs == nil || !oneSendPerRequest(s.site.Fn, recvs, sends) {
			continue
		}
		var starts []waitpath.Start
		for _, send := range req.uses.Sends {
			starts = append(starts, waitpath.Start{Instr: send, Case: -1, Sends: waitpath.One, Again: true})
		}
		return starts
	}
	return nil
}

// answers widens group g to every channel its one sender answers
// requests on, when that sender answers in lockstep: one answer per
// request, on whichever channel, so a value received from any of them
// is the answer to the last request.
func answers(sc *scope, g []int) []int {
	var s *sender
	for _, x := range sc.senders {
		if x.touchesAny(g) {
			if s != nil {
				return g // several senders: each counts on its own
			}
			s = x
		}
	}
	if s == nil {
		return g
	}
	var all []int
	for _, o := range s.ops {
		for _, d := range o.chans {
			if !slices.Contains(all, d) {
				all = append(all, d)
			}
		}
	}
	if len(all) == len(g) {
		return g
	}
	for _, x := range sc.senders {
		if x != s && x.touchesAny(all) {
			return g
		}
	}
	if lockstep(sc, s, all) == nil {
		return g
	}
	slices.Sort(all)
	return all
}

// requestRecvs returns the receives, in the goroutine of site, from a
// request channel req: a channel the function makes and sends on with
// plain sends (and may close), hands to that goroutine alone, which only
// receives from it. It returns nil if req is not such a channel.
func requestRecvs(fn *ssa.Function, req *channel, site *spawn.Site) map[ssa.Instruction]bool {
	u := req.uses
	if u.Escape != nil || len(u.Sends) == 0 || len(u.SendCases) > 0 || len(u.Recvs) > 0 ||
		len(u.RecvCases) > 0 || len(u.Returns) > 0 || len(u.FieldStore) > 0 || len(u.Handoffs) != 1 {
		return nil
	}
	h := u.Handoffs[0]
	if h.Site != site || h.Fn != site.Fn || h.Fn == fn {
		return nil
	}
	in := chanuse.TraceHandoff(h, spawn.Sites(h.Fn), nil)
	if in.Escape != nil || len(in.Recvs) == 0 || len(in.RecvCases) > 0 || len(in.Sends) > 0 ||
		len(in.SendCases) > 0 || len(in.Closes) > 0 || len(in.Handoffs) > 0 || len(in.Returns) > 0 || len(in.FieldStore) > 0 {
		return nil
	}
	recvs := map[ssa.Instruction]bool{}
	for _, r := range in.Recvs {
		recvs[r] = true
	}
	return recvs
}

// oneSendPerRequest reports whether, in fn, every path to one of the
// sends passes a receive of recvs first, and every path from one send to
// another (or to itself, around a loop) passes one in between.
func oneSendPerRequest(fn *ssa.Function, recvs map[ssa.Instruction]bool, sends []ssa.Instruction) bool {
	if len(fn.Blocks) == 0 {
		return false
	}
	targets := map[ssa.Instruction]bool{}
	for _, s := range sends {
		targets[s] = true
	}
	if reachesUnbarred(fn.Blocks[0], 0, targets, recvs) {
		return false
	}
	for _, s := range sends {
		if reachesUnbarred(s.Block(), slices.Index(s.Block().Instrs, s)+1, targets, recvs) {
			return false
		}
	}
	return true
}

// reachesUnbarred reports whether a path from instruction from of block b
// reaches one of targets without passing one of barriers.
func reachesUnbarred(b *ssa.BasicBlock, from int, targets, barriers map[ssa.Instruction]bool) bool {
	return reachesAlong(b, from, targets, barriers, nil)
}

// reachesAlong is reachesUnbarred following, out of each block, the
// successors succs gives (all of them when succs is nil).
func reachesAlong(b *ssa.BasicBlock, from int, targets, barriers map[ssa.Instruction]bool, succs func(*ssa.BasicBlock) []*ssa.BasicBlock) bool {
	seen := map[*ssa.BasicBlock]bool{}
	type pos struct {
		b    *ssa.BasicBlock
		from int
	}
	stack := []pos{{b, from}}
	for len(stack) > 0 {
		p := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		blocked := false
		for _, instr := range p.b.Instrs[p.from:] {
			if targets[instr] {
				return true
			}
			if barriers[instr] {
				blocked = true
				break
			}
		}
		if blocked {
			continue
		}
		next := p.b.Succs
		if succs != nil {
			next = succs(p.b)
		}
		for _, succ := range next {
			if !seen[succ] {
				seen[succ] = true
				stack = append(stack, pos{succ, 0})
			}
		}
	}
	return false
}
