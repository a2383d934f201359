// Package lockstep holds request/reply in lockstep: a goroutine loops on
// a request channel and answers each request it takes with at most one
// value, and the function that started it sends one request at a time,
// taking the reply before it sends the next. However long the
// conversation, at most one reply is ever outstanding, so a reply
// channel with room for one never strands the answering goroutine; an
// unbuffered one does, when the asker leaves between request and reply.
package lockstep

import (
	"errors"
	"strings"
)

type prompter interface {
	Prompt(p string) (string, error)
}

// Shell is an interactive loop in the style of a REPL: the line reader
// runs in its own goroutine so that the loop can also watch for stop.
type Shell struct {
	in   prompter
	stop chan struct{}
}

// readLines answers each prompt it takes with one line or one error.
// Run below gives it room for its answer; RunUnbuffered does not, and its
// leave is what the reports name.
func (s *Shell) readLines(lines chan<- string, errs chan<- error, prompts <-chan string) {
	for p := range prompts {
		line, err := s.in.Prompt(p)
		if err != nil {
			errs <- err // want `send on unbuffered errs \(or lines\) blocks forever once the receiver leaves \(case <-s.stop at lockstep.go:\d+\); the goroutine leaks — make errs and lines buffered`
		} else {
			lines <- line
		}
	}
}

// ok: one prompt at a time, each answered before the next is sent; the
// reply to the last prompt fits in the buffer when the loop leaves.
func (s *Shell) Run(eval func(string)) {
	lines := make(chan string, 1)
	errs := make(chan error, 1)
	prompts := make(chan string)
	go s.readLines(lines, errs, prompts)
	defer close(prompts)
	for {
		prompts <- "> "
		select {
		case <-s.stop:
			return
		case <-errs:
			return
		case line := <-lines:
			if strings.TrimSpace(line) == "exit" {
				return
			}
			eval(line)
		}
	}
}

// The twin with unbuffered replies: leaving through stop after the prompt
// was sent strands the reader's answer.
func (s *Shell) RunUnbuffered(eval func(string)) {
	lines := make(chan string)
	errs := make(chan error)
	prompts := make(chan string)
	go s.readLines(lines, errs, prompts)
	defer close(prompts)
	for {
		prompts <- "> "
		select {
		case <-s.stop:
			return
		case <-errs:
			return
		case line := <-lines:
			eval(line)
		}
	}
}

// ok: a closure that takes requests with an explicit receive, a reply of
// room one, and a caller that gives up between requests only.
func lookupAll(keys []string, find func(string) (int, bool), stop <-chan struct{}) []int {
	req := make(chan string)
	reply := make(chan int, 1)
	go func() {
		for {
			k, ok := <-req
			if !ok {
				return
			}
			if v, found := find(k); found {
				reply <- v
			} else {
				reply <- -1
			}
		}
	}()
	defer close(req)
	var out []int
	for _, k := range keys {
		req <- k
		select {
		case v := <-reply:
			out = append(out, v)
		case <-stop:
			return out
		}
	}
	return out
}

// Pipelined: two requests go out before the first reply is taken, so two
// replies can be outstanding and a buffer of one is not enough.
func lookupPairs(pairs [][2]string, find func(string) int, stop <-chan struct{}) []int {
	req := make(chan string)
	reply := make(chan int, 1)
	go func() {
		for k := range req {
			reply <- find(k) // want `send on reply blocks forever once the receiver leaves \(case <-stop at lockstep.go:\d+\) before any of 2 values, with room for 1; the goroutine leaks — make reply's capacity 2`
		}
	}()
	defer close(req)
	var out []int
	for _, p := range pairs {
		req <- p[0]
		req <- p[1]
		select {
		case a := <-reply:
			out = append(out, a, <-reply)
		case <-stop:
			return out
		}
	}
	return out
}

var errStopped = errors.New("stopped")

// Two answers per request (progress, then the result) are a stream, not
// a lockstep: the buffer of one can hold the first while the second
// blocks.
func fetchAll(urls []string, get func(string) int, stop <-chan struct{}) (sum int, err error) {
	req := make(chan string)
	progress := make(chan int, 1)
	go func() {
		for u := range req {
			progress <- 0 // want `send on progress blocks forever once the receiver stops receiving \(case <-stop at lockstep.go:\d+\); the goroutine leaks — select on ctx.Done\(\) or a done channel as well`
			progress <- get(u)
		}
	}()
	defer close(req)
	for _, u := range urls {
		req <- u
		select {
		case <-progress:
		case <-stop:
			return sum, errStopped
		}
		select {
		case v := <-progress:
			sum += v
		case <-stop:
			return sum, errStopped
		}
	}
	return sum, nil
}

// Stop ends Run: the loop leaves through its stop case.
func (s *Shell) Stop() { close(s.stop) }
