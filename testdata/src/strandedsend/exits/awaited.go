package exits

import (
	"context"
	"errors"
	"net"
)

type accepted struct {
	c   *net.TCPConn
	err error
}

// ok: the goroutine waits in AcceptTCP for the connection this function
// dials itself, and sends what the accept returned. When the dial to the
// listener's address fails, nothing connects: the goroutine is still in
// its accept, not at its send, so leaving there strands no send
// (validation set 42, socketpair). (That goroutine and the listener do
// leak in the accept: closing the listener on the way out is the fix, a
// buffer is not, and this pass does not look at waits other than sends.)
func loopbackPair() (*net.TCPConn, *net.TCPConn, error) {
	l, err := net.ListenTCP("tcp", nil)
	if err != nil {
		return nil, nil, err
	}
	addr := l.Addr().(*net.TCPAddr)
	res := make(chan accepted)
	go func() {
		c, err := l.AcceptTCP()
		res <- accepted{c: c, err: err}
	}()
	client, err := net.DialTCP("tcp", nil, addr)
	if err != nil {
		return nil, nil, err
	}
	a := <-res
	if a.err != nil {
		return nil, nil, a.err
	}
	return client, a.c, nil
}

var errNoPort = errors.New("no port")

func pickNetwork() (string, error) { return "tcp", nil }

// ok: the same through net.Listener and the address's string, and a way
// out before the dial: the goroutine is in its accept until the dial.
func loopbackConns() (net.Conn, net.Conn, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, nil, err
	}
	conns := make(chan net.Conn)
	go func() {
		c, _ := l.Accept()
		conns <- c
	}()
	network, err := pickNetwork()
	if err != nil {
		return nil, nil, err
	}
	client, err := net.Dial(network, l.Addr().String())
	if err != nil {
		return nil, nil, errNoPort
	}
	return client, <-conns, nil
}

// Once the dial has succeeded, the accept returns and the goroutine
// sends: a way out after it strands the send.
func loopbackTuned() (*net.TCPConn, *net.TCPConn, error) {
	l, err := net.ListenTCP("tcp", nil)
	if err != nil {
		return nil, nil, err
	}
	addr := l.Addr().(*net.TCPAddr)
	res := make(chan accepted)
	go func() {
		c, err := l.AcceptTCP()
		res <- accepted{c: c, err: err} // want `send on unbuffered res blocks forever once the receiver leaves \(return at awaited.go:88\)`
	}()
	client, err := net.DialTCP("tcp", nil, addr)
	if err != nil {
		return nil, nil, err
	}
	if err := client.SetNoDelay(true); err != nil {
		return nil, nil, err
	}
	a := <-res
	return client, a.c, a.err
}

// A listener whose connections come from elsewhere: the function makes
// no step the accept waits for, so the goroutine may be at its send
// whenever the context ends.
func acceptOne(ctx context.Context, l net.Listener) (net.Conn, error) {
	conns := make(chan net.Conn)
	go func() {
		c, _ := l.Accept()
		conns <- c // want `send on unbuffered conns blocks forever once the receiver leaves \(case <-ctx.Done\(\) at awaited.go:106\)`
	}()
	select {
	case c := <-conns:
		return c, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}
