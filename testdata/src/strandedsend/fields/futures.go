package fields

import "context"

// A Ticket is ready once its request has been admitted, or done when
// its context is.
type Ticket interface {
	Done() <-chan struct{}
	Ready() <-chan struct{}
}

// An admission is a future kept in a field: newAdmission starts the one
// goroutine that sends on ready, and Ready hands the channel out.
type admission struct {
	ctx   context.Context
	ready chan struct{}
}

func newAdmission(ctx context.Context) *admission {
	a := &admission{ctx: ctx, ready: make(chan struct{})}
	go func(ch chan struct{}) {
		ch <- struct{}{} // want `send on unbuffered ch \(field ready\) blocks forever once a caller of \(\*admission\)\.Ready stops waiting \(case <-t\.Done\(\) at futures\.go:\d+\); the goroutine leaks — make ready buffered`
		close(ch)
	}(a.ready)
	return a
}

func (a *admission) Done() <-chan struct{}  { return a.ctx.Done() }
func (a *admission) Ready() <-chan struct{} { return a.ready }

// Admit waits for either: once the context is done first, nobody takes
// the ready signal.
func Admit(ctx context.Context) bool {
	var t Ticket = newAdmission(ctx)
	select {
	case <-t.Done():
		return false
	case <-t.Ready():
		return true
	}
}

// A lease is granted by a goroutine that loads the field itself; its
// caller gives up on the context.
type lease struct{ granted chan error }

func acquire(request func() error) *lease {
	l := &lease{granted: make(chan error)}
	go func() {
		l.granted <- request() // want `send on unbuffered l\.granted blocks forever once a caller of \(\*lease\)\.Granted stops waiting \(case <-ctx\.Done\(\) at futures\.go:\d+\)`
	}()
	return l
}

func (l *lease) Granted() <-chan error { return l.granted }

func Hold(ctx context.Context, request func() error) error {
	l := acquire(request)
	select {
	case err := <-l.Granted():
		return err
	case <-ctx.Done():
		return ctx.Err()
	}
}

// ok: the same future, buffered: the goroutine's send completes whether
// or not the caller still waits.
type grant struct{ done chan error }

func startGrant(request func() error) *grant {
	g := &grant{done: make(chan error, 1)}
	go func() { g.done <- request() }()
	return g
}

func (g *grant) Done() <-chan error { return g.done }

func Try(ctx context.Context, request func() error) error {
	select {
	case err := <-startGrant(request).Done():
		return err
	case <-ctx.Done():
		return ctx.Err()
	}
}

// ok: unbuffered, but every caller in view waits for the value.
type reply struct{ out chan string }

func ask(q func() string) *reply {
	r := &reply{out: make(chan string)}
	go func() { r.out <- q() }()
	return r
}

func (r *reply) Out() <-chan string { return r.out }

func Ask(q func() string) string { return <-ask(q).Out() }

// ok: the goroutine sends in a loop (a stream, not a future), so it is
// not this rule's to judge.
type ticker struct{ c chan int }

func newTicker(n int) *ticker {
	t := &ticker{c: make(chan int)}
	go func() {
		for i := range n {
			t.c <- i
		}
		close(t.c)
	}()
	return t
}

func (t *ticker) C() <-chan int { return t.c }

func First(ctx context.Context, n int) int {
	select {
	case v := <-newTicker(n).C():
		return v
	case <-ctx.Done():
		return -1
	}
}
