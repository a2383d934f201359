package structs

import "context"

// A second channel the struct reaches other than through a direct
// field: embedded, in a nested struct, behind a pointer, as a func
// field. A helper given such a struct may send on either channel, which
// its summary of one field alone does not say: it is not looked through.

type errs struct{ errc chan error }

type pair2 struct {
	errs // errc, embedded
	res  chan int
}

func calc() (int, error) { return 1, nil }

func compute(p *pair2) {
	v, err := calc()
	if err != nil {
		p.errc <- err
		return
	}
	p.res <- v
}

// nope: the helper sends on res or on the embedded errc, never both, and
// the receiver takes either.
func embeddedHelper() (int, error) {
	p := &pair2{res: make(chan int)}
	p.errc = make(chan error)
	go func() { compute(p) }()
	select {
	case v := <-p.res:
		return v, nil
	case err := <-p.errc:
		return 0, err
	}
}

// nope: the same, with compute itself the goroutine.
func embeddedDirect() (int, error) {
	p := &pair2{res: make(chan int)}
	p.errc = make(chan error)
	go compute(p)
	select {
	case v := <-p.res:
		return v, nil
	case err := <-p.errc:
		return 0, err
	}
}

type parent struct{ errc chan error }

type child struct {
	up  *parent // the second channel, behind a pointer
	res chan int
}

func computeChild(c *child) {
	v, err := calc()
	if err != nil {
		c.up.errc <- err
		return
	}
	c.res <- v
}

// nope: the helper may send on the parent's errc instead of res.
func pointerFieldHelper() (int, error) {
	c := &child{up: &parent{errc: make(chan error)}, res: make(chan int)}
	go func() { computeChild(c) }()
	select {
	case v := <-c.res:
		return v, nil
	case err := <-c.up.errc:
		return 0, err
	}
}

type callback struct {
	onErr func(error) // may close over the caller's other channel
	res   chan int
}

func computeCallback(c *callback) {
	v, err := calc()
	if err != nil {
		c.onErr(err)
		return
	}
	c.res <- v
}

// nope: the helper may call onErr, which sends on errc, instead of
// sending on res.
func funcFieldHelper(ctx context.Context) (int, error) {
	errc := make(chan error)
	c := &callback{onErr: func(err error) { errc <- err }, res: make(chan int)}
	go func() { computeCallback(c) }()
	select {
	case v := <-c.res:
		return v, nil
	case err := <-errc:
		return 0, err
	case <-ctx.Done():
		return 0, ctx.Err()
	}
}

// P points to itself: asking whether it reaches a channel must end.
type P *P

type looped struct {
	self P
	out  chan int
}

func sendLooped(l *looped, p P) { l.out <- 1 }

func relayLooped(l *looped) { sendLooped(l, l.self) }

// A type that refers to itself, beside the struct: it carries no
// channel, and the helper is looked through.
func selfPointer(ctx context.Context) int {
	l := &looped{out: make(chan int)}
	go func() { relayLooped(l) }() // want `send on unbuffered out in relayLooped at nested\.go:123 blocks forever once the receiver leaves \(case <-ctx\.Done\(\) at nested\.go:133\); the goroutine leaks — make out buffered in selfPointer$`
	select {
	case v := <-l.out:
		return v
	case <-ctx.Done():
		return -1
	}
}

// An action whose configuration holds a logging func: a struct that can
// reach a function, and through it any channel, but not this one.
type action struct {
	cfg *actionConfig
}

type actionConfig struct {
	Log func(format string, v ...any)
}

func (a *action) report(c chan<- int, v int) {
	a.cfg.Log("done")
	c <- v
}

func (a *action) release(c chan<- int) {
	a.report(c, 1) // want `send on unbuffered c in \(\*action\)\.report at nested\.go:\d+ blocks forever once the receiver leaves \(case <-ctx\.Done\(\) at nested\.go:\d+\)`
}

// A plain channel handed to a method beside its receiver, which reaches
// only functions of its own: which channel is the function's is not in
// question, and the helper is looked through (helm's reportToRun).
func (a *action) run(ctx context.Context) int {
	c := make(chan int)
	go a.release(c)
	select {
	case v := <-c:
		return v
	case <-ctx.Done():
		return -1
	}
}
