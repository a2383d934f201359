// Package finding is the admitlint command's model of a run's results:
// findings (diagnostics with the pass that reported them) and package
// failures. It reads them from the JSON stream of go vet -json, which is
// how the command runs the passes, and every output format, baseline and
// fix writes from it.
package finding

import (
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
)

// A Position is a place in a source file. Its JSON form is the
// "file:line:col" string that go vet and the x/tools checkers print.
type Position struct {
	File string // absolute path, as go vet reports it
	Line int    // 1-based
	Col  int    // 1-based, in bytes
}

func (p Position) String() string {
	return fmt.Sprintf("%s:%d:%d", p.File, p.Line, p.Col)
}

// ParsePosition parses "file:line:col". A file name may itself contain
// colons, so the line and column are taken from the end.
func ParsePosition(s string) (Position, error) {
	rest, colStr, ok1 := cutLast(s, ":")
	file, lineStr, ok2 := cutLast(rest, ":")
	line, err1 := strconv.Atoi(lineStr)
	col, err2 := strconv.Atoi(colStr)
	if !ok1 || !ok2 || err1 != nil || err2 != nil || file == "" {
		return Position{}, fmt.Errorf("malformed position %q", s)
	}
	return Position{File: file, Line: line, Col: col}, nil
}

func cutLast(s, sep string) (before, after string, found bool) {
	if i := strings.LastIndex(s, sep); i >= 0 {
		return s[:i], s[i+len(sep):], true
	}
	return s, "", false
}

func (p Position) MarshalJSON() ([]byte, error) { return json.Marshal(p.String()) }

func (p *Position) UnmarshalJSON(data []byte) error {
	var s string
	if err := json.Unmarshal(data, &s); err != nil {
		return err
	}
	parsed, err := ParsePosition(s)
	if err != nil {
		return err
	}
	*p = parsed
	return nil
}

// A Finding is one diagnostic of one pass. Its JSON form is the x/tools
// diagnostic shape (the pass and package are the keys around it).
type Finding struct {
	Package  string    `json:"-"`
	Pass     string    `json:"-"`
	Category string    `json:"category,omitempty"`
	Posn     Position  `json:"posn"`
	End      Position  `json:"end"`
	Message  string    `json:"message"`
	Fixes    []Fix     `json:"suggested_fixes,omitempty"`
	Related  []Related `json:"related,omitempty"`
}

// Related is a secondary position that explains a finding: where the
// goroutine started, where the receiver can leave, where the buffer came
// from.
type Related struct {
	Posn    Position `json:"posn"`
	End     Position `json:"end"`
	Message string   `json:"message"`
}

// A Fix is a suggested edit that resolves a finding.
type Fix struct {
	Message string `json:"message"`
	Edits   []Edit `json:"edits"`
}

// An Edit replaces the bytes [Start, End) of File with New.
type Edit struct {
	File  string `json:"filename"`
	Start int    `json:"start"`
	End   int    `json:"end"`
	New   string `json:"new"`
}

// A Failure is a pass that could not analyse a package.
type Failure struct {
	Package string
	Pass    string
	Err     string
}

func (f Failure) String() string { return fmt.Sprintf("%s: %s: %s", f.Package, f.Pass, f.Err) }

// Results is everything a run produced.
type Results struct {
	Findings []Finding
	Failures []Failure
}

// Decode reads go vet -json output: a stream of JSON objects, each
// {package: {pass: [diagnostic…] or {"error": text}}}. It returns the
// results sorted and with duplicates removed (a file analysed as part of
// two package variants reports the same finding twice).
func Decode(r io.Reader) (*Results, error) {
	res := new(Results)
	dec := json.NewDecoder(r)
	for {
		var tree map[string]map[string]json.RawMessage
		if err := dec.Decode(&tree); err == io.EOF {
			break
		} else if err != nil {
			return nil, fmt.Errorf("reading go vet output: %v", err)
		}
		for pkg, passes := range tree {
			for pass, raw := range passes {
				if err := res.add(pkg, pass, raw); err != nil {
					return nil, fmt.Errorf("reading go vet output for %s: %v", pkg, err)
				}
			}
		}
	}
	res.Normalize()
	return res, nil
}

// add records one pass's result on one package: a list of diagnostics or
// an error object.
func (res *Results) add(pkg, pass string, raw json.RawMessage) error {
	if len(raw) > 0 && raw[0] == '{' {
		var e struct {
			Error string `json:"error"`
		}
		if err := json.Unmarshal(raw, &e); err != nil {
			return err
		}
		res.Failures = append(res.Failures, Failure{Package: pkg, Pass: pass, Err: e.Error})
		return nil
	}
	var diags []Finding
	if err := json.Unmarshal(raw, &diags); err != nil {
		return err
	}
	for _, d := range diags {
		d.Package, d.Pass = pkg, pass
		res.Findings = append(res.Findings, d)
	}
	return nil
}

// Normalize sorts findings by position, pass and message, and failures by
// package and pass, and drops exact duplicates, so output is deterministic.
func (res *Results) Normalize() {
	slices.SortFunc(res.Findings, func(a, b Finding) int {
		// Among duplicates, keep the package itself before its test
		// variant ("p" before "p [p.test]").
		return cmp.Or(Compare(a, b), cmp.Compare(len(a.Package), len(b.Package)), cmp.Compare(a.Package, b.Package))
	})
	res.Findings = slices.CompactFunc(res.Findings, func(a, b Finding) bool {
		return Compare(a, b) == 0
	})
	slices.SortFunc(res.Failures, func(a, b Failure) int {
		return cmp.Or(cmp.Compare(a.Package, b.Package), cmp.Compare(a.Pass, b.Pass), cmp.Compare(a.Err, b.Err))
	})
	res.Failures = slices.Compact(res.Failures)
}

// Compare orders findings by file, line, column, pass and message. Two
// findings that compare equal are the same finding, seen from two variants
// of one package.
func Compare(a, b Finding) int {
	return cmp.Or(
		cmp.Compare(a.Posn.File, b.Posn.File),
		cmp.Compare(a.Posn.Line, b.Posn.Line),
		cmp.Compare(a.Posn.Col, b.Posn.Col),
		cmp.Compare(a.Pass, b.Pass),
		cmp.Compare(a.Message, b.Message),
	)
}
