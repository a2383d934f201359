package finding

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"regexp"
	"strings"
)

// Sources reads and caches the source files findings point into, for
// fingerprints, SARIF columns and context lines.
type Sources struct {
	files map[string][]byte
	read  func(string) ([]byte, error)
}

// NewSources returns an empty cache that reads files with os.ReadFile.
func NewSources() *Sources {
	return &Sources{files: map[string][]byte{}, read: os.ReadFile}
}

// File returns the contents of file, or nil if it cannot be read.
func (s *Sources) File(file string) []byte {
	data, ok := s.files[file]
	if !ok {
		data, _ = s.read(file)
		s.files[file] = data
	}
	return data
}

// Line returns line n (1-based) of file without its newline, or "".
func (s *Sources) Line(file string, n int) string {
	data := s.File(file)
	for i := 1; i < n && data != nil; i++ {
		j := bytes.IndexByte(data, '\n')
		if j < 0 {
			return ""
		}
		data = data[j+1:]
	}
	if j := bytes.IndexByte(data, '\n'); j >= 0 {
		data = data[:j]
	}
	return string(bytes.TrimRight(data, "\r"))
}

// lineRef matches a line reference inside a message ("at handler.go:42",
// "load.go:12:3"): positions move when unrelated code moves, so
// fingerprints ignore them.
var lineRef = regexp.MustCompile(`(\.go):\d+(?::\d+)?`)

// Fingerprint identifies a finding independently of where its file's lines
// happen to be: it hashes the pass, the message with line numbers removed,
// and the text of the reported line with its indentation removed. Edits
// elsewhere in the file leave it unchanged; editing the reported line or
// changing what the finding says changes it.
func Fingerprint(f Finding, src *Sources) string {
	h := sha256.New()
	h.Write([]byte(f.Pass))
	h.Write([]byte{0})
	h.Write([]byte(lineRef.ReplaceAllString(f.Message, "$1")))
	h.Write([]byte{0})
	h.Write([]byte(strings.TrimSpace(src.Line(f.Posn.File, f.Posn.Line))))
	return hex.EncodeToString(h.Sum(nil)[:8])
}
