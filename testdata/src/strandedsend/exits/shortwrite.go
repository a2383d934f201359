package exits

import (
	"errors"
	"io"
)

var errShort = errors.New("short write")

func reply(raw []byte) []byte { return raw }

// ok: an io.Writer that writes fewer than len(p) bytes returns an error
// (io.Writer's contract), so the return after a nil error and a short
// count is never taken; the error's own way out waits for the reply
// first (validation set 40, gatt: a short-write check after a write to
// a raw socket).
func writeThenWait(w io.Writer, raw []byte) ([]byte, error) {
	done := make(chan []byte)
	go func() {
		done <- reply(raw)
	}()
	n, err := w.Write(raw)
	if err != nil {
		<-done
		return nil, err
	}
	if n != len(raw) {
		return nil, errShort
	}
	return <-done, nil
}

// The same when the error return skips the receive: the report names
// it, not the short-write check that cannot be taken.
func writeOrLeave(w io.Writer, raw []byte) ([]byte, error) {
	done := make(chan []byte)
	go func() {
		done <- reply(raw) // want `send on unbuffered done blocks forever once the receiver leaves \(return at shortwrite.go:41\)`
	}()
	if n, err := w.Write(raw); err != nil {
		return nil, err
	} else if n < len(raw) {
		return nil, errShort
	}
	return <-done, nil
}

// A count compared with anything but the length written is no such
// check: the return under it is a way out.
func writeCounted(w io.Writer, raw []byte, want int) ([]byte, error) {
	done := make(chan []byte)
	go func() {
		done <- reply(raw) // want `send on unbuffered done blocks forever once the receiver leaves \(return at shortwrite.go:61\)`
	}()
	n, err := w.Write(raw)
	if err != nil {
		<-done
		return nil, err
	}
	if n != want {
		return nil, errShort
	}
	return <-done, nil
}
