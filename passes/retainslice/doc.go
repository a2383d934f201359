// Package retainslice defines an Analyzer that reports small slices of
// large buffers that outlive the function that made the buffer.
//
// # Analyzer retainslice
//
// retainslice: report results that keep small slices of large buffers
//
// Go keeps a whole backing array alive for as long as any slice or
// substring points into it. A function that reads a request body or a stream
// whole, or allocates a large buffer, and lets a small piece of it outlive
// the call (returns it, sends it on a channel, stores it in a field, a
// map, a global or a slice that lives on, or captures it in a closure that
// does) keeps the whole buffer alive with it: a 40-byte token pins a 10 MiB
// file, and an admitted job whose result keeps a short slice of its
// request body keeps the body alive after its admission slot is free.
//
// The model: what makes a retention worth reporting is the fraction
// kept, a fixed handful of pieces (a token, a header, a first line, a
// search's match) of a buffer proven large, kept after the function
// returns. Copies should be rare, so retainslice reports only when all
// three are proven.
//
// Large, by a size the program states: make or an array with a constant
// size of at least -retainslice.min-bytes, or a string converted from
// such bytes, whose substrings pin the string. The conversion copies only
// what it converts: string(buf[:n]), the part a read filled, is as long
// as the input, a buffer sized by its input (validation set 41, a
// goroutine dump read into a 2 MiB buffer), while buf[:n] itself shares
// the buffer's array and is the buffer. A buffer sized by its
// input is as large as what the other side sends, which the pass cannot
// know, and on code nobody had triaged it was most often a small answer
// of fixed format (a one-line status, a table's metadata, a test's own
// request): the opt-in -retainslice.streams counts it too, as a stream
// read to its end (io.ReadAll of a request or response body, a
// connection, any reader, unless limited by a small io.LimitReader), a
// bytes.Buffer or strings.Builder filled from a stream, or a buffer read
// with io.ReadFull and sized from the input (not from 16-bit header
// fields). A file read whole by its name (os.ReadFile, fs.ReadFile) holds
// what that file holds (a password, a version, a config, a list the
// program wrote itself), and a program that expects large files streams
// them: the opt-in -retainslice.files counts such files as large too,
// except one the program knows by name, a constant path or one whose
// last element is a constant (filepath.Join(goroot, "VERSION"),
// "/etc/os-release").
//
// A small part: b[i:j] with a computed low bound, or a high bound that is
// a constant or computed from the content (bytes.Index, a parsed length),
// or a fixed-size tail (b[len(b)-8:]); the results of bytes and strings
// Cut (before the separator), Split and Fields, of regexp's Find methods,
// of bufio's split functions; and those of any function that returns a
// sub-slice of its parameter, in any package. b[:n] after a read,
// data[4:], the rest after an offset (data[i:]) and bytes.TrimSpace(data)
// count as the buffer itself.
//
// A handful, not the buffer: a loop over the buffer's records (the parts
// of a split, what a cursor cuts as it advances, or the run each trip
// appends to an arena: n := len(buf); buf = append(buf, …); keep
// buf[n:]) that keeps something
// of every record it does not discard as blank or a comment, or reject by
// ending the run, keeps the buffer's content, and copying it saves
// nothing: its keys and values in maps, its lines appended to a slice. A
// dispatch on the record's kind (switch verb { case "packagefile": … })
// needs only one kind kept; so does a parser telling its kinds apart by
// prefix, with at least two tests of a record's prefix or suffix
// (strings.HasPrefix(line, "  ")) each followed by a keep. Still
// reported: a loop that keeps some records and skips others for what they
// hold (a filter, a search, a first match, a single prefix test); a fixed-size cut of each record (line[:2]); and map keys
// of a set or a counter (seen[word] = true, counts[word]++), whose keys
// repeat, so one piece pins the buffer for many occurrences. Nor is it
// reported when the pieces together are the buffer in other ways, or it
// is pinned anyway: a piece stored beside the rest of its buffer, or
// beside the next part of a record, in the same struct; a slab allocator
// keeping the rest of its buffer where the buffer came from; a piece
// read out of a container and stored back into it (a kept run compacted
// in place), which the place that first stored it already keeps.
//
// One report per buffer and function: the other places that keep pieces
// of it are related positions, and the suggested fix copies them all.
//
// A function that merely returns a sub-slice of its own parameter is not
// reported: whether that is a problem depends on the caller's buffer, so
// the caller is checked instead.
//
// Across functions and packages, by facts: what a function's results
// borrow from its parameters, so a piece cut by a helper is still a
// piece of the caller's buffer; which results are a large buffer the
// function makes or reads itself and returns whole (by the run's own
// notion of large), so a call of it is a root for its caller, as a make
// would be; and which string or byte-slice parameters it keeps in a
// field or element of another parameter (the receiver included), in a
// global, or on a channel one of those holds, so a piece passed to it
// outlives the caller when that other parameter does (a callee keeping
// it only in what it returns is not counted: whether that outlives is
// the caller's business). A string or slice made from a piece without
// copying (unsafe.String(unsafe.SliceData(b), n), unsafe.Slice,
// *(*string)(unsafe.Pointer(&b)), and the "yolo" helpers built on them,
// in any package) is still that piece. The body of a range-over-func
// loop over a splitter (strings.Lines, SplitSeq, FieldsSeq) runs within
// the function: what it keeps of each part is kept by the function, and
// one call of the body is one trip of the records loop. Not yet: a
// callee that keeps its parameter by passing it to a third function, and
// pieces a decoder stores into the fields of a struct its caller keeps
// (a zero-copy Unmarshal).
//
// Wrong:
//
//	func firstLine(r *http.Request) ([]byte, error) {
//		buf := make([]byte, 1<<20)
//		n, err := io.ReadFull(r.Body, buf)
//		if err != nil && err != io.ErrUnexpectedEOF {
//			return nil, err
//		}
//		line, _, _ := bytes.Cut(buf[:n], []byte("\n"))
//		return line, nil // line keeps a slice of buf (make at load.go:12, 1 MiB) alive after firstLine returns; copy it with bytes.Clone
//	}
//
// Right:
//
//	return bytes.Clone(line), nil
//
// The suggested fix wraps the escaping expression in bytes.Clone,
// strings.Clone or slices.Clone. string(b[i:j]) and append([]byte(nil),
// b[i:j]...) copy too.
package retainslice

import _ "embed"

//go:embed doc.go
var doc string
