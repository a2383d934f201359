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
