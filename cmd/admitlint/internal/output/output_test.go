package output

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"golang.org/x/tools/go/analysis"

	"github.com/admitlint/admitlint/cmd/admitlint/internal/finding"
)

// results returns findings in a small module written to a temporary
// directory: one with a related position and a fix on a line with
// non-ASCII text before the reported column, one from the directives pass,
// and one package failure.
func results(t *testing.T) (string, *finding.Results) {
	t.Helper()
	dir := t.TempDir()
	src := "package p\n\nfunc f() {\n\ts := \"héllo 😀\"; ch := make(chan int)\n\t_ = s\n}\n"
	file := filepath.Join(dir, "p", "p.go")
	os.MkdirAll(filepath.Dir(file), 0o755)
	if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	col := strings.Index("\ts := \"héllo 😀\"; ch := make(chan int)", "ch :=") + 1
	mk := strings.Index(src, "make(chan int)")
	return dir, &finding.Results{
		Findings: []finding.Finding{
			{
				Package: "example.com/p", Pass: "strandedsend",
				Posn:    finding.Position{File: file, Line: 4, Col: col},
				End:     finding.Position{File: file, Line: 4, Col: col + 20},
				Message: "send on ch blocks forever once the receiver leaves, 100%: a,b",
				Related: []finding.Related{{Posn: finding.Position{File: file, Line: 3, Col: 1}, End: finding.Position{File: file, Line: 3, Col: 5}, Message: "receiver can leave here"}},
				Fixes: []finding.Fix{{Message: "Buffer ch with capacity 1", Edits: []finding.Edit{
					{File: file, Start: mk + len("make(chan int"), End: mk + len("make(chan int"), New: ", 1"},
				}}},
			},
			{
				Package: "example.com/p", Pass: "directives",
				Posn:    finding.Position{File: file, Line: 5, Col: 2},
				End:     finding.Position{File: file, Line: 5, Col: 7},
				Message: "//admitlint:ignore has no reason",
			},
		},
		Failures: []finding.Failure{{Package: "example.com/q", Pass: "retainslice", Err: "internal error: boom"}},
	}
}

var analyzers = []*analysis.Analyzer{
	{Name: "strandedsend", Doc: "strandedsend: report sends that strand their goroutine\n\nA longer explanation.\n\n\tcode()", URL: "https://example.com/strandedsend"},
	{Name: "directives", Doc: "directives: report malformed directives", URL: "https://example.com/directives"},
}

