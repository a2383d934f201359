// Package sized holds the default run's evidence that a buffer is large:
// a size the program itself states, a make or an array of at least
// -retainslice.min-bytes. A buffer sized by its input (a body or a stream
// read to its end, a bytes.Buffer filled from one, a buffer read full
// with a length from a header) is as large as what the other side sends,
// and on code nobody had triaged that was most often a small answer of
// fixed format: such buffers count only with -retainslice.streams
// (their positive cases are in basic, which runs with it).
package sized

import (
	"bytes"
	"encoding/binary"
	"io"
	"net"
	"net/http"
	"os"
	"runtime"
	"strings"
)

// ok by default: the first line of a request body. Its size is the
// sender's; -retainslice.streams reports it.
func firstLine(r *http.Request) ([]byte, error) {
	data, err := io.ReadAll(r.Body)
	if err != nil {
		return nil, err
	}
	line, _, _ := bytes.Cut(data, []byte("\n"))
	return line, nil
}

// ok by default: a stream read to its end, converted and cut.
func firstField(f *os.File) string {
	data, _ := io.ReadAll(f)
	field, _, _ := strings.Cut(string(data), " ")
	return field
}

// ok by default: a bytes.Buffer filled from a response.
func status(resp *http.Response) string {
	var buf bytes.Buffer
	if _, err := buf.ReadFrom(resp.Body); err != nil {
		return ""
	}
	s := buf.String()
	word, _, _ := strings.Cut(s, " ")
	return word
}

// ok by default: a frame read full, sized by its header.
func frameKind(c net.Conn) ([]byte, error) {
	var hdr [4]byte
	if _, err := io.ReadFull(c, hdr[:]); err != nil {
		return nil, err
	}
	frame := make([]byte, binary.BigEndian.Uint32(hdr[:]))
	if _, err := io.ReadFull(c, frame); err != nil {
		return nil, err
	}
	kind, _, _ := bytes.Cut(frame, []byte{0})
	return kind, nil
}

// The twins: the same requests read into a buffer whose size the program
// states, 1 MiB, of which a line is kept.
func firstLineOfBlock(r *http.Request) ([]byte, error) {
	buf := make([]byte, 1<<20)
	n, err := io.ReadFull(r.Body, buf)
	if err != nil && err != io.ErrUnexpectedEOF {
		return nil, err
	}
	line, _, _ := bytes.Cut(buf[:n], []byte("\n"))
	return line, nil // want `line keeps a slice of buf \(make at sized.go:\d+, 1 MiB\) alive after firstLineOfBlock returns; copy it with bytes.Clone`
}

// And a large array on the stack, read full and converted whole: the
// string is as large as the array, and its pieces pin it.
func firstFieldOfBlock(f *os.File) string {
	var block [256 << 10]byte
	if _, err := io.ReadFull(f, block[:]); err != nil {
		return ""
	}
	s := string(block[:])
	field, _, _ := strings.Cut(s, " ")
	return field // want `field keeps a substring of s \(string\(block\[:\]\) at sized.go:\d+, up to 256 KiB\) alive after firstFieldOfBlock returns; copy it with strings.Clone`
}

// ok by default: the same array converted only as far as a read filled
// it. string(block[:n]) copies n bytes, as many as the file gave: a
// buffer sized by its input (-retainslice.streams reports it). Its
// sub-slices, unconverted, would pin the array (firstLineOfBlock).
func firstFieldRead(f *os.File) string {
	var block [256 << 10]byte
	n, _ := f.Read(block[:])
	s := string(block[:n])
	field, _, _ := strings.Cut(s, " ")
	return field
}

// ok by default: a goroutine dump read into a big buffer, converted
// and split; the copy is the dump's length, not the buffer's.
func stacks() []string {
	buf := make([]byte, 2<<20)
	buf = buf[:runtime.Stack(buf, true)]
	var gs []string
	for _, g := range strings.Split(string(buf), "\n\n") {
		if !strings.Contains(g, "testing.") {
			gs = append(gs, g)
		}
	}
	return gs
}
