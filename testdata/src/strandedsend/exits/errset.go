package exits

import (
	"fmt"
	"sync"
	"time"
)

type consumer struct {
	fetchers, workers sync.WaitGroup
}

// ok: the first waiter's value is taken on the path that starts the
// second (the timeout case sets err, and err != nil returns), so the
// second waiter finds the buffer empty whichever way the receiver
// leaves.
func (c *consumer) stop(timeout time.Duration) error {
	done := make(chan struct{}, 1)
	go func() {
		c.fetchers.Wait()
		done <- struct{}{}
	}()

	var err error
	select {
	case <-done:
	case <-time.After(timeout):
		err = fmt.Errorf("fetchers not stopped after %s", timeout)
	}
	if err != nil {
		return err
	}

	go func() {
		c.workers.Wait()
		done <- struct{}{}
	}()
	select {
	case <-done:
	case <-time.After(timeout):
		return fmt.Errorf("workers not stopped after %s", timeout)
	}
	return nil
}

// The twin that only logs the first timeout and goes on: the first
// waiter's value may still fill the buffer when the second waiter sends.
func (c *consumer) stopLogging(timeout time.Duration, logf func(string, ...any)) error {
	done := make(chan struct{}, 1)
	go func() {
		c.fetchers.Wait()
		done <- struct{}{} // want `send on done blocks forever once the receiver leaves \(case <-time.After\(timeout\) at errset.go:\d+\) before any of 2 values, with room for 1`
	}()

	var err error
	select {
	case <-done:
	case <-time.After(timeout):
		err = fmt.Errorf("fetchers not stopped after %s", timeout)
	}
	if err != nil {
		logf("%v", err)
	}

	go func() {
		c.workers.Wait()
		done <- struct{}{}
	}()
	select {
	case <-done:
	case <-time.After(timeout):
		return fmt.Errorf("workers not stopped after %s", timeout)
	}
	return nil
}

// The twin whose error may be nil on the timeout path (a callback's
// result), so the path that goes on after the timeout cannot be ruled
// out.
func (c *consumer) stopReported(timeout time.Duration, report func() error) error {
	done := make(chan struct{}, 1)
	go func() {
		c.fetchers.Wait()
		done <- struct{}{} // want `send on done blocks forever once the receiver leaves \(case <-time.After\(timeout\) at errset.go:\d+\) before any of 2 values, with room for 1`
	}()

	var err error
	select {
	case <-done:
	case <-time.After(timeout):
		err = report()
	}
	if err != nil {
		return err
	}

	go func() {
		c.workers.Wait()
		done <- struct{}{}
	}()
	select {
	case <-done:
	case <-time.After(timeout):
		return fmt.Errorf("workers not stopped after %s", timeout)
	}
	return nil
}
