// Package fix applies admitlint's suggested fixes to files, or shows them
// as a unified diff, for the command's -fix and -diff modes.
//
// Each finding contributes its first suggested fix. Fixes are applied
// whole or not at all: a fix with an edit that overlaps an edit already
// accepted in the same file is skipped and reported, as go vet -fix does;
// an edit identical to one already accepted (two findings proposing the
// same change) is accepted once.
package fix

import (
	"bytes"
	"cmp"
	"fmt"
	"os"
	"slices"

	"github.com/admitlint/admitlint/cmd/admitlint/internal/finding"
)

// A Plan is the set of accepted edits per file, with the original contents.
type Plan struct {
	Files   []string                  // touched files, sorted
	Old     map[string][]byte         // original contents
	edits   map[string][]finding.Edit // accepted edits, sorted by offset
	Applied []finding.Finding         // findings whose fix was accepted
	Skipped []finding.Finding         // findings whose fix conflicted
}

// NewPlan accepts the first fix of each finding that has one, reading
// files with read (os.ReadFile in the command).
func NewPlan(findings []finding.Finding, read func(string) ([]byte, error)) (*Plan, error) {
	p := &Plan{Old: map[string][]byte{}, edits: map[string][]finding.Edit{}}
	for _, f := range findings {
		if len(f.Fixes) == 0 {
			continue
		}
		edits := f.Fixes[0].Edits
		for _, e := range edits {
			if _, ok := p.Old[e.File]; ok {
				continue
			}
			data, err := read(e.File)
			if err != nil {
				return nil, err
			}
			p.Old[e.File] = data
		}
		if p.accept(edits) {
			p.Applied = append(p.Applied, f)
		} else {
			p.Skipped = append(p.Skipped, f)
		}
	}
	for file := range p.edits {
		p.Files = append(p.Files, file)
	}
	slices.Sort(p.Files)
	return p, nil
}

// accept adds edits if none of them overlaps an accepted edit or falls
// outside its file, and reports whether it did.
func (p *Plan) accept(edits []finding.Edit) bool {
	var fresh []finding.Edit
	for _, e := range edits {
		if e.Start < 0 || e.End < e.Start || e.End > len(p.Old[e.File]) {
			return false
		}
		switch conflicts(p.edits[e.File], e) {
		case overlap:
			return false
		case none:
			fresh = append(fresh, e)
		}
	}
	if conflictAmong(fresh) {
		return false
	}
	for _, e := range fresh {
		p.edits[e.File] = append(p.edits[e.File], e)
		slices.SortFunc(p.edits[e.File], compareEdits)
	}
	return true
}

type conflict int

const (
	none      conflict = iota
	duplicate          // the same edit is already accepted
	overlap
)

// conflicts classifies e against the accepted edits of its file. Two
// insertions at one offset overlap, since their order would be arbitrary.
func conflicts(accepted []finding.Edit, e finding.Edit) conflict {
	for _, a := range accepted {
		switch {
		case a == e:
			return duplicate
		case e.Start < a.End && a.Start < e.End,
			e.Start == a.Start && (e.Start == e.End || a.Start == a.End):
			return overlap
		}
	}
	return none
}

// conflictAmong reports whether edits of one fix overlap each other.
func conflictAmong(edits []finding.Edit) bool {
	for i, e := range edits {
		if conflicts(edits[:i], e) == overlap {
			return true
		}
	}
	return false
}

func compareEdits(a, b finding.Edit) int {
	return cmp.Or(cmp.Compare(a.Start, b.Start), cmp.Compare(a.End, b.End))
}

// New returns the fixed contents of file.
func (p *Plan) New(file string) []byte {
	old := p.Old[file]
	var buf bytes.Buffer
	last := 0
	for _, e := range p.edits[file] {
		buf.Write(old[last:e.Start])
		buf.WriteString(e.New)
		last = e.End
	}
	buf.Write(old[last:])
	return buf.Bytes()
}

// Write overwrites each touched file with its fixed contents, keeping the
// file's permissions.
func (p *Plan) Write() error {
	for _, file := range p.Files {
		info, err := os.Stat(file)
		if err != nil {
			return err
		}
		if err := os.WriteFile(file, p.New(file), info.Mode().Perm()); err != nil {
			return fmt.Errorf("applying fixes: %v", err)
		}
	}
	return nil
}
