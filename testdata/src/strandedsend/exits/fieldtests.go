package exits

import (
	"errors"
	"io"
)

type stream interface {
	io.Reader
	Close() error
}

type forwarder struct {
	conn   func() (stream, error) // nil when there is no connection
	failed func(error)
}

// ok: the error reader is started only when f.conn is set, and the early
// return is taken only when it is not; f.conn does not change in
// between, so the return never leaves a sender behind.
func (f *forwarder) handle(open func() (stream, error)) error {
	errc := make(chan error)
	if f.conn == nil {
		go func() {
			errc <- errors.New("no connection")
			close(errc)
		}()
	}
	if f.conn != nil {
		if _, err := open(); err != nil {
			f.failed(err)
			return err
		}
	}
	return <-errc
}

// The twin that tests two different fields: the reader runs when f.conn
// is nil, and the early return is taken on the other field's test, which
// can hold at the same time.
func (f *forwarder) handleOther(open func() (stream, error)) error {
	errc := make(chan error)
	if f.conn == nil {
		go func() {
			errc <- errors.New("no connection") // want `send on unbuffered errc blocks forever once the receiver leaves \(return at fieldtests.go:\d+\)`
			close(errc)
		}()
	}
	if f.failed != nil {
		if _, err := open(); err != nil {
			f.failed(err)
			return err
		}
	}
	return <-errc
}

// The twin that resets the field between its tests: the second test may
// go the other way.
func (f *forwarder) handleReset(open func() (stream, error)) error {
	errc := make(chan error)
	if f.conn == nil {
		go func() {
			errc <- errors.New("no connection") // want `send on unbuffered errc blocks forever once the receiver leaves \(return at fieldtests.go:\d+\)`
			close(errc)
		}()
		f.conn = open
	}
	if f.conn != nil {
		if _, err := open(); err != nil {
			f.failed(err)
			return err
		}
	}
	return <-errc
}

// options is passed by value: a function's copy of it is its own.
type options struct {
	driver  stream // nil when no driver runs
	verbose bool
}

// ok: the driver's goroutine is started only when opts.driver is set,
// and the receive is skipped only when it is not. opts is the function's
// own copy, a parameter the goroutine captures and only reads, so both
// tests read one value (validation set 36, rootlesskit's child: the port
// driver's error is sent only when a driver was started, and the return
// past its receive is taken only when none was).
func runChild(opts options, ready func() error) error {
	errc := make(chan error)
	if opts.driver != nil {
		go func() {
			_, err := opts.driver.Read(nil)
			errc <- err
		}()
	}
	if err := ready(); err != nil && opts.driver == nil {
		return err
	}
	if opts.driver != nil {
		return <-errc
	}
	return nil
}

// The twin whose goroutine writes its field: the copy is shared with the
// goroutine, which may clear opts.driver before the second test.
func runChildCleared(opts options, ready func() error) error {
	errc := make(chan error)
	if opts.driver != nil {
		go func() {
			_, err := opts.driver.Read(nil)
			opts.driver = nil
			errc <- err // want `send on unbuffered errc blocks forever once the receiver leaves \(return at fieldtests.go:\d+\)`
		}()
	}
	if err := ready(); err != nil && opts.driver == nil {
		return err
	}
	if opts.driver != nil {
		return <-errc
	}
	return nil
}