func TestSARIFValidatesAgainstTheSchema(t *testing.T) {
	dir, res := results(t)
	var buf bytes.Buffer
	s := &SARIF{Analyzers: analyzers, Version: "v1.2.3", Root: dir, Sources: finding.NewSources()}
	if err := s.Write(&buf, res); err != nil {
		t.Fatal(err)
	}

	c := jsonschema.NewCompiler()
	schema, err := c.Compile(filepath.Join("..", "..", "..", "..", "testdata", "sarif", "sarif-schema-2.1.0.json"))
	if err != nil {
		t.Fatal(err)
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	if err := schema.Validate(inst); err != nil {
		t.Fatalf("SARIF output does not validate: %v\n%s", err, buf.String())
	}

	// What GitHub code scanning requires beyond the schema.
	var log struct {
		Version string
		Runs    []struct {
			Tool struct {
				Driver struct {
					Name, Version string
					Rules         []struct {
						ID                                string
						ShortDescription, FullDescription struct{ Text string }
						Help                              struct{ Text, Markdown string }
						HelpURI                           string
					}
				}
			}
			OriginalURIBaseIDs map[string]struct{ URI string } `json:"originalUriBaseIds"`
			Invocations        []struct{ ExecutionSuccessful bool }
			Results            []struct {
				RuleID    string
				Level     string
				Message   struct{ Text string }
				Locations []struct {
					PhysicalLocation struct {
						ArtifactLocation struct{ URI, URIBaseID string } `json:"artifactLocation"`
						Region           struct{ StartLine, StartColumn, EndLine, EndColumn int }
					}
				}
				RelatedLocations    []struct{ Message struct{ Text string } }
				PartialFingerprints map[string]string
				Fixes               []struct {
					ArtifactChanges []struct {
						Replacements []struct {
							DeletedRegion   struct{ ByteOffset, ByteLength int }
							InsertedContent struct{ Text string }
						}
					}
				}
			}
		}
	}
	if err := json.Unmarshal(buf.Bytes(), &log); err != nil {
		t.Fatal(err)
	}
	run := log.Runs[0]
	if log.Version != "2.1.0" || run.Tool.Driver.Name != "admitlint" || run.Tool.Driver.Version != "v1.2.3" {
		t.Errorf("log header: %+v", log)
	}
	for _, r := range run.Tool.Driver.Rules {
		if r.ID == "" || r.ShortDescription.Text == "" || r.FullDescription.Text == "" || r.Help.Text == "" || r.HelpURI == "" {
			t.Errorf("rule lacks what code scanning needs: %+v", r)
		}
	}
	if got := run.Tool.Driver.Rules[0].FullDescription.Text; got != "A longer explanation." {
		t.Errorf("fullDescription = %q", got)
	}
	if got := run.OriginalURIBaseIDs["SRCROOT"].URI; got != "file://"+filepath.ToSlash(dir)+"/" {
		t.Errorf("SRCROOT = %q", got)
	}
	if run.Invocations[0].ExecutionSuccessful {
		t.Error("a package failure was reported as a successful execution")
	}
	r := run.Results[0]
	loc := r.Locations[0].PhysicalLocation
	if r.RuleID != "strandedsend" || r.Level != "error" || loc.ArtifactLocation.URI != "p/p.go" || loc.ArtifactLocation.URIBaseID != "SRCROOT" {
		t.Errorf("result: %+v", r)
	}
	// Before ch: a tab and ASCII, é (two bytes, one UTF-16 unit) and 😀
	// (four bytes, two UTF-16 units).
	wantCol := 1 + len([]rune("\ts := \"héllo ")) + 2 + len([]rune("\"; "))
	if loc.Region.StartLine != 4 || loc.Region.StartColumn != wantCol || loc.Region.EndLine != 4 || loc.Region.EndColumn <= wantCol {
		t.Errorf("region = %+v, want start column %d in UTF-16 units", loc.Region, wantCol)
	}
	if len(r.RelatedLocations) != 1 || r.RelatedLocations[0].Message.Text != "receiver can leave here" {
		t.Errorf("related = %+v", r.RelatedLocations)
	}
	if fp := r.PartialFingerprints["admitlint/v1"]; !strings.HasSuffix(fp, ":1") || len(fp) < 10 {
		t.Errorf("partialFingerprints = %v", r.PartialFingerprints)
	}
	if len(r.Fixes) != 1 || r.Fixes[0].ArtifactChanges[0].Replacements[0].InsertedContent.Text != ", 1" {
		t.Errorf("fixes = %+v", r.Fixes)
	}
	if run.Results[1].Level != "warning" {
		t.Errorf("directive finding level = %q, want warning", run.Results[1].Level)
	}
}

func TestGitHub(t *testing.T) {
	dir, res := results(t)
	var buf bytes.Buffer
	if err := GitHub(&buf, res, dir); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n")
	if len(lines) != 3 {
		t.Fatalf("want 3 workflow commands, got:\n%s", buf.String())
	}
	if !strings.HasPrefix(lines[0], "::error file=p/p.go,line=4,col=") ||
		!strings.Contains(lines[0], ",title=admitlint/strandedsend::send on ch blocks forever once the receiver leaves, 100%25: a,b%0Ap/p.go:3:1: receiver can leave here") {
		t.Errorf("first annotation: %s", lines[0])
	}
	if !strings.HasPrefix(lines[1], "::warning file=p/p.go,line=5,col=2,endLine=5,endColumn=7,title=admitlint/directives::") {
		t.Errorf("second annotation: %s", lines[1])
	}
	if lines[2] != "::error title=admitlint::example.com/q: retainslice: internal error: boom" {
		t.Errorf("failure annotation: %s", lines[2])
	}
	if got := escapeProperty("a,b:c%"); got != "a%2Cb%3Ac%25" {
		t.Errorf("escapeProperty = %q", got)
	}
}

func TestText(t *testing.T) {
	dir, res := results(t)
	var buf bytes.Buffer
	Text(&buf, res, dir)
	want := "p/p.go:4:"
	if !strings.HasPrefix(buf.String(), want) || !strings.Contains(buf.String(), "(strandedsend)\n\tp/p.go:3:1: receiver can leave here\n") {
		t.Errorf("text output:\n%s", buf.String())
	}
	if Rel(dir, "/elsewhere/x.go") != "/elsewhere/x.go" || Rel("", "a.go") != "a.go" {
		t.Error("Rel rewrote a path outside dir")
	}
}
