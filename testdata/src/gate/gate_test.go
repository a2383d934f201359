package gate

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
)

// holder is work that announces it started and then blocks until released
// (or its context ends), so a test decides exactly when workers finish.
type holder struct {
	started chan struct{}
	release chan struct{}
}

func newHolder(n int) *holder {
	return &holder{started: make(chan struct{}, n), release: make(chan struct{})}
}

func (h *holder) work(ctx context.Context) error {
	h.started <- struct{}{}
	select {
	case <-h.release:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// startHeld admits n held workers and waits until all of them run.
func startHeld(t *testing.T, g *Gate, h *holder, n int) []<-chan error {
	t.Helper()
	results := make([]<-chan error, 0, n)
	for i := 0; i < n; i++ {
		res, err := g.Start(context.Background(), h.work)
		if err != nil {
			t.Fatalf("Start #%d: %v, want admission", i, err)
		}
		results = append(results, res)
	}
	for i := 0; i < n; i++ {
		<-h.started
	}
	return results
}

// collect receives the one result of each channel and checks it is then closed.
func collect(t *testing.T, results []<-chan error) []error {
	t.Helper()
	errs := make([]error, 0, len(results))
	for _, res := range results {
		errs = append(errs, <-res)
		if _, open := <-res; open {
			t.Fatal("result channel delivered a second value")
		}
	}
	return errs
}

func canceled() context.Context {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	return ctx
}

func TestNewRejectsNonPositiveLimit(t *testing.T) {
	for _, limit := range []int{0, -1} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("New(%d) did not panic", limit)
				}
			}()
			New(limit)
		}()
	}
}

func TestStartRejectsNilWork(t *testing.T) {
	g := New(1)
	if _, err := g.Start(context.Background(), nil); err == nil {
		t.Fatal("Start(nil work) succeeded")
	}
	if got := g.Active(); got != 0 {
		t.Fatalf("Active() = %d after refused Start, want 0", got)
	}
}

func TestCapacity(t *testing.T) {
	g := New(2)
	h := newHolder(2)
	results := startHeld(t, g, h, 2)

	if res, err := g.Start(context.Background(), h.work); !errors.Is(err, ErrCapacity) || res != nil {
		t.Fatalf("third Start = (%v, %v), want (nil, ErrCapacity)", res, err)
	}
	if got := g.Active(); got != 2 {
		t.Fatalf("Active() = %d, want 2", got)
	}

	close(h.release)
	for i, err := range collect(t, results) {
		if err != nil {
			t.Errorf("worker %d: %v", i, err)
		}
	}
	if err := g.Shutdown(context.Background()); err != nil {
		t.Fatalf("Shutdown: %v", err)
	}
	if got := g.Active(); got != 0 {
		t.Fatalf("Active() = %d after Shutdown, want 0", got)
	}
}

func TestCapacityFreesWhenWorkFinishes(t *testing.T) {
	g := New(1)
	res, err := g.Start(context.Background(), func(context.Context) error { return nil })
	if err != nil {
		t.Fatal(err)
	}
	// A closed result channel proves the slot was released (run releases
	// before it closes), so the next Start must be admitted.
	collect(t, []<-chan error{res})
	res, err = g.Start(context.Background(), func(context.Context) error { return nil })
	if err != nil {
		t.Fatalf("Start after the slot was released: %v", err)
	}
	collect(t, []<-chan error{res})
}

func TestDraining(t *testing.T) {
	g := New(2)
	h := newHolder(2)
	results := startHeld(t, g, h, 2)

	// The waiting context is already canceled: Shutdown cannot wait, but
	// the transition to draining must still happen.
	if err := g.Shutdown(canceled()); !errors.Is(err, context.Canceled) {
		t.Fatalf("Shutdown(canceled) = %v, want context.Canceled", err)
	}
	if _, err := g.Start(context.Background(), h.work); !errors.Is(err, ErrDraining) {
		t.Fatalf("Start while draining = %v, want ErrDraining", err)
	}

	close(h.release)
	collect(t, results)
	if err := g.Shutdown(context.Background()); err != nil {
		t.Fatalf("second Shutdown: %v", err)
	}
	if got := g.Active(); got != 0 {
		t.Fatalf("Active() = %d after Shutdown, want 0", got)
	}
	// Draining is one-way: free capacity does not reopen admission.
	if _, err := g.Start(context.Background(), h.work); !errors.Is(err, ErrDraining) {
		t.Fatalf("Start after Shutdown = %v, want ErrDraining", err)
	}
}

func TestShutdownIdleGate(t *testing.T) {
	g := New(3)
	for i := 0; i < 3; i++ {
		if err := g.Shutdown(context.Background()); err != nil {
			t.Fatalf("Shutdown #%d of an idle gate: %v", i, err)
		}
	}
}

func TestConcurrentShutdowns(t *testing.T) {
	g := New(1)
	h := newHolder(1)
	results := startHeld(t, g, h, 1)

	const waiters = 8
	errs := make(chan error, waiters)
	var wg sync.WaitGroup
	for i := 0; i < waiters; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs <- g.Shutdown(context.Background())
		}()
	}
	close(h.release)
	collect(t, results)
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Errorf("concurrent Shutdown: %v", err)
		}
	}
}

