package docs

import (
	"strings"
	"testing"
)

const src = `// Package demo defines an Analyzer that does nothing.
//
// # Analyzer demo
//
// demo: report nothing at all
//
// Details, with code:
//
//	x := 1
//
// # Another heading
//
// Not part of it.
package demo
`

func TestExtract(t *testing.T) {
	got, err := Extract(src, "demo")
	if err != nil {
		t.Fatal(err)
	}
	want := "demo: report nothing at all\n\nDetails, with code:\n\n\tx := 1"
	if got != want {
		t.Fatalf("Extract = %q, want %q", got, want)
	}
	md := Markdown(got)
	if !strings.Contains(md, "\n\tx := 1") {
		t.Errorf("Markdown lost the code block:\n%s", md)
	}
}

func TestExtractErrors(t *testing.T) {
	for _, tc := range []struct{ src, name, wantErr string }{
		{"package x\n", "x", "no package comment"},
		{"// Package x.\npackage x\n", "x", `no "# Analyzer x" heading`},
		{"// Package x.\n//\n// # Analyzer x\n//\n// wrong start\npackage x\n", "x", `must begin "x: "`},
		{src, "other", "heading"},
	} {
		_, err := Extract(tc.src, tc.name)
		if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
			t.Errorf("Extract(%q) error = %v, want %q", tc.name, err, tc.wantErr)
		}
	}
}
