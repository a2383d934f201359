package output

import (
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"golang.org/x/tools/go/analysis"

	"github.com/admitlint/admitlint/cmd/admitlint/internal/finding"
	"github.com/admitlint/admitlint/internal/docs"
)

// SARIF describes the run for SARIF.
type SARIF struct {
	Analyzers []*analysis.Analyzer // one rule each, in order
	Version   string               // admitlint's version
	Root      string               // directory artifact URIs are relative to (the module root)
	Sources   *finding.Sources
}

const (
	sarifSchema = "https://json.schemastore.org/sarif-2.1.0.json"
	rootBaseID  = "SRCROOT"
	infoURI     = "https://github.com/admitlint/admitlint"
)

// The subset of SARIF 2.1.0 admitlint writes. Field names follow the
// specification; omitempty keeps absent optional properties out.
type (
	sarifLog struct {
		Schema  string     `json:"$schema"`
		Version string     `json:"version"`
		Runs    []sarifRun `json:"runs"`
	}
	sarifRun struct {
		Tool               sarifTool                   `json:"tool"`
		OriginalURIBaseIDs map[string]sarifArtifactLoc `json:"originalUriBaseIds,omitempty"`
		Invocations        []sarifInvocation           `json:"invocations"`
		Results            []sarifResult               `json:"results"`
		ColumnKind         string                      `json:"columnKind"`
	}
	sarifTool struct {
		Driver sarifDriver `json:"driver"`
	}
	sarifDriver struct {
		Name           string      `json:"name"`
		Version        string      `json:"version"`
		InformationURI string      `json:"informationUri"`
		Rules          []sarifRule `json:"rules"`
	}
	sarifRule struct {
		ID                   string       `json:"id"`
		Name                 string       `json:"name"`
		ShortDescription     sarifText    `json:"shortDescription"`
		FullDescription      sarifText    `json:"fullDescription"`
		Help                 sarifText    `json:"help"`
		HelpURI              string       `json:"helpUri"`
		DefaultConfiguration sarifRuleCfg `json:"defaultConfiguration"`
	}
	sarifRuleCfg struct {
		Level string `json:"level"`
	}
	sarifText struct {
		Text     string `json:"text"`
		Markdown string `json:"markdown,omitempty"`
	}
	sarifInvocation struct {
		ExecutionSuccessful bool                `json:"executionSuccessful"`
		Notifications       []sarifNotification `json:"toolExecutionNotifications,omitempty"`
	}
	sarifNotification struct {
		Level   string    `json:"level"`
		Message sarifText `json:"message"`
	}
	sarifResult struct {
		RuleID              string            `json:"ruleId"`
		RuleIndex           int               `json:"ruleIndex"`
		Level               string            `json:"level"`
		Message             sarifText         `json:"message"`
		Locations           []sarifLocation   `json:"locations"`
		RelatedLocations    []sarifLocation   `json:"relatedLocations,omitempty"`
		PartialFingerprints map[string]string `json:"partialFingerprints"`
		Fixes               []sarifFix        `json:"fixes,omitempty"`
	}
	sarifLocation struct {
		ID               *int          `json:"id,omitempty"`
		PhysicalLocation sarifPhysical `json:"physicalLocation"`
		Message          *sarifText    `json:"message,omitempty"`
	}
	sarifPhysical struct {
		ArtifactLocation sarifArtifactLoc `json:"artifactLocation"`
		Region           sarifRegion      `json:"region"`
	}
	sarifArtifactLoc struct {
		URI       string `json:"uri"`
		URIBaseID string `json:"uriBaseId,omitempty"`
	}
	sarifRegion struct {
		StartLine   int  `json:"startLine,omitempty"`
		StartColumn int  `json:"startColumn,omitempty"`
		EndLine     int  `json:"endLine,omitempty"`
		EndColumn   int  `json:"endColumn,omitempty"`
		ByteOffset  *int `json:"byteOffset,omitempty"`
		ByteLength  *int `json:"byteLength,omitempty"`
	}
	sarifFix struct {
		Description     sarifText             `json:"description"`
		ArtifactChanges []sarifArtifactChange `json:"artifactChanges"`
	}
	sarifArtifactChange struct {
		ArtifactLocation sarifArtifactLoc   `json:"artifactLocation"`
		Replacements     []sarifReplacement `json:"replacements"`
	}
	sarifReplacement struct {
		DeletedRegion   sarifRegion `json:"deletedRegion"`
		InsertedContent *sarifText  `json:"insertedContent,omitempty"`
	}
)

// Level returns the SARIF level (and GitHub annotation command) of a
// finding: the patterns are defects; directive hygiene is a warning.
func Level(f finding.Finding) string {
	if f.Pass == "directives" || f.Category == "unused-ignore" {
		return "warning"
	}
	return "error"
}

