package serve

import (
	"context"
	"net"
	"net/http"
	"time"
)

// A mux splits one listener into several by what each connection
// starts with, as connection multiplexers do.
type mux struct{ root net.Listener }

func newMux(l net.Listener) *mux { return &mux{root: l} }

func (m *mux) match(prefix string) net.Listener { return m.root }
func (m *mux) rest() net.Listener               { return m.root }
func (m *mux) Close() error                     { return m.root.Close() }

// ok: nothing can stop either server. Each is made by its goroutine and
// used for nothing else, and the listeners are the function's own, made
// from one it never closes: Serve returns only when its listener fails,
// so the plain goroutine never sends. ServeTLS sends at most once (a
// certificate that does not load), and the buffer holds that one.
func RunMux(ctx context.Context, addr, cert, key string) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	m := newMux(ln)
	tlsLn, plainLn := m.match("\x16"), m.rest()
	errs := make(chan error, 1)
	go func() {
		srv := &http.Server{Addr: addr, ReadHeaderTimeout: time.Second}
		if err := srv.ServeTLS(tlsLn, cert, key); err != nil {
			errs <- err
		}
	}()
	go func() {
		srv := &http.Server{Addr: addr, ReadHeaderTimeout: time.Second}
		if err := srv.Serve(plainLn); err != nil {
			errs <- err
		}
	}()
	select {
	case err := <-errs:
		return err
	case <-ctx.Done():
		return ctx.Err()
	}
}

// The twin that closes the listener when it returns: after the leave
// through ctx.Done, both servers fail, and one error has no room.
func RunMuxClosed(ctx context.Context, addr, cert, key string) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	defer ln.Close()
	m := newMux(ln)
	tlsLn, plainLn := m.match("\x16"), m.rest()
	errs := make(chan error, 1)
	go func() {
		srv := &http.Server{Addr: addr, ReadHeaderTimeout: time.Second}
		if err := srv.ServeTLS(tlsLn, cert, key); err != nil {
			errs <- err // want `send on errs blocks forever once the receiver leaves \(case <-ctx.Done\(\) at endless.go:\d+\) before any of 2 values, with room for 1`
		}
	}()
	go func() {
		srv := &http.Server{Addr: addr, ReadHeaderTimeout: time.Second}
		if err := srv.Serve(plainLn); err != nil {
			errs <- err
		}
	}()
	select {
	case err := <-errs:
		return err
	case <-ctx.Done():
		return ctx.Err()
	}
}

// ok: one server on a listener nothing closes. When the receiver leaves,
// the goroutine goes on serving (what leaks is the server, not a send):
// its send is never reached.
func ServeOwn(ctx context.Context, h http.Handler) error {
	ln, err := net.Listen("tcp", "localhost:0")
	if err != nil {
		return err
	}
	errs := make(chan error)
	go func() {
		errs <- http.Serve(ln, h)
	}()
	select {
	case err := <-errs:
		return err
	case <-ctx.Done():
		return ctx.Err()
	}
}

// The twin that closes the listener on cancellation: Serve then returns,
// and its error has nobody to take it.
func ServeUntilDone(ctx context.Context, h http.Handler) error {
	ln, err := net.Listen("tcp", "localhost:0")
	if err != nil {
		return err
	}
	go func() {
		<-ctx.Done()
		ln.Close()
	}()
	errs := make(chan error)
	go func() {
		errs <- http.Serve(ln, h) // want `send on unbuffered errs blocks forever once the receiver leaves \(case <-ctx.Done\(\) at endless.go:\d+\)`
	}()
	select {
	case err := <-errs:
		return err
	case <-ctx.Done():
		return ctx.Err()
	}
}

// The twin whose server is kept where another method can shut it down:
// Serve returns ErrServerClosed, which it sends.
type Frontend struct{ srv *http.Server }

func (f *Frontend) Run(ctx context.Context) error {
	ln, err := net.Listen("tcp", "localhost:0")
	if err != nil {
		return err
	}
	srv := &http.Server{ReadHeaderTimeout: time.Second}
	f.srv = srv
	errs := make(chan error)
	go func() {
		errs <- srv.Serve(ln) // want `send on unbuffered errs blocks forever once the receiver leaves \(case <-ctx.Done\(\) at endless.go:\d+\)`
	}()
	select {
	case err := <-errs:
		return err
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (f *Frontend) Stop() error { return f.srv.Close() }

// ok: a docs server configured through its setter, on a listener whose
// address the function reads to print it: neither can stop the server,
// so the early return on a browser that does not open leaves it serving,
// not sending (validation set 32, go-swagger's serve command).
func ServeDocs(h http.Handler, open func(string) error) error {
	ln, err := net.Listen("tcp", "localhost:0")
	if err != nil {
		return err
	}
	url := "http://" + ln.Addr().String()
	errs := make(chan error)
	go func() {
		srv := new(http.Server)
		srv.SetKeepAlivesEnabled(true)
		srv.Handler = h
		errs <- srv.Serve(ln)
	}()
	if err := open(url); err != nil {
		return err
	}
	return <-errs
}

// The twin that hands the server's shutdown to a hook it registers with
// the caller: the hook can stop it, and its send is then stranded.
func ServeDocsStoppable(h http.Handler, open func(string) error, onStop func(func())) error {
	ln, err := net.Listen("tcp", "localhost:0")
	if err != nil {
		return err
	}
	url := "http://" + ln.Addr().String()
	errs := make(chan error)
	go func() {
		srv := new(http.Server)
		srv.SetKeepAlivesEnabled(true)
		srv.Handler = h
		onStop(func() { srv.Close() })
		errs <- srv.Serve(ln) // want `send on unbuffered errs blocks forever once the receiver leaves \(return at endless.go:\d+\)`
	}()
	if err := open(url); err != nil {
		return err
	}
	return <-errs
}
