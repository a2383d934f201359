// Package basic specifies retainslice: each bad function keeps a small
// piece of a large buffer after it returns, and its good twin, right
// after it, does not.
package basic

import (
	"bufio"
	"bytes"
	"io"
	"os"
	"regexp"
	"strings"
)

// Shape 1: a file read whole, its first line trimmed and returned.

func firstLine(path string) ([]byte, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	line, _, _ := bytes.Cut(data, []byte("\n"))
	return bytes.TrimSpace(line), nil // want `bytes.TrimSpace\(line\) keeps a slice of data \(os.ReadFile at basic.go:\d+, unbounded\) alive after firstLine returns; copy it with bytes.Clone`
}

func firstLineCopied(path string) ([]byte, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	line, _, _ := bytes.Cut(data, []byte("\n"))
	return bytes.Clone(bytes.TrimSpace(line)), nil // ok: a copy
}

// nope: trimming the whole file leaves nearly all of it; a copy saves nothing.
func wholeTrimmed(path string) ([]byte, error) {
	data, err := os.ReadFile(path)
	return bytes.TrimSpace(data), err
}

// Shape 2: a request body read whole; a slice of it stored in a field.

type session struct {
	last  []byte
	names [][]byte
	title string
	cache map[string][]byte
}

func (s *session) remember(body io.Reader) error {
	data, err := io.ReadAll(body)
	if err != nil {
		return err
	}
	i := bytes.IndexByte(data, ':')
	s.last = data[:i] // want `data\[:i\] stored in s.last keeps a slice of data \(io.ReadAll at basic.go:\d+, unbounded\) alive after remember returns`
	return nil
}

func (s *session) rememberCopy(body io.Reader) error {
	data, err := io.ReadAll(body)
	if err != nil {
		return err
	}
	i := bytes.IndexByte(data, ':')
	s.last = append([]byte(nil), data[:i]...) // ok: append onto nil copies
	return nil
}

func (s *session) rememberCopied(body io.Reader) error {
	data, err := io.ReadAll(body)
	if err != nil {
		return err
	}
	i := bytes.IndexByte(data, ':')
	last := make([]byte, i)
	copy(last, data[:i])
	s.last = last // ok: copied into a fresh slice
	return nil
}

// nope: the whole body is kept, not a piece of it.
func (s *session) rememberAll(body io.Reader) error {
	data, err := io.ReadAll(body)
	s.last = data
	return err
}

// Shape 3: a large buffer, a piece of it cached in a map.

func (s *session) fill(r io.Reader, key string) {
	buf := make([]byte, 1<<20)
	n, _ := io.ReadFull(r, buf)
	off := bytes.IndexByte(buf[:n], '=') + 1
	s.cache[key] = buf[off:n] // want `buf\[off:n\] stored in s.cache keeps a slice of buf \(make at basic.go:\d+, 1 MiB\) alive after fill returns`
}

// nope: 512 bytes is not a large buffer.
func (s *session) fillSmall(r io.Reader, key string) {
	buf := make([]byte, 512)
	n, _ := io.ReadFull(r, buf)
	off := bytes.IndexByte(buf[:n], '=') + 1
	s.cache[key] = buf[off:n]
}

// nope: buf[:n] after a read is the data read, the buffer itself.
func (s *session) fillWhole(r io.Reader, key string) {
	buf := make([]byte, 1<<20)
	n, _ := r.Read(buf)
	s.cache[key] = buf[:n]
}

// Shape 4: a regexp match returned.

var version = regexp.MustCompile(`v[0-9.]+`)

func findVersion(r io.Reader) []byte {
	data, _ := io.ReadAll(r)
	return version.Find(data) // want `version.Find\(data\) keeps a slice of data`
}

func findVersionString(r io.Reader) string {
	data, _ := io.ReadAll(r)
	return string(version.Find(data)) // ok: string(…) copies
}

// Shape 5: fields of bytes.Split appended to a slice that outlives the call.

