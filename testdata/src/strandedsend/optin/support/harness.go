// Package support is test support: its non-test files use *testing.T
// (a spec runner, a harness), so its receivers are test code wherever
// they are declared, as in a _test.go file. The default run leaves them
// to -strandedsend.tests; their production twins are in optin.
package support

import (
	"context"
	"testing"
	"time"
)

// RunSteps runs each step of a spec under a time limit, failing the
// test on the first error.
func RunSteps(t *testing.T, steps []func() error) {
	for _, step := range steps {
		if err := guard(step, 10*time.Second); err != nil {
			t.Fatal(err)
		}
	}
}

// silent by default (-strandedsend.tests): a test helper outside a
// _test.go file, known by its call of t.Helper(). Its timeout is a test
// failure in its callers' hands, like a receiver in a test file.
func AwaitWithTimeout(t testing.TB, d time.Duration, fn func() error) error {
	t.Helper()
	errc := make(chan error)
	go func() {
		errc <- fn()
	}()
	select {
	case err := <-errc:
		return err
	case <-time.After(d):
		return context.DeadlineExceeded
	}
}

// silent by default too: the same helper on a *testing.T.
func AwaitT(t *testing.T, d time.Duration, fn func() error) error {
	t.Helper()
	errc := make(chan error)
	go func() {
		errc <- fn()
	}()
	select {
	case err := <-errc:
		return err
	case <-time.After(d):
		return context.DeadlineExceeded
	}
}
