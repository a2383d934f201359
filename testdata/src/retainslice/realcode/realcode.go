// Package realcode reproduces the false positives found by running
// retainslice over real code (see docs/triage/retainslice.md), each beside
// the true positive it resembles.
package realcode

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"log"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// nope: make([]T, 0, N) is the whole buffer, however it is appended to
// (bytes_test.go makeBenchInputHard, compress/flate initDeflate).
func appendAll(parts []string) []byte {
	x := make([]byte, 0, 1<<20)
	for _, p := range parts {
		x = append(x, p...)
	}
	return x
}

type reader struct {
	f   *os.File
	buf []byte
}

// nope: a struct holding a fresh buffer holds the whole of it (net.open).
func open(name string) (*reader, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	return &reader{f, make([]byte, 0, 64*1024)}, nil
}

type parser struct {
	stacks []uint64
}

// nope: a slab allocator carves pieces off a large buffer and keeps the
// rest where the buffer came from: the buffer is owned there already
// (internal/trace tracev1 allocateStack).
func (p *parser) allocate(size uint64) []uint64 {
	out := p.stacks
	if uint64(len(out)) < size {
		out = make([]uint64, 1024*128)
	}
	p.stacks = out[size:]
	return out[:size:size]
}

var pool []byte

// nope: the same carving with a global slab.
func take(n int) []byte {
	if len(pool) < n {
		pool = make([]byte, 1<<20)
	}
	b := pool[:n:n]
	pool = pool[n:]
	return b
}

type slab struct {
	cur  []byte
	keep []byte
}

// Carving into a different field than the one the buffer came from is a
// retention like any other.
func (s *slab) carve(n int) {
	out := s.cur
	if len(out) < n {
		out = make([]byte, 1<<20)
	}
	s.keep = out[n : n+8] // want `out\[n : n\+8\] stored in s.keep keeps a slice of out`
}

type entry struct {
	name, comment string
	extra         []byte
}

// nope: a record whose size is the sum of 16-bit length fields is bounded
// (192 KiB at worst, a few bytes in practice), not sized by an unbounded
// input (archive/zip readDirectoryHeader).
func readHeader(r io.Reader, h []byte, e *entry) error {
	nameLen := int(binary.LittleEndian.Uint16(h[0:]))
	extraLen := int(binary.LittleEndian.Uint16(h[2:]))
	commentLen := int(binary.LittleEndian.Uint16(h[4:]))
	d := make([]byte, nameLen+extraLen+commentLen)
	if _, err := io.ReadFull(r, d); err != nil {
		return err
	}
	e.name = string(d[:nameLen])
	e.extra = d[nameLen : nameLen+extraLen]
	e.comment = string(d[nameLen+extraLen:])
	return nil
}

// A 32-bit length read from the input is unbounded for this purpose.
func readBlock(r io.Reader, h []byte, e *entry) error {
	size := binary.LittleEndian.Uint32(h)
	d := make([]byte, size)
	if _, err := io.ReadFull(r, d); err != nil {
		return err
	}
	e.extra = d[4:12] // want `d\[4:12\] stored in e.extra keeps a slice of d \(make at realcode.go:\d+, sized from input\)`
	return nil
}

type snapshot struct {
	term        uint64
	peers, data []byte
}

// nope: the rest of the buffer after a computed offset, up to a fixed
// trailer, is nearly all of it; and a small piece kept beside it in the
// same struct pins nothing more (nats-server raft loadLastSnapshot).
func loadSnapshot(path string) (*snapshot, error) {
	buf, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	hoff := len(buf) - 8
	lps := binary.LittleEndian.Uint32(buf[16:])
	return &snapshot{
		term:  binary.LittleEndian.Uint64(buf[0:]),
		peers: buf[20 : 20+lps],
		data:  buf[20+lps : hoff],
	}, nil
}

// The small piece alone is kept: the buffer is pinned for it.
func loadPeers(path string) (*snapshot, error) {
	buf, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	lps := binary.LittleEndian.Uint32(buf[16:])
	return &snapshot{
		peers: buf[20 : 20+lps], // want `buf\[20 : 20\+lps\] stored in snapshot\{…\} keeps a slice of buf`
	}, nil
}

// nope: the rest after the first line is most of the file.
func afterFirstLine(path string) []byte {
	data, _ := os.ReadFile(path)
	i := bytes.IndexByte(data, '\n')
	return data[i+1:]
}