func (s *session) collectNames(r io.Reader) {
	data, _ := io.ReadAll(r)
	for _, line := range bytes.Split(data, []byte("\n")) {
		if name, ok := bytes.CutPrefix(line, []byte("name=")); ok {
			s.names = append(s.names, name) // want `name appended to s.names keeps a slice of data`
		}
	}
}

// nope: the local slice of names dies with the call; only their count leaves.
func countNames(r io.Reader) int {
	data, _ := io.ReadAll(r)
	var names [][]byte
	for _, line := range bytes.Split(data, []byte("\n")) {
		if name, ok := bytes.CutPrefix(line, []byte("name=")); ok {
			names = append(names, name)
		}
	}
	return len(names)
}

// nope: every field of the split is kept: together they are the whole buffer.
func allLines(r io.Reader) [][]byte {
	data, _ := io.ReadAll(r)
	return bytes.Split(data, []byte("\n"))
}

// Shape 6: a substring of string(data) stored.

func (s *session) setTitle(path string) {
	data, _ := os.ReadFile(path)
	text := string(data)
	if i := strings.Index(text, "<title>"); i >= 0 {
		s.title = text[i+7 : i+40] // want `text\[i\+7 : i\+40\] stored in s.title keeps a substring of text \(string\(data\) at basic.go:\d+, unbounded\) alive after setTitle returns; copy it with strings.Clone`
	}
}

func (s *session) setTitleCopy(path string) {
	data, _ := os.ReadFile(path)
	text := string(data)
	if i := strings.Index(text, "<title>"); i >= 0 {
		s.title = strings.Clone(text[i+7 : i+40]) // ok: a copy
	}
}

// nope: string(data[i:j]) copies the piece, not the file.
func (s *session) setTitleConverted(path string) {
	data, _ := os.ReadFile(path)
	if i := bytes.Index(data, []byte("<title>")); i >= 0 {
		s.title = string(data[i+7 : i+40])
	}
}

// Shape 7: a piece sent on a channel.

var kv = regexp.MustCompile(`(\w+)=(\w+)`)

func values(r io.Reader, out chan<- []byte) {
	data, _ := io.ReadAll(r)
	for _, m := range kv.FindAllSubmatch(data, -1) {
		out <- m[2] // want `m\[2\] sent on out keeps a slice of data`
	}
}

// nope: the channel is local and drained before the function returns.
func countValues(r io.Reader) int {
	data, _ := io.ReadAll(r)
	out := make(chan []byte, 16)
	for _, m := range kv.FindAllSubmatch(data, 16) {
		out <- m[2]
	}
	close(out)
	n := 0
	for range out {
		n++
	}
	return n
}

// nope: the whole body is sent, not a piece of it.
func forward(r io.Reader, out chan<- []byte) {
	data, _ := io.ReadAll(r)
	out <- data
}

// Shape 8: a closure that outlives the call captures a piece.

func tokenFunc(path string) func() []byte {
	data, _ := os.ReadFile(path)
	tok := data[8:48] // want `tok captured by a closure keeps a slice of data`
	return func() []byte { return tok }
}

// nope: the closure runs before the function returns.
func tokenLen(path string) int {
	data, _ := os.ReadFile(path)
	tok := data[8:48]
	n := func() int { return len(tok) }()
	return n
}

// nope: a deferred closure runs before the function returns.
func tokenDeferred(path string) (n int) {
	data, _ := os.ReadFile(path)
	tok := data[8:48]
	defer func() { n = len(tok) }()
	return 0
}

// Shape 9: a global.

var lastToken []byte

func setToken(r io.Reader) {
	data, _ := io.ReadAll(r)
	lastToken = data[:16] // want `data\[:16\] stored in lastToken keeps a slice of data`
}

// nope: the piece is only passed to a function; what it does is its business.
func logToken(r io.Reader) {
	data, _ := io.ReadAll(r)
	os.Stdout.Write(data[:16])
}

// Shape 10: a large array.

