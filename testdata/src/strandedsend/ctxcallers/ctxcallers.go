// Package ctxcallers fetches credentials under a context. Whether the
// context can ever be done is decided by the callers: a select case on
// the Done channel of a context every caller passes down from
// context.Background() never fires.
package ctxcallers

import (
	"context"
	"time"
)

type runner interface{ Execute() error }

type opts struct{ name string }

// New hands the options out as an interface: the unexported methods
// below are still called only from this package.
func New(name string) runner { return &opts{name: name} }

func fetch(string) (string, error) { return "", nil }

func (o *opts) Execute() error {
	ctx := context.Background()
	_, err := o.task(ctx)
	return err
}

func (o *opts) task(ctx context.Context) (string, error) {
	return o.creds(ctx)
}

// ok: ctx is context.Background() at every call, two calls up: its Done
// case never fires, and the other cases take the one value.
func (o *opts) creds(ctx context.Context) (string, error) {
	result := make(chan string)
	go func() {
		v, _ := fetch(o.name)
		result <- v
	}()
	select {
	case v := <-result:
		return v, nil
	case <-ctx.Done():
		return "", ctx.Err()
	}
}

func (o *opts) ExecuteWithin(d time.Duration) error {
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	_, err := o.credsTimed(ctx)
	return err
}

// The twin called with a context that times out.
func (o *opts) credsTimed(ctx context.Context) (string, error) {
	result := make(chan string)
	go func() {
		v, _ := fetch(o.name)
		result <- v // want `send on unbuffered result blocks forever once the receiver leaves \(case <-ctx.Done\(\) at ctxcallers.go:\d+\)`
	}()
	select {
	case v := <-result:
		return v, nil
	case <-ctx.Done():
		return "", ctx.Err()
	}
}

// The twin other packages call: their contexts are out of view.
func Creds(ctx context.Context, name string) (string, error) {
	result := make(chan string)
	go func() {
		v, _ := fetch(name)
		result <- v // want `send on unbuffered result blocks forever once the receiver leaves \(case <-ctx.Done\(\) at ctxcallers.go:\d+\)`
	}()
	select {
	case v := <-result:
		return v, nil
	case <-ctx.Done():
		return "", ctx.Err()
	}
}

func (o *opts) Refresh() error {
	_, err := o.viaClosure(context.Background())
	return err
}

// ok: the receiver is a closure, and the goroutine it starts captures
// the same never-done ctx: the variable that keeps it is only read.
func (o *opts) viaClosure(ctx context.Context) (string, error) {
	exec := func() (string, error) {
		result := make(chan string)
		go func() {
			select {
			case <-ctx.Done():
				return
			default:
			}
			v, _ := fetch(o.name)
			result <- v
		}()
		select {
		case v := <-result:
			return v, nil
		case <-ctx.Done():
			return "", ctx.Err()
		}
	}
	return exec()
}

func (o *opts) RefreshWithin(d time.Duration) error {
	_, err := o.viaClosureReset(context.Background(), d)
	return err
}

// The twin that replaces ctx with one that times out before the closure
// runs: the variable the closure reads is written twice.
func (o *opts) viaClosureReset(ctx context.Context, d time.Duration) (string, error) {
	var cancel context.CancelFunc
	ctx, cancel = context.WithTimeout(ctx, d)
	defer cancel()
	exec := func() (string, error) {
		result := make(chan string)
		go func() {
			v, _ := fetch(o.name)
			result <- v // want `send on unbuffered result blocks forever once the receiver leaves \(case <-ctx.Done\(\) at ctxcallers.go:\d+\)`
		}()
		select {
		case v := <-result:
			return v, nil
		case <-ctx.Done():
			return "", ctx.Err()
		}
	}
	return exec()
}