// A tail counted from the end is small.
func trailer(path string) []byte {
	data, _ := os.ReadFile(path)
	return data[len(data)-8:] // want `data\[len\(data\)-8:\] keeps a slice of data`
}

// nope: a parser that keeps every record of the file, one after another,
// keeps the file's content: the pieces together are the buffer (go-cmp
// mustParseGolden).
func parseGolden(path string) map[string]string {
	b, _ := os.ReadFile(path)
	s := string(b)
	out := map[string]string{}
	for len(s) > 0 {
		i := strings.Index(s, "\n") + 1
		header := s[:i]
		j := strings.Index(s, "<<<"+header)
		if j < 0 {
			panic("missing footer")
		}
		name := header[3 : len(header)-1]
		out[name] = s[len(header):j]
		s = s[j+3+len(header):]
	}
	return out
}

// Keeping only the records asked for pins the file for them.
func pickGolden(path, want string) map[string]string {
	b, _ := os.ReadFile(path)
	s := string(b)
	out := map[string]string{}
	for len(s) > 0 {
		i := strings.Index(s, "\n") + 1
		header := s[:i]
		j := strings.Index(s, "<<<"+header)
		if j < 0 {
			panic("missing footer")
		}
		if name := header[3 : len(header)-1]; name == want {
			out[name] = s[len(header):j] // want `name stored in out keeps a substring of s \(string\(b\) at realcode.go:\d+, unbounded\) \(and 1 more piece of it\)`
		}
		s = s[j+3+len(header):]
	}
	return out
}

// nope: every line is kept.
func numbered(path string) map[int]string {
	data, _ := os.ReadFile(path)
	m := map[int]string{}
	for i, line := range strings.Split(string(data), "\n") {
		m[i] = line
	}
	return m
}

// A short piece of every line is kept: the rest of each line is pinned.
func prefixes(path string) map[int]string {
	data, _ := os.ReadFile(path)
	m := map[int]string{}
	for i, line := range strings.Split(string(data), "\n") {
		m[i] = line[:2] // want `line\[:2\] stored in m`
	}
	return m
}

// nope on its early returns: with a defer, every return statement stores
// its results into the function's result slots and loads them back, so
// the constants of an early return are not the piece another return
// keeps (x/net webdav_test.go's do).
func firstField(r io.ReadCloser) (string, error) {
	defer r.Close()
	data, err := io.ReadAll(r)
	if err != nil {
		return "", err
	}
	s := string(data)
	i := strings.IndexByte(s, ',')
	if i < 0 {
		return "", errors.New("no comma")
	}
	return s[:i], nil // want `s\[:i\] keeps a substring of s \(string\(data\)`
}

type entry2 struct{ types, facts []byte }

// nope: a record split into consecutive parts whose lengths its header
// gives, each part stored in a field of one struct: together they are the
// record, and copying them saves only the header (x/tools unitchecker's
// readVetxFile).
func readParts(path string) (*entry2, error) {
	data, err := os.ReadFile(path)
	if err != nil || len(data) < 12 {
		return nil, err
	}
	typesLen := binary.LittleEndian.Uint32(data[4:8])
	factsLen := binary.LittleEndian.Uint32(data[8:12])
	return &entry2{
		types: data[12 : 12+typesLen],
		facts: data[12+typesLen : 12+typesLen+factsLen],
	}, nil
}

// Two parts that are not consecutive leave the rest of the buffer between
// them pinned.
func readApart(path string) (*entry2, error) {
	data, err := os.ReadFile(path)
	if err != nil || len(data) < 12 {
		return nil, err
	}
	typesLen := binary.LittleEndian.Uint32(data[4:8])
	factsLen := binary.LittleEndian.Uint32(data[8:12])
	return &entry2{
		types: data[12 : 12+typesLen],                   // want `data\[12 : 12\+typesLen\] stored in entry2\{…\} keeps a slice of data .*\(and 1 more piece of it\)`
		facts: data[24+typesLen : 24+typesLen+factsLen], // reported with types: one finding per buffer
	}, nil
}

