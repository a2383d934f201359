package signals

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"strings"
)

type event struct {
	Text string
	Last bool
}

// ok: the reader sends the event the server marks as the last and then
// stops; the receiver leaves its loop only on that mark (or when the
// reader closes the channel), so nothing is left to send.
func collect(r io.Reader) string {
	sc := bufio.NewScanner(r)
	events := make(chan event)
	go func() {
		defer close(events)
		for sc.Scan() {
			var ev event
			if json.Unmarshal(sc.Bytes(), &ev) != nil {
				continue
			}
			events <- ev
			if ev.Last {
				return
			}
		}
	}()
	var b strings.Builder
	for ev := range events {
		b.WriteString(ev.Text)
		if ev.Last {
			break
		}
	}
	return b.String()
}

// The twin whose receiver can also leave on its callback's error, in the
// middle of the stream: reported there, not at the mark.
func relay(ctx context.Context, r io.Reader, emit func(context.Context, string) error) (string, error) {
	sc := bufio.NewScanner(r)
	events := make(chan event)
	go func() {
		defer close(events)
		for sc.Scan() {
			var ev event
			if json.Unmarshal(sc.Bytes(), &ev) != nil {
				continue
			}
			events <- ev // want `send on events blocks forever once the receiver stops receiving \(return at marks.go:68\)`
			if ev.Last {
				return
			}
		}
	}()
	var b strings.Builder
	for ev := range events {
		if err := emit(ctx, ev.Text); err != nil {
			return "", err
		}
		b.WriteString(ev.Text)
		if ev.Last {
			break
		}
	}
	return b.String(), nil
}

type line struct {
	data []byte
	err  error
}

var done = []byte("[DONE]")

// ok: a method form: the reader forwards every line, the [DONE] line
// too, and stops after it; the receiver selects and leaves on a test of
// the line's text or of its error.
func (c *client) lines(ctx context.Context) ([]byte, error) {
	out := make(chan line)
	go func() {
		for {
			b, err := c.br.ReadBytes('\n')
			out <- line{b, err}
			if err != nil || bytes.HasPrefix(b, done) {
				return
			}
		}
	}()
	var all []byte
	for {
		l, ok := <-out
		if !ok {
			return all, nil
		}
		if errors.Is(l.err, io.EOF) || bytes.HasPrefix(l.data, done) {
			return all, nil
		}
		if l.err != nil {
			return nil, l.err
		}
		all = append(all, l.data...)
	}
}

type client struct{ br *bufio.Reader }

// The twin whose reader forwards every line with no mark of the last: a
// receiver that stops at the first match leaves it with more to send.
func (c *client) firstMatch(word string) bool {
	out := make(chan string)
	go func() {
		for {
			b, err := c.br.ReadString('\n')
			if err != nil {
				close(out)
				return
			}
			out <- b // want `send on out blocks forever once the receiver stops receiving \(return at marks.go:133\)`
		}
	}()
	for l := range out {
		if strings.Contains(l, word) {
			return true
		}
	}
	return false
}

// The twin of lines whose reader does not forward the [DONE] line and
// goes on reading: leaving on a line's text strands it.
func (c *client) linesUnmarked(ctx context.Context) ([]byte, error) {
	out := make(chan line)
	go func() {
		for {
			b, err := c.br.ReadBytes('\n')
			if err != nil {
				close(out)
				return
			}
			out <- line{data: b} // want `send on out blocks forever once the receiver stops receiving \(return at marks.go:\d+\)`
		}
	}()
	var all []byte
	for {
		l, ok := <-out
		if !ok {
			return all, nil
		}
		if bytes.HasPrefix(l.data, done) {
			return all, nil
		}
		all = append(all, l.data...)
	}
}
