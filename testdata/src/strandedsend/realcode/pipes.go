package realcode

import (
	"bufio"
	"context"
	"io"
)

// nope: a reader goroutine forwarding lines from a pipe whose writer is
// only ever closed with Close: its reads fail with io.EOF alone, on
// which it breaks, so the send of any other error is never made
// (validation set 30, helmfile's live output).
func liveOutput(ctx context.Context, run func(io.Writer) error, out func(string)) error {
	pr, pw := io.Pipe()
	errc := make(chan error)
	done := make(chan struct{})
	go func() {
		defer close(done)
		r := bufio.NewReader(pr)
		for {
			line, err := r.ReadString('\n')
			if err != nil {
				if err == io.EOF {
					break
				}
				errc <- err
			}
			out(line)
		}
	}()
	err := run(pw)
	pw.Close()
	select {
	case err2 := <-errc:
		return err2
	case <-ctx.Done():
		return ctx.Err()
	case <-done:
	}
	return err
}

// The twin whose writer is closed with an error: a read then returns
// that error, and the send is made after the receiver may have left.
func liveOutputFailed(ctx context.Context, run func(io.Writer) error, out func(string)) error {
	pr, pw := io.Pipe()
	errc := make(chan error)
	done := make(chan struct{})
	go func() {
		defer close(done)
		r := bufio.NewReader(pr)
		for {
			line, err := r.ReadString('\n')
			if err != nil {
				if err == io.EOF {
					break
				}
				errc <- err // want `send on errc blocks forever once the receiver stops receiving \(case <-ctx.Done\(\) at pipes.go:\d+\)`
			}
			out(line)
		}
	}()
	err := run(pw)
	pw.CloseWithError(err)
	select {
	case err2 := <-errc:
		return err2
	case <-ctx.Done():
		return ctx.Err()
	case <-done:
	}
	return err
}