func TestWorkerError(t *testing.T) {
	g := New(1)
	boom := errors.New("boom")
	res, err := g.Start(context.Background(), func(context.Context) error { return boom })
	if err != nil {
		t.Fatal(err)
	}
	if got := collect(t, []<-chan error{res})[0]; !errors.Is(got, boom) {
		t.Fatalf("result = %v, want %v", got, boom)
	}
	if err := g.Shutdown(context.Background()); err != nil {
		t.Fatalf("Shutdown after a failed worker: %v", err)
	}
	if got := g.Active(); got != 0 {
		t.Fatalf("Active() = %d after a failed worker, want 0", got)
	}
}

func TestStartWithCanceledContext(t *testing.T) {
	g := New(1)
	ran := false
	res, err := g.Start(canceled(), func(context.Context) error { ran = true; return nil })
	if !errors.Is(err, context.Canceled) || res != nil {
		t.Fatalf("Start(canceled) = (%v, %v), want (nil, context.Canceled)", res, err)
	}
	if err := g.Shutdown(context.Background()); err != nil {
		t.Fatal(err)
	}
	if ran {
		t.Fatal("work ran although its context was canceled before admission")
	}
}

func TestCancellation(t *testing.T) {
	g := New(1)
	ctx, cancel := context.WithCancel(context.Background())
	h := newHolder(1)
	res, err := g.Start(ctx, h.work)
	if err != nil {
		t.Fatal(err)
	}
	<-h.started
	cancel()
	if err := g.Shutdown(context.Background()); err != nil {
		t.Fatalf("Shutdown after cancel: %v", err)
	}
	if got := collect(t, []<-chan error{res})[0]; !errors.Is(got, context.Canceled) {
		t.Fatalf("result = %v, want context.Canceled", got)
	}
}

// TestAbandonedResult is the reason the result channel has capacity one:
// the caller never receives, yet the worker finishes and Shutdown returns.
func TestAbandonedResult(t *testing.T) {
	g := New(4)
	for i := 0; i < 4; i++ {
		if _, err := g.Start(context.Background(), func(context.Context) error { return nil }); err != nil {
			t.Fatal(err)
		}
	}
	if err := g.Shutdown(context.Background()); err != nil {
		t.Fatalf("Shutdown with abandoned results: %v", err)
	}
}

// TestActiveNeverExceedsLimit has every worker record how many run at once.
func TestActiveNeverExceedsLimit(t *testing.T) {
	const limit, attempts = 3, 200
	g := New(limit)
	var running, peak atomic.Int32
	work := func(context.Context) error {
		n := running.Add(1)
		for {
			p := peak.Load()
			if n <= p || peak.CompareAndSwap(p, n) {
				break
			}
		}
		running.Add(-1)
		return nil
	}
	var admitted []<-chan error
	for i := 0; i < attempts; i++ {
		res, err := g.Start(context.Background(), work)
		switch {
		case err == nil:
			admitted = append(admitted, res)
		case !errors.Is(err, ErrCapacity):
			t.Fatalf("Start: %v", err)
		}
	}
	collect(t, admitted)
	if err := g.Shutdown(context.Background()); err != nil {
		t.Fatal(err)
	}
	if p := peak.Load(); p > limit {
		t.Fatalf("%d operations ran at once, limit %d", p, limit)
	}
}

// TestStartRacesShutdown lets many Starts race one Shutdown. Scheduling
// decides each outcome, but every outcome must be a legal one, and the
// gate must end drained.
func TestStartRacesShutdown(t *testing.T) {
	const limit, callers = 4, 64
	g := New(limit)
	h := newHolder(callers)

	type outcome struct {
		res <-chan error
		err error
	}
	outcomes := make(chan outcome, callers)
	var wg sync.WaitGroup
	begin := make(chan struct{})
	for i := 0; i < callers; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-begin
			res, err := g.Start(context.Background(), h.work)
			outcomes <- outcome{res, err}
		}()
	}
	shutdown := make(chan error, 1)
	go func() {
		<-begin
		shutdown <- g.Shutdown(context.Background())
	}()
	close(begin)
	wg.Wait()
	close(outcomes)

	var admitted []<-chan error
	for o := range outcomes {
		switch {
		case o.err == nil:
			admitted = append(admitted, o.res)
		case errors.Is(o.err, ErrCapacity), errors.Is(o.err, ErrDraining):
		default:
			t.Errorf("Start returned an illegal outcome: %v", o.err)
		}
	}
	if len(admitted) > limit {
		t.Fatalf("%d operations admitted at once, limit %d", len(admitted), limit)
	}
	close(h.release)
	for _, err := range collect(t, admitted) {
		if err != nil {
			t.Errorf("admitted worker: %v", err)
		}
	}
	if err := <-shutdown; err != nil {
		t.Fatalf("Shutdown: %v", err)
	}
	if got := g.Active(); got != 0 {
		t.Fatalf("Active() = %d after Shutdown, want 0", got)
	}
	if _, err := g.Start(context.Background(), h.work); !errors.Is(err, ErrDraining) {
		t.Fatalf("Start after Shutdown = %v, want ErrDraining", err)
	}
}