func header(r io.Reader) []byte {
	var buf [1 << 20]byte
	n, _ := io.ReadFull(r, buf[:])
	i := bytes.IndexByte(buf[:n], 0)
	return buf[:i] // want `buf\[:i\] keeps a slice of buf \(array at basic.go:\d+, 1 MiB\)`
}

// nope: buf[2:n] skips a constant header of what was read: nearly all of it.
func afterHeader(r io.Reader) []byte {
	var buf [1 << 20]byte
	n, _ := io.ReadFull(r, buf[:])
	return buf[2:n]
}

// Shape 11: a bytes.Buffer filled from a stream.

func subject(r io.Reader) string {
	var b bytes.Buffer
	b.ReadFrom(r)
	s := b.String()
	i := strings.IndexByte(s, '\n')
	return s[:i] // want `s\[:i\] keeps a substring of s \(\(\*bytes.Buffer\).String at basic.go:\d+, unbounded\)`
}

// nope: a buffer written by the program is not an unbounded stream.
func label(name string) string {
	var b bytes.Buffer
	b.WriteString(name)
	s := b.String()
	return s[:4]
}

// Shape 12: a buffer sized from the input, read with io.ReadFull.

func record(r io.Reader, size int) []byte {
	buf := make([]byte, size)
	if _, err := io.ReadFull(r, buf); err != nil {
		return nil
	}
	n := int(buf[0])
	return buf[1 : 1+n] // want `buf\[1 : 1\+n\] keeps a slice of buf \(make at basic.go:\d+, sized from input\)`
}

// nope: io.ReadAll of a small io.LimitReader is small.
func limited(r io.Reader) []byte {
	data, _ := io.ReadAll(io.LimitReader(r, 512))
	return data[1:9]
}

// Shape 13: a struct holding a piece returned.

type token struct {
	text []byte
	line int
}

func next(r io.Reader) token {
	data, _ := io.ReadAll(r)
	i := bytes.IndexByte(data, ' ')
	return token{text: data[:i], line: 1} // want `data\[:i\] stored in token\{…\} keeps a slice of data`
}

// nope: the struct stays local; only its length leaves.
func nextLen(r io.Reader) int {
	data, _ := io.ReadAll(r)
	i := bytes.IndexByte(data, ' ')
	t := token{text: data[:i], line: 1}
	return len(t.text)
}

// Shape 14: a map key that pins a whole file.

func words(path string, seen map[string]bool) {
	data, _ := os.ReadFile(path)
	for _, w := range strings.Fields(string(data)) {
		seen[w] = true // want `w stored in seen keeps a substring of string\(data\)`
	}
}

// nope: the map is local and only its size leaves.
func countWords(path string) int {
	data, _ := os.ReadFile(path)
	seen := map[string]bool{}
	for _, w := range strings.Fields(string(data)) {
		seen[w] = true
	}
	return len(seen)
}

// Shape 15: a bufio split function's token.

func firstWord(r io.Reader) []byte {
	data, _ := io.ReadAll(r)
	_, tok, _ := bufio.ScanWords(data, true)
	return tok // want `tok keeps a slice of data`
}

// nope: strings.ToUpper returns a new string.
func firstWordUpper(r io.Reader) string {
	data, _ := io.ReadAll(r)
	text := string(data)
	return strings.ToUpper(text[:10])
}

// Shape 16: a bare return of a named result: reported, no fix.

func named(r io.Reader) (tok []byte) {
	data, _ := io.ReadAll(r)
	tok = data[3:7]
	return // want `tok keeps a slice of data`
}

// nope: a function that returns a slice of its own parameter leaves the
// decision to its caller.
func field(line []byte) []byte {
	i := bytes.IndexByte(line, ',')
	return line[:i]
}

// nope: data[4:] skips a header: it is nearly the whole buffer.
func body(r io.Reader) []byte {
	data, _ := io.ReadAll(r)
	return data[4:]
}

// nope: the piece goes to a goroutine, which ends on its own.
func background(r io.Reader) {
	data, _ := io.ReadAll(r)
	tok := data[3:7]
	go func() { os.Stdout.Write(tok) }()
}
