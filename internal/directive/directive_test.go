package directive

import (
	"reflect"
	"testing"
)

func TestParse(t *testing.T) {
	for _, tc := range []struct {
		text string
		want *Directive // nil: not a directive; positions are not compared
	}{
		{"// just a comment", nil},
		{"/* admitlint:ignore lateacquire block */", nil},
		{"//admitlint:ignore lateacquire pool is bounded upstream",
			&Directive{Verb: "ignore", Passes: []string{"lateacquire"}, Reason: "pool is bounded upstream"}},
		{"//admitlint:ignore lateacquire,strandedsend  two reasons share one line ",
			&Directive{Verb: "ignore", Passes: []string{"lateacquire", "strandedsend"}, Reason: "two reasons share one line"}},
		{"//admitlint:ignore retainslice",
			&Directive{Verb: "ignore", Passes: []string{"retainslice"}}},
		{"//admitlint:ignore",
			&Directive{Verb: "ignore"}},
		{"//admitlint:ignroe retainslice typo in the verb",
			&Directive{Verb: "ignroe", Passes: []string{"retainslice"}, Reason: "typo in the verb"}},
		{"// admitlint: the linter this repository runs", nil},
		{"// admitlint:ignore retainslice spaced out",
			&Directive{Verb: "ignore", Passes: []string{"retainslice"}, Reason: "spaced out", Spaced: true}},
	} {
		got := parse(tc.text)
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("parse(%q) = %+v, want %+v", tc.text, got, tc.want)
		}
	}
}

func TestValidAndCovers(t *testing.T) {
	d := &Directive{File: "a.go", Line: 10, Verb: "ignore", Passes: []string{"lateacquire"}, Reason: "why"}
	if !d.Valid() {
		t.Error("well-formed directive reported invalid")
	}
	for _, bad := range []*Directive{
		{Verb: "ignore", Passes: []string{"lateacquire"}},
		{Verb: "ignore", Reason: "no pass"},
		{Verb: "skip", Passes: []string{"lateacquire"}, Reason: "unknown verb"},
		{Verb: "ignore", Passes: []string{"lateacquire"}, Reason: "spaced", Spaced: true},
	} {
		if bad.Valid() {
			t.Errorf("%+v reported valid", bad)
		}
	}
	for line, want := range map[int]bool{9: false, 10: true, 11: true, 12: false} {
		if got := d.Covers("a.go", line); got != want {
			t.Errorf("Covers(a.go, %d) = %v, want %v", line, got, want)
		}
	}
	if d.Covers("b.go", 10) {
		t.Error("directive covers another file")
	}
	if !d.Names("lateacquire") || d.Names("retainslice") {
		t.Error("Names disagrees with Passes")
	}
}