// Write writes res as one SARIF 2.1.0 log for GitHub code scanning and
// other SARIF consumers.
func (s *SARIF) Write(w io.Writer, res *finding.Results) error {
	run := sarifRun{
		Tool: sarifTool{Driver: sarifDriver{
			Name: "admitlint", Version: s.Version, InformationURI: infoURI, Rules: s.rules(),
		}},
		OriginalURIBaseIDs: map[string]sarifArtifactLoc{rootBaseID: {URI: fileURI(s.Root) + "/"}},
		Invocations:        []sarifInvocation{s.invocation(res)},
		Results:            []sarifResult{},
		ColumnKind:         "utf16CodeUnits",
	}
	ruleIndex := map[string]int{}
	for i, a := range s.Analyzers {
		ruleIndex[a.Name] = i
	}
	seen := map[string]int{} // fingerprint occurrences per file
	for _, f := range res.Findings {
		fp := finding.Fingerprint(f, s.Sources)
		key := f.Posn.File + "\x00" + fp
		seen[key]++
		run.Results = append(run.Results, s.result(f, ruleIndex[f.Pass], fmt.Sprintf("%s:%d", fp, seen[key])))
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(sarifLog{Schema: sarifSchema, Version: "2.1.0", Runs: []sarifRun{run}})
}

func (s *SARIF) rules() []sarifRule {
	rules := make([]sarifRule, 0, len(s.Analyzers))
	for _, a := range s.Analyzers {
		title, body, _ := strings.Cut(a.Doc, "\n")
		summary := strings.TrimPrefix(title, a.Name+": ")
		body = strings.TrimSpace(body)
		level := "error"
		if a.Name == "directives" {
			level = "warning"
		}
		rules = append(rules, sarifRule{
			ID:                   a.Name,
			Name:                 a.Name,
			ShortDescription:     sarifText{Text: summary},
			FullDescription:      sarifText{Text: firstParagraph(body, summary)},
			Help:                 sarifText{Text: a.Doc, Markdown: docs.Markdown(a.Doc)},
			HelpURI:              a.URL,
			DefaultConfiguration: sarifRuleCfg{Level: level},
		})
	}
	return rules
}

// firstParagraph returns the first paragraph of text, or def if empty.
func firstParagraph(text, def string) string {
	para, _, _ := strings.Cut(text, "\n\n")
	if para = strings.Join(strings.Fields(para), " "); para != "" {
		return para
	}
	return def
}

func (s *SARIF) invocation(res *finding.Results) sarifInvocation {
	inv := sarifInvocation{ExecutionSuccessful: len(res.Failures) == 0}
	for _, fail := range res.Failures {
		inv.Notifications = append(inv.Notifications, sarifNotification{Level: "error", Message: sarifText{Text: fail.String()}})
	}
	return inv
}

func (s *SARIF) result(f finding.Finding, rule int, fingerprint string) sarifResult {
	r := sarifResult{
		RuleID:              f.Pass,
		RuleIndex:           rule,
		Level:               Level(f),
		Message:             sarifText{Text: f.Message},
		Locations:           []sarifLocation{{PhysicalLocation: s.physical(f.Posn, f.End)}},
		PartialFingerprints: map[string]string{"admitlint/v1": fingerprint},
	}
	for i, rel := range f.Related {
		id := i + 1
		r.RelatedLocations = append(r.RelatedLocations, sarifLocation{
			ID: &id, PhysicalLocation: s.physical(rel.Posn, rel.End), Message: &sarifText{Text: rel.Message},
		})
	}
	for _, fix := range f.Fixes {
		r.Fixes = append(r.Fixes, s.fix(fix))
	}
	return r
}

func (s *SARIF) fix(fix finding.Fix) sarifFix {
	out := sarifFix{Description: sarifText{Text: fix.Message}}
	byFile := map[string]int{}
	for _, e := range fix.Edits {
		i, ok := byFile[e.File]
		if !ok {
			i = len(out.ArtifactChanges)
			byFile[e.File] = i
			out.ArtifactChanges = append(out.ArtifactChanges, sarifArtifactChange{ArtifactLocation: s.artifact(e.File)})
		}
		start, length := e.Start, e.End-e.Start
		out.ArtifactChanges[i].Replacements = append(out.ArtifactChanges[i].Replacements, sarifReplacement{
			DeletedRegion:   sarifRegion{ByteOffset: &start, ByteLength: &length},
			InsertedContent: &sarifText{Text: e.New},
		})
	}
	return out
}

func (s *SARIF) physical(start, end finding.Position) sarifPhysical {
	region := sarifRegion{StartLine: start.Line, StartColumn: s.utf16Col(start)}
	if end.Line >= start.Line && end.File == start.File {
		region.EndLine, region.EndColumn = end.Line, s.utf16Col(end)
	} else {
		region.EndLine, region.EndColumn = start.Line, region.StartColumn
	}
	return sarifPhysical{ArtifactLocation: s.artifact(start.File), Region: region}
}

// artifact returns the location of file: relative to the root when inside
// it, else an absolute file URI (a standard library file, say).
func (s *SARIF) artifact(file string) sarifArtifactLoc {
	if rel := Rel(s.Root, file); rel != file {
		return sarifArtifactLoc{URI: (&url.URL{Path: filepath.ToSlash(rel)}).String(), URIBaseID: rootBaseID}
	}
	return sarifArtifactLoc{URI: fileURI(file)}
}

func fileURI(path string) string {
	return (&url.URL{Scheme: "file", Path: filepath.ToSlash(path)}).String()
}

// utf16Col converts a Go byte column to the UTF-16 column SARIF counts by
// default; when the line cannot be read the byte column stands.
func (s *SARIF) utf16Col(p finding.Position) int {
	line := s.Sources.Line(p.File, p.Line)
	if p.Col-1 > len(line) || !utf8.ValidString(line) {
		return p.Col
	}
	col := 1
	for _, r := range line[:p.Col-1] {
		col++
		if r >= 0x10000 {
			col++
		}
	}
	return col
}
