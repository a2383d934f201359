package waits

import (
	"context"
	"sync"
)

type versions struct {
	mu  sync.Mutex
	rvs map[string]string
}

// ok: a waiter goroutine signals once every fetch has returned, and the
// select takes that signal or the first error. Through the signal
// nothing is pending: each fetch marks the group done after its send.
// (Through the first error the other failures would block, but a fetch
// may send nothing, and a receiver that takes one value of senders that
// may not send is not taken to strand the rest: see the model.)
func (v *versions) fill(ctx context.Context, clusters []string, fetch func(context.Context, string) (string, error)) error {
	errc := make(chan error)
	var wg sync.WaitGroup
	for _, cluster := range clusters {
		wg.Add(1)
		go func(cluster string) {
			defer wg.Done()
			rv, err := fetch(ctx, cluster)
			if err != nil {
				errc <- err
				return
			}
			v.mu.Lock()
			defer v.mu.Unlock()
			v.rvs[cluster] = rv
		}(cluster)
	}
	done := make(chan struct{}, 1)
	go func() {
		wg.Wait()
		done <- struct{}{}
	}()
	var err error
	select {
	case <-done:
	case err = <-errc:
	}
	return err
}

// ok: the same with room for every error.
func (v *versions) fillBuffered(ctx context.Context, clusters []string, fetch func(context.Context, string) (string, error)) error {
	errc := make(chan error, len(clusters))
	var wg sync.WaitGroup
	for _, cluster := range clusters {
		wg.Add(1)
		go func(cluster string) {
			defer wg.Done()
			rv, err := fetch(ctx, cluster)
			if err != nil {
				errc <- err
				return
			}
			v.mu.Lock()
			defer v.mu.Unlock()
			v.rvs[cluster] = rv
		}(cluster)
	}
	done := make(chan struct{}, 1)
	go func() {
		wg.Wait()
		done <- struct{}{}
	}()
	var err error
	select {
	case <-done:
	case err = <-errc:
	}
	return err
}

// The twin whose fetches mark the group done before they send: the
// signal can come while a failure is still to be sent.
func (v *versions) fillEarlyDone(ctx context.Context, clusters []string, fetch func(context.Context, string) (string, error)) error {
	errc := make(chan error)
	var wg sync.WaitGroup
	for _, cluster := range clusters {
		wg.Add(1)
		go func(cluster string) {
			rv, err := fetch(ctx, cluster)
			wg.Done()
			if err != nil {
				errc <- err // want `send on errc blocks forever once the receiver leaves \(case <-done at waiter.go:\d+\) before any of len\(clusters\) values`
				return
			}
			v.mu.Lock()
			defer v.mu.Unlock()
			v.rvs[cluster] = rv
		}(cluster)
	}
	done := make(chan struct{}, 1)
	go func() {
		wg.Wait()
		done <- struct{}{}
	}()
	var err error
	select {
	case <-done:
	case err = <-errc:
	}
	return err
}
