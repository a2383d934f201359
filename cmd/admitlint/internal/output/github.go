package output

import (
	"fmt"
	"io"
	"strings"

	"github.com/admitlint/admitlint/cmd/admitlint/internal/finding"
)

// GitHub writes one GitHub Actions workflow command per finding,
//
//	::error file=pkg/a.go,line=12,col=2,endLine=12,endColumn=9,title=admitlint/lateacquire::message
//
// which the Actions runner shows as an annotation on the pull request's
// diff. Related positions follow the message on lines of their own. File
// names are relative to dir (the workspace root, where the runner resolves
// them).
func GitHub(w io.Writer, res *finding.Results, dir string) error {
	var b strings.Builder
	for _, f := range res.Findings {
		msg := f.Message
		for _, r := range f.Related {
			msg += fmt.Sprintf("\n%s: %s", relPosn(r.Posn, dir), r.Message)
		}
		fmt.Fprintf(&b, "::%s file=%s,line=%d,col=%d", Level(f), escapeProperty(Rel(dir, f.Posn.File)), f.Posn.Line, f.Posn.Col)
		if f.End.File == f.Posn.File && f.End.Line >= f.Posn.Line {
			fmt.Fprintf(&b, ",endLine=%d,endColumn=%d", f.End.Line, f.End.Col)
		}
		fmt.Fprintf(&b, ",title=%s::%s\n", escapeProperty("admitlint/"+f.Pass), escapeData(msg))
	}
	for _, fail := range res.Failures {
		fmt.Fprintf(&b, "::error title=admitlint::%s\n", escapeData(fail.String()))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// escapeData escapes a workflow command's message as the runner expects.
func escapeData(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
}

// escapeProperty escapes a workflow command property value, which may not
// contain the separators of the command syntax either.
func escapeProperty(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace(s)
}
