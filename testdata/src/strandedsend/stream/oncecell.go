package stream

import (
	"io"
	"strings"
	"time"
)

// ok: a watcher reads its child's output in chunks and walks each
// chunk's lines with a range-over-func loop, whose body is a function
// the iterator calls one line at a time. The flag it tests and sets
// before its only send is a variable of the goroutine, made once, never
// cleared: it sends one value, which the buffer holds when the receiver
// gives up (validation set 31, ddev's listener readiness).
func awaitReady(out io.Reader, d time.Duration) bool {
	ready := make(chan bool, 1)
	go func() {
		buf := make([]byte, 4096)
		seen := false
		for {
			n, err := out.Read(buf)
			if err != nil {
				return
			}
			for line := range strings.SplitSeq(string(buf[:n]), "\n") {
				if strings.TrimSpace(line) == "READY" && !seen {
					seen = true
					ready <- true
				}
			}
		}
	}()
	select {
	case <-ready:
		return true
	case <-time.After(d):
		return false
	}
}

// ok: the same with the flag set after the send, in a plain loop whose
// flag a deferred closure also reads (so it is a variable, not a value
// the loop carries).
func awaitReadyLogged(lines <-chan string, d time.Duration, log func(bool)) bool {
	ready := make(chan bool, 1)
	go func() {
		seen := false
		defer func() { log(seen) }()
		for line := range lines {
			if !seen && line == "READY" {
				ready <- true
				seen = true
			}
		}
	}()
	select {
	case <-ready:
		return true
	case <-time.After(d):
		return false
	}
}

// The twin whose flag is made afresh for every chunk: it can send once
// per chunk, and once the receiver has given up the second one blocks.
func awaitReadyPerChunk(out io.Reader, d time.Duration) bool {
	ready := make(chan bool, 1)
	go func() {
		buf := make([]byte, 4096)
		for {
			n, err := out.Read(buf)
			if err != nil {
				return
			}
			seen := false
			for line := range strings.SplitSeq(string(buf[:n]), "\n") {
				if strings.TrimSpace(line) == "READY" && !seen {
					seen = true
					ready <- true // want `send on ready blocks forever once the receiver stops receiving \(case <-time.After\(d\) at oncecell.go:\d+\)`
				}
			}
		}
	}()
	select {
	case <-ready:
		return true
	case <-time.After(d):
		return false
	}
}

// The twin whose flag a "RESTART" line clears: it sends once per
// restart.
func awaitReadyRestarts(out io.Reader, d time.Duration) bool {
	ready := make(chan bool, 1)
	go func() {
		buf := make([]byte, 4096)
		seen := false
		for {
			n, err := out.Read(buf)
			if err != nil {
				return
			}
			for line := range strings.SplitSeq(string(buf[:n]), "\n") {
				switch strings.TrimSpace(line) {
				case "RESTART":
					seen = false
				case "READY":
					if !seen {
						seen = true
						ready <- true // want `send on ready blocks forever once the receiver stops receiving \(case <-time.After\(d\) at oncecell.go:\d+\)`
					}
				}
			}
		}
	}()
	select {
	case <-ready:
		return true
	case <-time.After(d):
		return false
	}
}

// ok: the readiness line is sent once, under its flag, and every other
// line goes to a second channel. The two are no pair of answers, one per
// line: the readiness is a signal of its own, one value its buffer
// holds, whatever becomes of the lines (validation set 31, ddev's
// listener, which also forwards its output).
func awaitReadyForwarding(out io.Reader, d time.Duration) (string, bool) {
	ready := make(chan bool, 1)
	lines := make(chan string, 10)
	go func() {
		buf := make([]byte, 4096)
		seen := false
		for {
			n, err := out.Read(buf)
			if err != nil {
				return
			}
			for line := range strings.SplitSeq(string(buf[:n]), "\n") {
				if line == "READY" && !seen {
					seen = true
					ready <- true
					continue
				}
				lines <- line
			}
		}
	}()
	select {
	case <-ready:
		return "", true
	case line := <-lines:
		return line, false
	case <-time.After(d):
		return "", false
	}
}

// The twin with no flag: each "READY" line is sent, one answer per line
// with the forwarded ones, and once the receiver has given up they block
// (the two channels are counted together).
func awaitReadyForwardingEach(out io.Reader, d time.Duration) (string, bool) {
	ready := make(chan bool, 1)
	lines := make(chan string, 10)
	go func() {
		buf := make([]byte, 4096)
		for {
			n, err := out.Read(buf)
			if err != nil {
				return
			}
			for line := range strings.SplitSeq(string(buf[:n]), "\n") {
				if line == "READY" {
					ready <- true // want `send on ready blocks forever once the receiver stops receiving \(case <-time.After\(d\) at oncecell.go:\d+\)`
					continue
				}
				lines <- line
			}
		}
	}()
	select {
	case <-ready:
		return "", true
	case line := <-lines:
		return line, false
	case <-time.After(d):
		return "", false
	}
}