// nope: a configuration parser keeps every record it reads: the pieces
// of each "verb key=value" line are its map keys and values, blank and
// comment lines are skipped, one kind of record (modinfo) is consumed,
// and malformed ones end the run (Go's cmd/link readImportCfg).
func readImportCfg(file string, packageFile, packageShlib map[string]string) {
	data, err := os.ReadFile(file)
	if err != nil {
		log.Fatalf("-importcfg: %v", err)
	}
	for lineNum, line := range strings.Split(string(data), "\n") {
		lineNum++
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		verb, args, found := strings.Cut(line, " ")
		if found {
			args = strings.TrimSpace(args)
		}
		before, after, exist := strings.Cut(args, "=")
		if !exist {
			before = ""
		}
		switch verb {
		default:
			log.Fatalf("%s:%d: unknown directive %q", file, lineNum, verb)
		case "modinfo":
			if _, err := strconv.Unquote(args); err != nil {
				log.Fatalf("%s:%d: invalid modinfo: %v", file, lineNum, err)
			}
		case "packagefile":
			if before == "" || after == "" {
				log.Fatalf("%s:%d: invalid packagefile", file, lineNum)
			}
			packageFile[before] = after
		case "packageshlib":
			if before == "" || after == "" {
				log.Fatalf("%s:%d: invalid packageshlib", file, lineNum)
			}
			packageShlib[before] = after
		}
	}
}

// Looking up one entry of the same file keeps only what was asked for:
// the file is pinned for it.
func lookupImportCfg(file, pkg string, out map[string]string) {
	data, _ := os.ReadFile(file)
	for _, line := range strings.Split(string(data), "\n") {
		_, args, _ := strings.Cut(line, " ")
		before, after, _ := strings.Cut(args, "=")
		if before == pkg {
			out[before] = after // want `before stored in out keeps a substring of string\(data\) .*\(and 1 more piece of it\)`
		}
	}
}

// nope: every symbol of the file is recorded, keyed by its name, with a
// value parsed from the rest of its line (Go's cmd/compile ReadSymABIs).
func readSymABIs(file string, defs, refs map[string]int) {
	data, err := os.ReadFile(file)
	if err != nil {
		log.Fatalf("-symabis: %v", err)
	}
	for _, line := range strings.Split(string(data), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		parts := strings.Fields(line)
		switch parts[0] {
		case "def", "ref":
			if len(parts) != 3 {
				log.Fatalf("invalid symabi %q", line)
			}
			abi, err := strconv.Atoi(parts[2])
			if err != nil {
				log.Fatalf("invalid abi %q", parts[2])
			}
			if parts[0] == "def" {
				defs[parts[1]] = abi
			} else {
				refs[parts[1]] |= 1 << abi
			}
		default:
			log.Fatalf("invalid symabi type %q", parts[0])
		}
	}
}

// Counting symbols keys one piece for many occurrences: the file is
// pinned for a few distinct names.
func countSymbols(file string, counts map[string]int) {
	data, _ := os.ReadFile(file)
	for _, line := range strings.Split(string(data), "\n") {
		parts := strings.Fields(line)
		if len(parts) > 1 {
			counts[parts[1]]++ // want `parts\[1\] stored in counts keeps a substring of string\(data\)`
		}
	}
}

// nope: a history file returned as its lines, minus comments and blank
// lines, is the file.
func readHistory(path string) []string {
	data, _ := os.ReadFile(path)
	var lines []string
	for _, line := range strings.Split(string(data), "\n") {
		if len(line) == 0 || line[0] == '#' {
			continue
		}
		lines = append(lines, line)
	}
	return lines
}

// Keeping the lines that match a search is a selection: a few lines pin
// the file.
func grepHistory(path, word string) []string {
	data, _ := os.ReadFile(path)
	var lines []string
	for _, line := range strings.Split(string(data), "\n") {
		if !strings.Contains(line, word) {
			continue
		}
		lines = append(lines, line) // want `line appended to lines keeps a substring of string\(data\)`
	}
	return lines
}

// nope: a cursor cut with strings.Cut keeps every line it passes.
func cutLines(path string) []string {
	data, _ := os.ReadFile(path)
	s := string(data)
	var lines []string
	for len(s) > 0 {
		var line string
		line, s, _ = strings.Cut(s, "\n")
		if strings.HasPrefix(line, "//") {
			continue
		}
		lines = append(lines, line)
	}
	return lines
}

