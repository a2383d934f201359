// Package fields holds channels that live in struct fields, reported
// with -strandedsend.fields: a field nothing in the package receives
// from, and a field whose receiving loop can return while other
// functions still send on it.
package fields

import (
	"context"
	"errors"
	"sync"
	"time"
)

type job struct{ id int }

// A Pool's workers receive jobs until the pool is closed; Submit's plain
// send blocks forever once they have all returned.
type Pool struct {
	work   chan job
	closed chan struct{}
}

func NewPool(n int) *Pool {
	p := &Pool{work: make(chan job), closed: make(chan struct{})}
	for i := 0; i < n; i++ {
		go p.worker()
	}
	return p
}

func (p *Pool) worker() {
	for {
		select {
		case <-p.closed:
			return
		case j := <-p.work:
			run(j)
		}
	}
}

func run(job) {}

func (p *Pool) Close() { close(p.closed) }

func (p *Pool) Submit(j job) {
	p.work <- j // want `send on unbuffered p\.work blocks forever once \(\*Pool\)\.worker has stopped receiving \(case <-p\.closed at fields\.go:34\); the caller of \(\*Pool\)\.Submit blocks with it — select on the same signal as well`
}

// ok: the twin whose Submit gives up when the pool is closed.
type SafePool struct {
	work   chan job
	closed chan struct{}
}

func NewSafePool() *SafePool {
	p := &SafePool{work: make(chan job), closed: make(chan struct{})}
	go p.worker()
	return p
}

func (p *SafePool) worker() {
	for {
		select {
		case <-p.closed:
			return
		case j := <-p.work:
			run(j)
		}
	}
}

func (p *SafePool) Submit(j job) error {
	select {
	case p.work <- j:
		return nil
	case <-p.closed:
		return errors.New("pool closed")
	}
}

// nope: the loop receives until the channel is closed; it never stops
// receiving while the field is open.
type Drain struct{ in chan job }

func NewDrain() *Drain {
	d := &Drain{in: make(chan job)}
	go func() {
		for j := range d.in {
			run(j)
		}
	}()
	return d
}

func (d *Drain) Put(j job) { d.in <- j }

// An event loop that stops on the context, in a function literal.
type Bus struct {
	unsubscribe chan int
}

func StartBus(ctx context.Context) *Bus {
	b := &Bus{unsubscribe: make(chan int)}
	go func() {
		for {
			select {
			case id := <-b.unsubscribe:
				_ = id
			case <-ctx.Done():
				return
			}
		}
	}()
	return b
}

func (b *Bus) Unsubscribe(id int) {
	b.unsubscribe <- id // want `send on unbuffered b\.unsubscribe blocks forever once StartBus has stopped receiving \(case <-ctx\.Done\(\) at fields\.go:110\); the caller of \(\*Bus\)\.Unsubscribe blocks with it — select on the same signal as well`
}

// A field nothing receives from: every send blocks.
type Reporter struct {
	errs chan error
}

func NewReporter() *Reporter { return &Reporter{errs: make(chan error)} }

func (r *Reporter) Start(work func() error) {
	go func() {
		if err := work(); err != nil {
			r.errs <- err // want `send on unbuffered r.errs blocks forever: nothing in package fields receives from errs; the goroutine leaks — receive from it, or do not send`
		}
	}()
}

// ok: the twin that reads its errors.
type ReadReporter struct {
	errs chan error
}

func NewReadReporter() *ReadReporter { return &ReadReporter{errs: make(chan error)} }

func (r *ReadReporter) Start(work func() error) {
	go func() {
		if err := work(); err != nil {
			r.errs <- err
		}
	}()
}

func (r *ReadReporter) Err() error { return <-r.errs }

// nope: the field is given the caller's channel, which the caller may
// read.
type Forwarder struct{ out chan int }

func NewForwarder(out chan int) *Forwarder { return &Forwarder{out: out} }

func (f *Forwarder) Emit(v int) { f.out <- v }

// nope: an exported field may be read by any package.
type Public struct{ Events chan int }

func NewPublic() *Public { return &Public{Events: make(chan int)} }

func (p *Public) Emit(v int) { p.Events <- v }

// nope: buffered: how many sends fit is not known.
type Buffered struct{ errs chan error }

func NewBuffered() *Buffered { return &Buffered{errs: make(chan error, 1)} }

func (b *Buffered) Fail(err error) { b.errs <- err }

// nope: the loaded channel is handed to code out of view.
type Handed struct{ out chan int }

func NewHanded(register func(chan int)) *Handed {
	h := &Handed{out: make(chan int)}
	register(h.out)
	return h
}

func (h *Handed) Emit(v int) { h.out <- v }

// nope: the package's tests receive from it (fields_test.go).
type Hooked struct{ seen chan int }

func NewHooked() *Hooked { return &Hooked{seen: make(chan int)} }

func (h *Hooked) Mark(v int) { h.seen <- v }

// A manager whose Start runs a goroutine reporting on a field channel
// and leaves when its context is done: the goroutine's later error has
// no one to take it.
type Manager struct {
	errs chan error
}

func NewManager() *Manager { return &Manager{errs: make(chan error)} }

