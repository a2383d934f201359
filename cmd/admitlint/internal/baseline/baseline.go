// Package baseline lets a team adopt admitlint on a large codebase without
// fixing everything first: it records today's findings in a file, and
// later runs report only findings not recorded there.
//
// An entry matches a finding by pass, file and fingerprint (the message
// without line numbers and the text of the reported line), never by line
// number, so edits elsewhere in a file do not resurface old findings. The
// file is sorted, tab-separated text with no timestamps: regenerating it on
// unchanged code gives the same bytes, and a reviewer can read its diff.
package baseline

import (
	"bufio"
	"cmp"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"

	"github.com/admitlint/admitlint/cmd/admitlint/internal/finding"
)

// An Entry is one recorded finding.
type Entry struct {
	Pass        string
	File        string // slash-separated, relative to the baseline file's directory
	Fingerprint string
	Message     string // for the reader; matching does not use it
}

func (e Entry) key() string { return e.Pass + "\t" + e.File + "\t" + e.Fingerprint }

const header = `# admitlint baseline: findings accepted as they stand.
# admitlint -baseline=FILE reports only findings not listed here;
# admitlint -write-baseline=FILE rewrites this file from the current findings.
# pass	file	fingerprint	message
`

// Entries returns the entries recording findings, sorted, with files
// relative to dir (the directory of the baseline file).
func Entries(findings []finding.Finding, src *finding.Sources, dir string) []Entry {
	entries := make([]Entry, 0, len(findings))
	for _, f := range findings {
		entries = append(entries, Entry{
			Pass:        f.Pass,
			File:        relSlash(dir, f.Posn.File),
			Fingerprint: finding.Fingerprint(f, src),
			Message:     strings.ReplaceAll(f.Message, "\t", " "),
		})
	}
	slices.SortFunc(entries, func(a, b Entry) int {
		return cmp.Or(cmp.Compare(a.File, b.File), cmp.Compare(a.Pass, b.Pass),
			cmp.Compare(a.Message, b.Message), cmp.Compare(a.Fingerprint, b.Fingerprint))
	})
	return entries
}

func relSlash(dir, file string) string {
	if rel, err := filepath.Rel(dir, file); err == nil {
		file = rel
	}
	return filepath.ToSlash(file)
}

// Write writes entries in the baseline file format.
func Write(w io.Writer, entries []Entry) error {
	var b strings.Builder
	b.WriteString(header)
	for _, e := range entries {
		fmt.Fprintf(&b, "%s\t%s\t%s\t%s\n", e.Pass, e.File, e.Fingerprint, e.Message)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// Read parses a baseline file.
func Read(r io.Reader) ([]Entry, error) {
	var entries []Entry
	sc := bufio.NewScanner(r)
	sc.Buffer(nil, 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		fields := strings.SplitN(line, "\t", 4)
		if len(fields) < 3 || fields[0] == "" || fields[1] == "" || fields[2] == "" {
			return nil, fmt.Errorf("baseline line %d: want pass<TAB>file<TAB>fingerprint<TAB>message", n)
		}
		e := Entry{Pass: fields[0], File: fields[1], Fingerprint: fields[2]}
		if len(fields) == 4 {
			e.Message = fields[3]
		}
		entries = append(entries, e)
	}
	return entries, sc.Err()
}

// Filter returns the findings no entry accounts for, how many findings
// entries accounted for, and the entries that matched nothing. Entries
// are counted: two identical findings need two identical entries.
func Filter(findings []finding.Finding, entries []Entry, src *finding.Sources, dir string) (fresh []finding.Finding, matched int, stale []Entry) {
	left := map[string]int{}
	for _, e := range entries {
		left[e.key()]++
	}
	for i, f := range findings {
		k := Entries(findings[i:i+1], src, dir)[0].key()
		if left[k] > 0 {
			left[k]--
			matched++
			continue
		}
		fresh = append(fresh, f)
	}
	for _, e := range entries {
		if left[e.key()] > 0 {
			left[e.key()]--
			stale = append(stale, e)
		}
	}
	return fresh, matched, stale
}