// The same cursor keeping the lines with a prefix selects them.
func cutMatching(path, prefix string) []string {
	data, _ := os.ReadFile(path)
	s := string(data)
	var lines []string
	for len(s) > 0 {
		var line string
		line, s, _ = strings.Cut(s, "\n")
		if strings.HasPrefix(line, prefix) {
			lines = append(lines, line) // want `line appended to lines keeps a substring of s \(string\(data\)`
		}
	}
	return lines
}

// nope: a file known by name holds what that kind of file holds: a
// version file is a line or two (Go's cmd/distpack readVERSION).
func readVERSION(goroot string) string {
	data, err := os.ReadFile(filepath.Join(goroot, "VERSION"))
	if err != nil {
		log.Fatal(err)
	}
	version, _, _ := strings.Cut(string(data), "\n")
	return version
}

// nope: the same for a system file read by its constant path.
func kernelRelease() string {
	data, _ := os.ReadFile("/proc/sys/kernel/osrelease")
	release, _, _ := strings.Cut(string(data), "\n")
	return release
}

// A file whose name comes from the input is as large as the input makes
// it: its first line pins it.
func firstLineOf(goroot, name string) string {
	data, _ := os.ReadFile(filepath.Join(goroot, name))
	line, _, _ := strings.Cut(string(data), "\n")
	return line // want `line keeps a substring of string\(data\) \(string\(data\) at realcode.go:\d+, unbounded\)`
}

type lockEntry struct {
	name string
	deps map[string]string
}

// nope: a lock file parsed record by record, its kinds told apart by
// their indentation, keeps something of nearly every record (syft's
// yarn.lock parser): the pieces together are the file.
func parseLock(path string) []lockEntry {
	data, _ := os.ReadFile(path)
	var out []lockEntry
	cur := lockEntry{deps: map[string]string{}}
	for _, line := range strings.Split(string(data), "\n") {
		if line == "" {
			out = append(out, cur)
			cur = lockEntry{deps: map[string]string{}}
			continue
		}
		if !strings.HasPrefix(line, " ") {
			cur.name = strings.TrimSuffix(line, ":")
			continue
		}
		if strings.HasPrefix(line, "    ") {
			name, version, _ := strings.Cut(strings.TrimSpace(line), " ")
			cur.deps[name] = version
		}
	}
	return out
}

// The twin: one prefix test is a filter, keeping the few lines that
// match; each pins the whole file.
func warnings(path string) []string {
	data, _ := os.ReadFile(path)
	var out []string
	for _, line := range strings.Split(string(data), "\n") {
		if strings.HasPrefix(line, "WARN ") {
			out = append(out, line) // want `line appended to out keeps a substring`
		}
	}
	return out
}

// nope: an arena. Each value's fields are appended to a shared chunk,
// and the run each value appended is kept; a new chunk starts when the
// last is nearly full. The runs together are the chunks' contents, and
// copying each would cost what the chunk does (VictoriaLogs
// getCommonTokensAndTokenSets). Compacting a kept run in place and
// storing it back keeps nothing more.
func fieldSets(values []string) [][]string {
	var arena []string
	sets := make([][]string, len(values))
	for i, v := range values {
		if arena == nil || len(arena) > 3500 {
			arena = make([]string, 0, 4096)
		}
		n := len(arena)
		arena = appendFields(arena, v)
		sets[i] = arena[n:]
	}
	for i, set := range sets {
		kept := set[:0]
		for _, f := range set {
			if f != "" {
				kept = append(kept, f)
			}
		}
		sets[i] = kept
	}
	return sets
}

func appendFields(dst []string, s string) []string {
	return append(dst, strings.Fields(s)...)
}

// nope: the same arena of bytes, grown with append.
func encodeAll(ids []uint64) [][]byte {
	buf := make([]byte, 0, 64<<10)
	var keys [][]byte
	for _, id := range ids {
		n := len(buf)
		buf = append(buf, strconv.FormatUint(id, 16)...)
		keys = append(keys, buf[n:])
	}
	return keys
}

// Keeping the run of only the values asked for pins the chunk for them.
func fieldSetOf(values []string, want string) [][]string {
	arena := make([]string, 0, 4096)
	var sets [][]string
	for _, v := range values {
		n := len(arena)
		arena = appendFields(arena, v)
		if v == want {
			sets = append(sets, arena[n:]) // want `arena\[n:\] appended to sets keeps a slice of arena`
		}
	}
	return sets
}
