package support

import (
	"errors"
	"time"
)

// silent by default (-strandedsend.tests): a stub server of a harness, in
// a file that does not mention package testing. A call that times out
// fails the test that made it; the stub's worker is left with the reply.
type call struct {
	method string
	reply  chan string
}

type Stub struct{ calls chan *call }

func (s *Stub) serve() {
	for c := range s.calls {
		c.reply <- "ok " + c.method
	}
}

func (s *Stub) Call(method string, d time.Duration) (string, error) {
	c := &call{method: method, reply: make(chan string)}
	s.calls <- c
	select {
	case r := <-c.reply:
		return r, nil
	case <-time.After(d):
		return "", errors.New("stub call timed out")
	}
}
