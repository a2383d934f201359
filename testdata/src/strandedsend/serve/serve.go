// Package serve holds the server idiom: a goroutine runs an HTTP server
// and reports its error, and the function waits for that error or for
// cancellation, after which it shuts the server down. Shutdown makes
// Serve return http.ErrServerClosed; a sender that does not report that
// error has nothing left to send once the server is shut down.
package serve

import (
	"context"
	"errors"
	"net"
	"net/http"
	"time"
)

// ok: the goroutine drops ErrServerClosed, and every way out through
// cancellation shuts the server down first.
func Run(ctx context.Context, srv *http.Server, ln net.Listener) error {
	errs := make(chan error)
	go func() {
		if err := srv.Serve(ln); err != nil && err != http.ErrServerClosed {
			errs <- err
		}
	}()
	select {
	case err := <-errs:
		return err
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	return srv.Shutdown(sctx)
}

// ok: the same with errors.Is, and Close.
func RunClose(ctx context.Context, srv *http.Server) error {
	errs := make(chan error)
	go func() {
		if err := srv.ListenAndServe(); !errors.Is(err, http.ErrServerClosed) {
			errs <- err
		}
	}()
	select {
	case err := <-errs:
		return err
	case <-ctx.Done():
		return srv.Close()
	}
}

// The twin that reports every error: Shutdown's own ErrServerClosed is
// sent after the receiver has gone.
func RunAll(ctx context.Context, srv *http.Server) error {
	errs := make(chan error)
	go func() {
		errs <- srv.ListenAndServe() // want `send on unbuffered errs blocks forever once the receiver leaves \(case <-ctx.Done\(\) at serve.go:\d+\); the goroutine leaks — make errs buffered or select on ctx.Done\(\)`
	}()
	select {
	case err := <-errs:
		return err
	case <-ctx.Done():
		return srv.Shutdown(context.Background())
	}
}

// The twin that leaves without shutting the server down: it keeps
// serving, and when it fails its error has nobody to take it.
func RunDetached(ctx context.Context, srv *http.Server) error {
	errs := make(chan error)
	go func() {
		if err := srv.ListenAndServe(); err != nil && err != http.ErrServerClosed {
			errs <- err // want `send on unbuffered errs blocks forever once the receiver leaves \(case <-ctx.Done\(\) at serve.go:\d+\)`
		}
	}()
	select {
	case err := <-errs:
		return err
	case <-ctx.Done():
		return ctx.Err()
	}
}
