// Package premise holds positive shapes of strandedsend that are also
// run, by passes/strandedsend's premise test, to show the premise holds
// at run time: once the receiver leaves, the sender's goroutine stays
// blocked on its send; with the suggested fix applied (the ...Fixed twin
// of each), it exits.
//
// Each shape takes the work its goroutine does as a function, so the
// test decides when the work finishes: after the receiver has left.
package premise

import "context"

// Timeout waits for work's result or for ctx, whichever comes first.
func Timeout(ctx context.Context, work func() int) (int, error) {
	reply := make(chan int)
	go func() {
		reply <- work() // want `send on unbuffered reply blocks forever once the receiver leaves \(case <-ctx.Done\(\) at premise.go:22\)`
	}()
	select {
	case v := <-reply:
		return v, nil
	case <-ctx.Done():
		return 0, ctx.Err()
	}
}

// TimeoutFixed is Timeout with the suggested fix.
func TimeoutFixed(ctx context.Context, work func() int) (int, error) {
	reply := make(chan int, 1)
	go func() {
		reply <- work()
	}()
	select {
	case v := <-reply:
		return v, nil
	case <-ctx.Done():
		return 0, ctx.Err()
	}
}

// EarlyReturn starts work, then returns early if check fails.
func EarlyReturn(check func() error, work func() error) error {
	errc := make(chan error)
	go func() {
		errc <- work() // want `send on unbuffered errc blocks forever once the receiver leaves \(return at premise.go:48\)`
	}()
	if err := check(); err != nil {
		return err
	}
	return <-errc
}

// EarlyReturnFixed is EarlyReturn with the suggested fix.
func EarlyReturnFixed(check func() error, work func() error) error {
	errc := make(chan error, 1)
	go func() {
		errc <- work()
	}()
	if err := check(); err != nil {
		return err
	}
	return <-errc
}

// FirstError runs every job on its own goroutine and returns the first
// error.
func FirstError(jobs []func() error) error {
	errc := make(chan error)
	for _, job := range jobs {
		go func() {
			errc <- job() // want `send on errc blocks forever once the receiver leaves \(return at premise.go:76\) after 1 of len\(jobs\) values`
		}()
	}
	for range jobs {
		if err := <-errc; err != nil {
			return err
		}
	}
	return nil
}

// FirstErrorFixed is FirstError with the suggested fix.
func FirstErrorFixed(jobs []func() error) error {
	errc := make(chan error, len(jobs))
	for _, job := range jobs {
		go func() {
			errc <- job()
		}()
	}
	for range jobs {
		if err := <-errc; err != nil {
			return err
		}
	}
	return nil
}

// Async is a future: the caller may never read it.
func Async(work func() error) <-chan error {
	ch := make(chan error)
	go func() {
		ch <- work() // want `send on unbuffered ch blocks forever if the caller of Async stops waiting for the result`
	}()
	return ch
}

// AsyncFixed is Async with the suggested fix.
func AsyncFixed(work func() error) <-chan error {
	ch := make(chan error, 1)
	go func() {
		ch <- work()
	}()
	return ch
}

// A Server answers requests on one long-lived worker goroutine.
type Server struct {
	requests chan *request
	work     func() int
}

type request struct {
	reply chan int
}

// NewServer starts the worker.
func NewServer(work func() int) *Server {
	s := &Server{requests: make(chan *request), work: work}
	go s.serve()
	return s
}

func (s *Server) serve() {
	for req := range s.requests {
		req.reply <- s.work() // want `send on unbuffered req.reply blocks forever once the receiver leaves \(case <-ctx.Done\(\) at premise.go:146\)`
	}
}

// Get hands a request to the worker and waits for the reply or ctx.
func (s *Server) Get(ctx context.Context) (int, error) {
	req := &request{reply: make(chan int)}
	s.requests <- req
	select {
	case v := <-req.reply:
		return v, nil
	case <-ctx.Done():
		return 0, ctx.Err()
	}
}

// A FixedServer is Server with the suggested fix.
type FixedServer struct {
	requests chan *fixedRequest
	work     func() int
}

type fixedRequest struct {
	reply chan int
}

// NewFixedServer starts the worker.
func NewFixedServer(work func() int) *FixedServer {
	s := &FixedServer{requests: make(chan *fixedRequest), work: work}
	go s.serve()
	return s
}

func (s *FixedServer) serve() {
	for req := range s.requests {
		req.reply <- s.work()
	}
}

// Get hands a request to the worker and waits for the reply or ctx.
func (s *FixedServer) Get(ctx context.Context) (int, error) {
	req := &fixedRequest{reply: make(chan int, 1)}
	s.requests <- req
	select {
	case v := <-req.reply:
		return v, nil
	case <-ctx.Done():
		return 0, ctx.Err()
	}
}
