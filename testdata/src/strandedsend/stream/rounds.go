package stream

import "net"

// An accept loop that forgets to return after reporting its error: the
// error send is made at most once a round, and a round ends when the
// receiver takes a connection. The receiver leaves only having just
// taken the error, so the one the goroutine may still send fits the
// buffer: it then blocks on conns, which is what leaks.
func serveUntilError(l net.Listener, handle func(net.Conn)) error {
	conns := make(chan net.Conn)
	errc := make(chan error, 1)
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				errc <- err
			}
			conns <- c // want `send on conns blocks forever once the receiver stops receiving \(case <-errc at rounds.go:\d+\)`
		}
	}()
	for {
		select {
		case err := <-errc:
			return err
		case c := <-conns:
			handle(c)
		}
	}
}

// The twin that can also leave on stop: having taken a connection, the
// receiver may leave while an error waits in the buffer, and the
// goroutine's next error send blocks.
func serveUntilStop(l net.Listener, handle func(net.Conn), stop <-chan struct{}) error {
	conns := make(chan net.Conn)
	errc := make(chan error, 1)
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				errc <- err // want `send on errc blocks forever once the receiver stops receiving \(case <-stop at rounds.go:\d+\)`
			}
			conns <- c // want `send on conns blocks forever once the receiver stops receiving \(case <-stop at rounds.go:\d+\)`
		}
	}()
	for {
		select {
		case <-stop:
			return nil
		case err := <-errc:
			return err
		case c := <-conns:
			handle(c)
		}
	}
}

// The twin whose error path goes round without a connection: errors are
// a stream of their own, and the third blocks once the receiver has
// left with the first.
func serveRetrying(l net.Listener, handle func(net.Conn)) error {
	conns := make(chan net.Conn)
	errc := make(chan error, 1)
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				errc <- err // want `send on errc blocks forever once the receiver stops receiving \(return at rounds.go:\d+\)`
				continue
			}
			conns <- c // want `send on conns blocks forever once the receiver stops receiving \(return at rounds.go:\d+\)`
		}
	}()
	for {
		select {
		case err := <-errc:
			return err
		case c := <-conns:
			handle(c)
		}
	}
}

// The twin whose connections are buffered: the goroutine gets a
// connection ahead, so a round no longer waits for the receiver.
func serveBuffered(l net.Listener, handle func(net.Conn)) error {
	conns := make(chan net.Conn, 1)
	errc := make(chan error, 1)
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				errc <- err // want `send on errc blocks forever once the receiver stops receiving \(return at rounds.go:\d+\)`
			}
			conns <- c // want `send on conns blocks forever once the receiver stops receiving \(case <-errc at rounds.go:\d+\)`
		}
	}()
	for {
		select {
		case err := <-errc:
			return err
		case c := <-conns:
			handle(c)
		}
	}
}

// The same accept loop as a function the goroutine runs, given both
// channels: its error send is still one a round.
func serveThrough(l net.Listener, handle func(net.Conn)) error {
	conns := make(chan net.Conn)
	errc := make(chan error, 1)
	go acceptInto(l, conns, errc)
	for {
		select {
		case err := <-errc:
			return err
		case c := <-conns:
			handle(c)
		}
	}
}

func acceptInto(l net.Listener, conns chan<- net.Conn, errc chan<- error) {
	for {
		c, err := l.Accept()
		if err != nil {
			errc <- err
		}
		conns <- c // want `send on conns blocks forever once the receiver stops receiving \(case <-errc at rounds.go:\d+\)`
	}
}
