// Package earlyreturn holds shape 2: a return path between the start of
// the sender and the receive.
package earlyreturn

import (
	"context"
	"errors"
	"io"
	"sync"
	"time"

	"golang.org/x/sync/errgroup"
)

func fetch() (string, error) { return "", nil }

func validate(string) error { return errStub }

// An error return between the go statement and the receive.
func load(name string) (string, error) {
	errc := make(chan error)
	var body string
	go func() {
		var err error
		body, err = fetch()
		errc <- err // want `send on unbuffered errc blocks forever once the receiver leaves \(return at earlyreturn.go:29\); the goroutine leaks — make errc buffered$`
	}()
	if err := validate(name); err != nil {
		return "", err
	}
	return body, <-errc
}

// ok: the twin that validates before starting the goroutine.
func loadValidated(name string) (string, error) {
	if err := validate(name); err != nil {
		return "", err
	}
	errc := make(chan error)
	var body string
	go func() {
		var err error
		body, err = fetch()
		errc <- err
	}()
	return body, <-errc
}

// ok: the early return drains the reply first.
func loadDrained(name string) (string, error) {
	errc := make(chan error)
	go func() {
		_, err := fetch()
		errc <- err
	}()
	if err := validate(name); err != nil {
		<-errc
		return "", err
	}
	return "", <-errc
}

// nope: the buffer holds the value the early return leaves behind.
func loadBuffered(name string) error {
	errc := make(chan error, 1)
	go func() {
		_, err := fetch()
		errc <- err
	}()
	if err := validate(name); err != nil {
		return err
	}
	return <-errc
}

// The context is checked before the receive: cancellation leaves.
func checkFirst(ctx context.Context) (string, error) {
	c := make(chan string)
	go func() {
		s, _ := fetch()
		c <- s // want `\(return at earlyreturn.go:84\); the goroutine leaks — make c buffered$`
	}()
	if err := ctx.Err(); err != nil {
		return "", err
	}
	return <-c, nil
}

// Two exclusive sends in the goroutine: the result or the error. Either
// is stranded when the caller returns early: one leak, one report, whose
// fix buffers both.
func either(deadline time.Time) (string, error) {
	resc := make(chan string)
	errc := make(chan error)
	go func() {
		s, err := fetch()
		if err != nil {
			errc <- err // want `send on unbuffered errc \(or resc\) blocks forever once the receiver leaves \(return at earlyreturn.go:104\); the goroutine leaks — make errc and resc buffered$`
			return
		}
		resc <- s
	}()
	if time.Now().After(deadline) {
		return "", errors.New("too late")
	}
	select {
	case s := <-resc:
		return s, nil
	case err := <-errc:
		return "", err
	}
}

// ok: the same two channels, always waited for: receiving either one
// means the goroutine sent its only value.
func eitherWaited() (string, error) {
	resc := make(chan string)
	errc := make(chan error)
	go func() {
		s, err := fetch()
		if err != nil {
			errc <- err
			return
		}
		resc <- s
	}()
	select {
	case s := <-resc:
		return s, nil
	case err := <-errc:
		return "", err
	}
}

// Two goroutines, one on each channel: the early return strands both,
// two leaks and two reports.
func both(deadline time.Time) (string, error) {
	resc := make(chan string)
	errc := make(chan error)
	go func() {
		s, _ := fetch()
		resc <- s // want `send on unbuffered resc blocks forever once the receiver leaves \(return at earlyreturn.go:149\); the goroutine leaks — make resc buffered$`
	}()
	go func() {
		_, err := fetch()
		errc <- err // want `send on unbuffered errc blocks forever once the receiver leaves \(return at earlyreturn.go:149\); the goroutine leaks — make errc buffered$`
	}()
	if time.Now().After(deadline) {
		return "", errors.New("too late")
	}
	return <-resc, <-errc
}

// errgroup and WaitGroup.Go start senders too.
func viaErrgroup(name string) error {
	var g errgroup.Group
	done := make(chan string)
	g.Go(func() error {
		s, err := fetch()
		done <- s // want `\(return at earlyreturn.go:164\)`
		return err
	})
	if err := validate(name); err != nil {
		return err
	}
	<-done
	return g.Wait()
}

func viaWaitGroup(name string) error {
	var wg sync.WaitGroup
	done := make(chan string)
	wg.Go(func() {
		s, _ := fetch()
		done <- s // want `\(return at earlyreturn.go:178\)`
	})
	if err := validate(name); err != nil {
		return err
	}
	<-done
	wg.Wait()
	return nil
}

