package fix

import (
	"bytes"
	"fmt"
	"io"
	"sort"

	"github.com/admitlint/admitlint/cmd/admitlint/internal/finding"
)

// context is how many unchanged lines surround each change, as in diff -u.
const context = 3

// Diff writes the plan as a unified diff (git style, a/ and b/ prefixes,
// applicable with git apply or patch -p1). name maps a file to the path
// shown.
//
// The hunks come straight from the edits: each change removes the whole
// lines its edits touch and adds those lines as edited, so no diff
// algorithm is needed and the patch is exact.
func (p *Plan) Diff(w io.Writer, name func(string) string) error {
	for _, file := range p.Files {
		if err := p.diffFile(w, file, name(file)); err != nil {
			return err
		}
	}
	return nil
}

func (p *Plan) diffFile(w io.Writer, file, shown string) error {
	old := p.Old[file]
	starts := lineStarts(old)
	n := len(starts) - 1 // number of lines
	lines := func(from, to int) [][]byte { return splitLines(old[starts[from]:starts[to]]) }

	var buf bytes.Buffer
	fmt.Fprintf(&buf, "--- a/%s\n+++ b/%s\n", shown, shown)
	delta := 0 // lines added minus lines removed by earlier hunks
	for _, h := range hunks(changes(p.edits[file], starts)) {
		from, to := max(0, h[0].first-context), min(n, h[len(h)-1].last+context)
		var body bytes.Buffer
		oldCount, newCount, at := 0, 0, from
		for _, c := range h {
			unchanged := lines(at, c.first)
			removed := lines(c.first, c.last)
			added := splitLines(applyShifted(old[starts[c.first]:starts[c.last]], c.edits, starts[c.first]))
			writeLines(&body, ' ', unchanged)
			writeLines(&body, '-', removed)
			writeLines(&body, '+', added)
			oldCount += len(unchanged) + len(removed)
			newCount += len(unchanged) + len(added)
			at = c.last
		}
		trailing := lines(at, to)
		writeLines(&body, ' ', trailing)
		oldCount += len(trailing)
		newCount += len(trailing)

		fmt.Fprintf(&buf, "@@ -%s +%s @@\n", rangeOf(from, oldCount), rangeOf(from+delta, newCount))
		buf.Write(body.Bytes())
		delta += newCount - oldCount
	}
	_, err := w.Write(buf.Bytes())
	return err
}

// A change is the edits that touch one run of lines [first, last).
type change struct {
	first, last int
	edits       []finding.Edit
}

// changes groups sorted edits whose lines overlap or touch, so a change
// shows its removed lines together, then its added ones.
func changes(edits []finding.Edit, starts []int) []change {
	var cs []change
	for _, e := range edits {
		first, last := lineSpan(e, starts)
		if k := len(cs) - 1; k >= 0 && first <= cs[k].last {
			cs[k].last = max(cs[k].last, last)
			cs[k].edits = append(cs[k].edits, e)
			continue
		}
		cs = append(cs, change{first: first, last: last, edits: []finding.Edit{e}})
	}
	return cs
}

// hunks groups changes whose contexts would touch.
func hunks(cs []change) [][]change {
	var hs [][]change
	for _, c := range cs {
		if k := len(hs) - 1; k >= 0 && c.first <= hs[k][len(hs[k])-1].last+2*context {
			hs[k] = append(hs[k], c)
			continue
		}
		hs = append(hs, []change{c})
	}
	return hs
}

// lineSpan returns the lines [first, last) an edit touches. An insertion
// touches the line it is inserted into; an insertion at the very end of a
// file that ends in a newline touches no line.
func lineSpan(e finding.Edit, starts []int) (first, last int) {
	n := len(starts) - 1
	first = lineOf(e.Start, starts)
	if e.End > e.Start {
		last = lineOf(e.End-1, starts) + 1
	} else {
		last = min(first+1, n)
	}
	return first, last
}

// lineOf returns the index of the line holding byte offset off (n for the
// end of a file that ends in a newline).
func lineOf(off int, starts []int) int {
	return sort.Search(len(starts), func(i int) bool { return starts[i] > off }) - 1
}

// lineStarts returns the offset of each line's first byte, followed by
// len(data).
func lineStarts(data []byte) []int {
	starts := []int{0}
	for i, b := range data {
		if b == '\n' && i+1 < len(data) {
			starts = append(starts, i+1)
		}
	}
	if len(data) == 0 {
		return starts
	}
	return append(starts, len(data))
}

// applyShifted applies edits, whose offsets are relative to the file, to
// region, which begins at file offset base.
func applyShifted(region []byte, edits []finding.Edit, base int) []byte {
	var buf bytes.Buffer
	last := 0
	for _, e := range edits {
		buf.Write(region[last : e.Start-base])
		buf.WriteString(e.New)
		last = e.End - base
	}
	buf.Write(region[last:])
	return buf.Bytes()
}

// splitLines splits data after each newline; a final line without one is
// kept.
func splitLines(data []byte) [][]byte {
	var lines [][]byte
	for len(data) > 0 {
		i := bytes.IndexByte(data, '\n')
		if i < 0 {
			lines = append(lines, data)
			break
		}
		lines = append(lines, data[:i+1])
		data = data[i+1:]
	}
	return lines
}

func writeLines(buf *bytes.Buffer, prefix byte, lines [][]byte) {
	for _, l := range lines {
		buf.WriteByte(prefix)
		buf.Write(l)
		if !bytes.HasSuffix(l, []byte("\n")) {
			buf.WriteString("\n\\ No newline at end of file\n")
		}
	}
}

// rangeOf formats a unified diff range: "start,count", with start 1-based,
// or the line before an empty range.
func rangeOf(start, count int) string {
	if count == 0 {
		return fmt.Sprintf("%d,0", start)
	}
	return fmt.Sprintf("%d,%d", start+1, count)
}