func (m *Manager) Start(ctx context.Context, elect func() error) error {
	go func() {
		if err := elect(); err != nil {
			m.errs <- err // want `send on unbuffered m\.errs blocks forever once \(\*Manager\)\.Start has stopped receiving \(case <-ctx\.Done\(\) at fields\.go:210\); the goroutine leaks — select on the same signal as well`
		}
	}()
	select {
	case <-ctx.Done():
		return nil
	case err := <-m.errs:
		return err
	}
}

// nope: the reply field of a request is received through the local the
// request was built from (btcd's server queries): its maker waits on it.
type query struct {
	name  string
	reply chan int
}

type Registry struct{ queries chan query }

func NewRegistry() *Registry {
	r := &Registry{queries: make(chan query)}
	go r.serve()
	return r
}

func (r *Registry) serve() {
	for q := range r.queries {
		q.reply <- len(q.name)
	}
}

func (r *Registry) Lookup(name string) int {
	reply := make(chan int)
	r.queries <- query{name: name, reply: reply}
	return <-reply
}

// The twin: the request's maker never waits for the reply it asked for.
type notice struct {
	name string
	ack  chan bool
}

type Notifier struct{ notices chan notice }

func NewNotifier() *Notifier {
	n := &Notifier{notices: make(chan notice)}
	go n.serve()
	return n
}

func (n *Notifier) serve() {
	for m := range n.notices {
		m.ack <- m.name != "" // want `send on unbuffered m.ack blocks forever: nothing in package fields receives from ack`
	}
}

func (n *Notifier) Notify(name string) {
	ack := make(chan bool)
	n.notices <- notice{name: name, ack: ack}
}

// ok: an IdlePool's dispatcher also wakes on an idle timer, and that case
// only resets the timer and goes round again. The loop's own exits (at
// its head, and in the receive) both need work closed, which Close does
// under the lock Submit checks first.
type IdlePool struct {
	mu      sync.Mutex
	stopped bool
	work    chan job
	waiting []job
}

func NewIdlePool() *IdlePool {
	p := &IdlePool{work: make(chan job)}
	go p.dispatch()
	return p
}

func (p *IdlePool) dispatch() {
	idle := time.NewTimer(time.Second)
	defer idle.Stop()
	for {
		if len(p.waiting) > 0 {
			if !p.drainOne() {
				return
			}
			continue
		}
		select {
		case j, ok := <-p.work:
			if !ok {
				return
			}
			p.waiting = append(p.waiting, j)
		case <-idle.C:
			idle.Reset(time.Second)
		}
	}
}

func (p *IdlePool) drainOne() bool {
	j, ok := <-p.work
	if ok {
		p.waiting = append(p.waiting, j)
	}
	run(p.waiting[0])
	p.waiting = p.waiting[1:]
	return ok
}

func (p *IdlePool) Submit(j job) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.stopped {
		return
	}
	p.work <- j
}

func (p *IdlePool) Close() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.stopped = true
	close(p.work)
}

// Its twin's idle case retires the dispatcher itself: Submit's send
// blocks once the pool has sat idle for a second.
type RetiringPool struct {
	work chan job
}

func NewRetiringPool() *RetiringPool {
	p := &RetiringPool{work: make(chan job)}
	go p.dispatch()
	return p
}

func (p *RetiringPool) dispatch() {
	idle := time.NewTimer(time.Second)
	defer idle.Stop()
	for {
		select {
		case j := <-p.work:
			run(j)
		case <-idle.C:
			return
		}
	}
}

func (p *RetiringPool) Submit(j job) {
	p.work <- j // want `send on unbuffered p\.work blocks forever once \(\*RetiringPool\)\.dispatch has stopped receiving \(case <-idle\.C at fields\.go:\d+\); the caller of \(\*RetiringPool\)\.Submit blocks with it — select on the same signal as well`
}

// ok: a Client's constructor hands the channel it stores to the goroutine
// that receives from it, which never reads the field: the field's sends
// are received (Reporter is the twin nothing receives from).
type Client struct {
	requests chan job
}

func NewClient() *Client {
	requests := make(chan job)
	go serveRequests(requests)
	return &Client{requests: requests}
}

func serveRequests(requests chan job) {
	for j := range requests {
		run(j)
	}
}

func (c *Client) Do(j job) {
	c.requests <- j
}

// ok: the twin whose constructor also returns the channel it stores: the
// callers, out of the package's view, are the receivers (a lexer handing
// its token stream to the parser, which drains it).
type Lexer struct {
	tokens chan string
	input  string
}

func NewLexer(input string) (*Lexer, <-chan string) {
	tokens := make(chan string)
	return &Lexer{tokens: tokens, input: input}, tokens
}

func (l *Lexer) Run() {
	for _, r := range l.input {
		l.tokens <- string(r)
	}
	close(l.tokens)
}

// A field nothing receives from, sent on by a method no goroutine of the
// package runs: whoever calls it blocks.
type Beacon struct{ pings chan int }

func NewBeacon() *Beacon { return &Beacon{pings: make(chan int)} }

func (b *Beacon) Ping(n int) {
	b.pings <- n // want `send on unbuffered b\.pings blocks forever: nothing in package fields receives from pings; the caller of \(\*Beacon\)\.Ping blocks with it — receive from it, or do not send`
}

// ok: the twin that takes its pings.
type ReadBeacon struct{ pings chan int }

func NewReadBeacon() *ReadBeacon { return &ReadBeacon{pings: make(chan int)} }

func (b *ReadBeacon) Ping(n int) { b.pings <- n }

func (b *ReadBeacon) Next() int { return <-b.pings }