// ok: both paths receive (the defer is not needed for that).
func bothPaths(name string) error {
	c := make(chan error)
	go func() {
		_, err := fetch()
		c <- err
	}()
	if err := validate(name); err != nil {
		<-c
		return err
	}
	return <-c
}

// nope: an early return taken before the goroutine starts.
func returnsBeforeStart(name string) error {
	c := make(chan error)
	if name == "" {
		return errors.New("no name")
	}
	go func() {
		_, err := fetch()
		c <- err
	}()
	return <-c
}

// The function ends without a return statement, and without receiving.
func fireAndForget() {
	c := make(chan error)
	go func() {
		_, err := fetch()
		c <- err // want `send on unbuffered c blocks forever once the receiver leaves \(the end of the function at earlyreturn.go:222\)`
	}()
	if err := validate("x"); err != nil {
		println(<-c)
	}
}

func setup() error { return errStub }

func upload(string) error { return errStub }

// Of several returns that leave the sender behind, the one named is the
// last (rclone's compress handlers): an early return on a setup error
// can come before the sender has done its work, the return after the
// upload fails comes when it surely has.
func compressAndUpload(name string) error {
	results := make(chan error)
	go func() {
		results <- validate(name) // want `send on unbuffered results blocks forever once the receiver leaves \(return at earlyreturn.go:241\); the goroutine leaks — make results buffered$`
	}()
	if err := setup(); err != nil {
		return err
	}
	if err := upload(name); err != nil {
		return err // the return the report names
	}
	return <-results
}

// ok: the only return before the receive is on the error of a call that
// never fails ((*io.PipeWriter).Close always returns nil), so it is
// never taken.
func digestPiped(write func(io.Writer) error) (int, error) {
	n := make(chan int)
	pr, pw := io.Pipe()
	go func() {
		b, _ := io.ReadAll(pr)
		n <- len(b)
	}()
	werr := write(pw)
	if err := pw.Close(); err != nil {
		return 0, err
	}
	return <-n, werr
}

// The twin whose early return follows a call that can fail.
func digestChecked(write func(io.Writer) error) (int, error) {
	n := make(chan int)
	pr, pw := io.Pipe()
	go func() {
		b, _ := io.ReadAll(pr)
		n <- len(b) // want `send on unbuffered n blocks forever once the receiver leaves \(return at earlyreturn.go:\d+\); the goroutine leaks — make n buffered`
	}()
	if err := write(pw); err != nil {
		pw.CloseWithError(err)
		return 0, err
	}
	pw.Close()
	return <-n, nil
}

// ok: the same through an io.WriteCloser a helper returns, which holds
// an *io.PipeWriter on every return.
func countingPipe() (io.WriteCloser, chan int) {
	n := make(chan int)
	pr, pw := io.Pipe()
	go func() {
		b, _ := io.ReadAll(pr)
		n <- len(b)
	}()
	return pw, n
}

func digestThroughHelper(write func(io.Writer) error) (int, error) {
	w, n := countingPipe()
	werr := write(w)
	if err := w.Close(); err != nil {
		return 0, err
	}
	return <-n, werr
}

// A machine whose extern work is a stub in this build: DoWork's every
// return gives a nil error.
type machine struct{ work chan bool }

func (m *machine) DoWork() error { return nil }

func (m *machine) Signal() { m.work <- true }

func (m *machine) compute(out chan<- int) { out <- 1 }

// ok: the only return besides the one after the value is on DoWork's
// error, which is nil on every return, so the case goes round and the
// loop takes the value (a VM whose run loop also serves extern work).
func (m *machine) runAll() int {
	out := make(chan int)
	go m.compute(out)
	for {
		select {
		case <-m.work:
			if err := m.DoWork(); err != nil {
				return 0
			}
		case v := <-out:
			return v
		}
	}
}

// The twin whose work can fail: the receiver leaves on its error.
type failingMachine struct{ work chan bool }

func (m *failingMachine) DoWork() error {
	if len(m.work) > 8 {
		return errors.New("backlog")
	}
	return nil
}

func (m *failingMachine) Signal() { m.work <- true }

func (m *failingMachine) compute(out chan<- int) {
	out <- 1 // want `send on unbuffered out blocks forever once the receiver leaves \(case <-m.work at earlyreturn.go:\d+\)`
}

func (m *failingMachine) runAll() int {
	out := make(chan int)
	go m.compute(out)
	for {
		select {
		case <-m.work:
			if err := m.DoWork(); err != nil {
				return 0
			}
		case v := <-out:
			return v
		}
	}
}

// errStub stands for the failures the stubs above may report: they can
// fail, as what they stand for can.
var errStub error
