package finding

import (
	"strings"
	"testing"
)

func TestParsePosition(t *testing.T) {
	p, err := ParsePosition("/tmp/a:b/x.go:12:7")
	if err != nil || p != (Position{File: "/tmp/a:b/x.go", Line: 12, Col: 7}) {
		t.Fatalf("ParsePosition = %+v, %v", p, err)
	}
	for _, bad := range []string{"", "x.go", "x.go:1", ":1:2", "x.go:a:2", "x.go:1:b"} {
		if _, err := ParsePosition(bad); err == nil {
			t.Errorf("ParsePosition(%q) succeeded", bad)
		}
	}
}

// stream is go vet -json output: one object per package, in the order the
// packages finished, with a finding repeated by a test variant.
const stream = `{
	"example.com/m/b": {
		"lateacquire": [
			{"posn": "/m/b/b.go:9:2", "end": "/m/b/b.go:9:20", "message": "second",
			 "related": [{"posn": "/m/b/b.go:7:1", "end": "/m/b/b.go:7:3", "message": "goroutine started here"}]},
			{"posn": "/m/b/b.go:3:1", "end": "/m/b/b.go:3:5", "message": "first",
			 "suggested_fixes": [{"message": "Hoist", "edits": [{"filename": "/m/b/b.go", "start": 10, "end": 12, "new": "x"}]}]}
		]
	}
}
{
	"example.com/m/b [example.com/m/b.test]": {
		"lateacquire": [
			{"posn": "/m/b/b.go:3:1", "end": "/m/b/b.go:3:5", "message": "first"}
		],
		"retainslice": {"error": "internal error: boom"}
	}
}
`

func TestDecode(t *testing.T) {
	res, err := Decode(strings.NewReader(stream))
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Findings) != 2 {
		t.Fatalf("got %d findings, want 2 (duplicate dropped): %+v", len(res.Findings), res.Findings)
	}
	first, second := res.Findings[0], res.Findings[1]
	if first.Message != "first" || first.Package != "example.com/m/b" || first.Pass != "lateacquire" {
		t.Errorf("first finding = %+v", first)
	}
	if len(first.Fixes) != 1 || first.Fixes[0].Edits[0] != (Edit{File: "/m/b/b.go", Start: 10, End: 12, New: "x"}) {
		t.Errorf("first finding's fix = %+v", first.Fixes)
	}
	if second.Message != "second" || len(second.Related) != 1 || second.Related[0].Posn.Line != 7 {
		t.Errorf("second finding = %+v", second)
	}
	want := Failure{Package: "example.com/m/b [example.com/m/b.test]", Pass: "retainslice", Err: "internal error: boom"}
	if len(res.Failures) != 1 || res.Failures[0] != want {
		t.Errorf("failures = %+v, want [%+v]", res.Failures, want)
	}
}

func TestDecodeRejectsGarbage(t *testing.T) {
	for _, bad := range []string{"{", `{"p": {"a": [{"posn": "nowhere"}]}}`, `{"p": {"a": 3}}`} {
		if _, err := Decode(strings.NewReader(bad)); err == nil {
			t.Errorf("Decode(%q) succeeded", bad)
		}
	}
}

func TestFingerprintIgnoresMovedLines(t *testing.T) {
	before := "package p\n\nfunc f() {\n\tgo work() // here\n}\n"
	after := "package p\n\n// a new comment\n// and another\n\nfunc f() {\n        go work() // here\n}\n"
	changed := "package p\n\nfunc f() {\n\tgo other() // here\n}\n"
	src := func(text string) *Sources {
		return &Sources{files: map[string][]byte{}, read: func(string) ([]byte, error) { return []byte(text), nil }}
	}
	at := func(line int, msg string) Finding {
		return Finding{Pass: "lateacquire", Message: msg, Posn: Position{File: "/m/p.go", Line: line, Col: 2}}
	}
	base := Fingerprint(at(4, "sem acquired late (go statement at p.go:4)"), src(before))
	if got := Fingerprint(at(7, "sem acquired late (go statement at p.go:7)"), src(after)); got != base {
		t.Errorf("moving the finding changed its fingerprint: %s vs %s", got, base)
	}
	if got := Fingerprint(at(4, "sem acquired late (go statement at p.go:4)"), src(changed)); got == base {
		t.Error("editing the reported line kept the fingerprint")
	}
	if got := Fingerprint(at(4, "another message"), src(before)); got == base {
		t.Error("a different message kept the fingerprint")
	}
	other := at(4, "sem acquired late (go statement at p.go:4)")
	other.Pass = "strandedsend"
	if got := Fingerprint(other, src(before)); got == base {
		t.Error("a different pass kept the fingerprint")
	}
	if line := src(before).Line("/m/p.go", 4); line != "\tgo work() // here" {
		t.Errorf("Line(4) = %q", line)
	}
	if line := src(before).Line("/m/p.go", 99); line != "" {
		t.Errorf("Line(99) = %q", line)
	}
}
