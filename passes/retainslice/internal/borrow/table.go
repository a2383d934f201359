package borrow

import "go/types"

// The hand table of standard-library functions whose results borrow from
// their arguments. Parameter indexes count the receiver as 0 for methods,
// as SSA call arguments do.
var (
	// trims return all of their argument but a few bytes at its ends: a
	// trimmed piece is still a piece, a trimmed buffer still the buffer.
	trim = []Borrow{{Result: 0, Param: 0}}
	// cut returns the part before a separator, a piece, and the rest
	// after it, which (as data[i:]) is in general most of the argument.
	cut = []Borrow{{Result: 0, Param: 0, Piece: true}, {Result: 1, Param: 0}}
	// split returns the parts between separators.
	split = []Borrow{{Result: 0, Param: 0, Piece: true, Depth: 1}}
	// scan is a bufio.SplitFunc: its token is a piece of its data.
	scan = []Borrow{{Result: 1, Param: 0, Piece: true}}
)

// regexpTable maps (*regexp.Regexp) methods to what they borrow from their
// input, the first argument after the receiver.
var regexpTable = map[string][]Borrow{
	"Find":                  {{Result: 0, Param: 1, Piece: true}},
	"FindString":            {{Result: 0, Param: 1, Piece: true}},
	"FindSubmatch":          {{Result: 0, Param: 1, Piece: true, Depth: 1}},
	"FindStringSubmatch":    {{Result: 0, Param: 1, Piece: true, Depth: 1}},
	"FindAll":               {{Result: 0, Param: 1, Piece: true, Depth: 1}},
	"FindAllString":         {{Result: 0, Param: 1, Piece: true, Depth: 1}},
	"FindAllSubmatch":       {{Result: 0, Param: 1, Piece: true, Depth: 2}},
	"FindAllStringSubmatch": {{Result: 0, Param: 1, Piece: true, Depth: 2}},
	"Split":                 {{Result: 0, Param: 1, Piece: true, Depth: 1}},
}

// bytesStringsTable maps functions of both bytes and strings, which share
// their names and shapes, to what they borrow.
var bytesStringsTable = map[string][]Borrow{
	"TrimSpace": trim, "Trim": trim, "TrimLeft": trim, "TrimRight": trim,
	"TrimFunc": trim, "TrimLeftFunc": trim, "TrimRightFunc": trim,
	"TrimPrefix": trim, "TrimSuffix": trim,
	"CutPrefix": trim, "CutSuffix": trim,
	"Cut":   cut,
	"Split": split, "SplitN": split, "SplitAfter": split, "SplitAfterN": split,
	"Fields": split, "FieldsFunc": split,
	// The iterators yield the same parts, to the body of a range loop.
	"Lines": split, "SplitSeq": split, "SplitAfterSeq": split,
	"FieldsSeq": split, "FieldsFuncSeq": split,
}

// tableOf returns the hand-table entry for fn, and whether fn is one of
// the standard-library packages the table covers. For those packages the
// table is the whole truth: a function it does not list borrows nothing
// (bytes.Clone, strings.ToUpper), whatever its body looks like.
func tableOf(fn *types.Func) ([]Borrow, bool) {
	if fn == nil || fn.Pkg() == nil {
		return nil, false
	}
	recv := fn.Signature().Recv()
	switch fn.Pkg().Path() {
	case "bytes", "strings":
		if recv != nil {
			return nil, true
		}
		return bytesStringsTable[fn.Name()], true
	case "regexp":
		if recv == nil {
			return nil, true
		}
		return regexpTable[fn.Name()], true
	case "bufio":
		switch fn.Name() {
		case "ScanLines", "ScanWords", "ScanRunes", "ScanBytes":
			if recv == nil {
				return scan, true
			}
		}
		return nil, true
	}
	return nil, false
}
