// Package reqreply holds shape 4: the caller puts an unbuffered reply
// channel into a request, sends the request to a long-lived worker and
// then may stop waiting. The worker's send on the reply field is the
// stranded send: it blocks the worker itself, and every request behind.
package reqreply

import (
	"context"
	"errors"
	"sync"
	"time"
)

type request struct {
	key   string
	reply chan string
}

type Cache struct {
	requests chan *request
	data     map[string]string
}

// loop is the worker.
func (c *Cache) loop() {
	for req := range c.requests {
		req.reply <- c.data[req.key] // want `send on unbuffered req.reply blocks forever once the receiver leaves \(case <-ctx.Done\(\) at reqreply.go:\d+\); the goroutine leaks — make reply buffered in \(\*Cache\).Get`
	}
}

// Get leaves on cancellation after handing the request over.
func (c *Cache) Get(ctx context.Context, key string) (string, error) {
	req := &request{key: key, reply: make(chan string)}
	select {
	case c.requests <- req:
	case <-ctx.Done():
		return "", ctx.Err() // ok: the worker never saw this request
	}
	select {
	case v := <-req.reply:
		return v, nil
	case <-ctx.Done():
		return "", ctx.Err()
	}
}

// A timer and a value request, with a plain handoff.
type job struct {
	n    int
	done chan int
}

type Pool struct{ jobs chan job }

func (p *Pool) work() {
	for j := range p.jobs {
		if j.n < 0 {
			j.done <- 0 // want `send on unbuffered j.done blocks forever once the receiver leaves \(case <-time.After\(d\) at reqreply.go:\d+\)`
			continue
		}
		j.done <- j.n * 2 // one finding per field: this send is related to the first
	}
}

func (p *Pool) Double(n int, d time.Duration) (int, error) {
	done := make(chan int)
	p.jobs <- job{n: n, done: done}
	select {
	case v := <-done:
		return v, nil
	case <-time.After(d):
		return 0, errors.New("timeout")
	}
}

// An early error return after the handoff.
type query struct {
	sql string
	out chan error
}

type DB struct{ queries chan query }

func (db *DB) serve() {
	for q := range db.queries {
		q.out <- nil // want `send on unbuffered q.out blocks forever once the receiver leaves \(return at reqreply.go:\d+\)`
	}
}

func (db *DB) Exec(sql string, check func() error) error {
	q := query{sql: sql, out: make(chan error)}
	db.queries <- q
	if err := check(); err != nil {
		return err
	}
	return <-q.out
}

// ok: the twin whose reply channel has room for the one reply.
type buffered struct {
	reply chan string
}

type Server struct{ in chan buffered }

func (s *Server) run() {
	for req := range s.in {
		req.reply <- "pong"
	}
}

func (s *Server) Ping(ctx context.Context) (string, error) {
	req := buffered{reply: make(chan string, 1)}
	s.in <- req
	select {
	case v := <-req.reply:
		return v, nil
	case <-ctx.Done():
		return "", ctx.Err()
	}
}

// nope: the worker selects on the request's own context.
type ctxRequest struct {
	ctx   context.Context
	reply chan string
}

type Worker struct{ in chan *ctxRequest }

func (w *Worker) run() {
	for req := range w.in {
		select {
		case req.reply <- "done":
		case <-req.ctx.Done():
		}
	}
}

func (w *Worker) Do(ctx context.Context) (string, error) {
	req := &ctxRequest{ctx: ctx, reply: make(chan string)}
	w.in <- req
	select {
	case v := <-req.reply:
		return v, nil
	case <-ctx.Done():
		return "", ctx.Err()
	}
}

// ok: the caller waits for the reply on every path.
type plain struct{ reply chan int }

type Counter struct{ in chan plain }

func (c *Counter) run() {
	n := 0
	for req := range c.in {
		n++
		req.reply <- n
	}
}

func (c *Counter) Next() int {
	req := plain{reply: make(chan int)}
	c.in <- req
	return <-req.reply
}

// nope: the request is kept in a variable the analysis does not follow.
type kept struct{ reply chan int }

var last *kept

type Keeper struct{ in chan *kept }

func (k *Keeper) run() {
	for req := range k.in {
		req.reply <- 1
	}
}

func (k *Keeper) Get(ctx context.Context) int {
	req := &kept{reply: make(chan int)}
	last = req
	k.in <- req
	select {
	case v := <-req.reply:
		return v
	case <-ctx.Done():
		return 0
	}
}

// ok: a subscription made with one channel per kind of event, of which a
// subscriber fills the one it reads and the constructor makes the rest
// as placeholders. The constructor never receives from them: it is not
// waiting for a reply, and its return is not a receiver leaving. (The
// dispatcher sends only on the channel of the subscription's kind.)
type subscription struct {
	kind    int
	logs    chan string
	headers chan int
}

type Feed struct{ install chan *subscription }

func (f *Feed) dispatch() {
	for sub := range f.install {
		if sub.kind == 0 {
			sub.logs <- "log"
		} else {
			sub.headers <- 1
		}
	}
}

func (f *Feed) subscribe(sub *subscription) *subscription {
	f.install <- sub
	return sub
}

func (f *Feed) SubscribeLogs(logs chan string) *subscription {
	return f.subscribe(&subscription{kind: 0, logs: logs, headers: make(chan int)})
}

// Its twin waits for the reply it made, and can stop waiting.
type ask struct{ answer chan int }

type Oracle struct{ in chan *ask }

func (o *Oracle) serve() {
	for q := range o.in {
		q.answer <- 42 // want `send on unbuffered q.answer blocks forever once the receiver leaves \(case <-ctx.Done\(\) at reqreply.go:\d+\)`
	}
}

func (o *Oracle) Ask(ctx context.Context) int {
	q := &ask{answer: make(chan int)}
	o.in <- q
	select {
	case v := <-q.answer:
		return v
	case <-ctx.Done():
		return 0
	}
}

// A command handed over through a helper that reports whether the worker
// took it. A caller that returns because the helper refused has no reply
// to wait for; one that leaves after the worker took the command strands
// the reply.
type command struct {
	op   string
	resp chan error
}

type Agent struct {
	cmds chan command
	stop chan struct{}
}

func (a *Agent) loop() {
	for cmd := range a.cmds {
		cmd.resp <- a.apply(cmd.op) // want `send on unbuffered cmd.resp blocks forever once the receiver leaves \(case <-ctx.Done\(\) at reqreply.go:\d+\); the goroutine leaks — make resp buffered in \(\*Agent\).Cancelable`
	}
}

func (a *Agent) apply(op string) error { return errStub }

// dispatch hands cmd to the loop, or reports false once it has stopped.
func (a *Agent) dispatch(cmd command) bool {
	select {
	case a.cmds <- cmd:
		return true
	case <-a.stop:
		return false
	}
}

// submit is dispatch with an error.
func (a *Agent) submit(cmd command) error {
	if !a.dispatch(cmd) {
		return errors.New("agent stopped")
	}
	return nil
}

// ok: the only return before the receive is the refused hand-off.
func (a *Agent) Apply(op string) error {
	resp := make(chan error)
	if !a.dispatch(command{op: op, resp: resp}) {
		return errors.New("agent stopped")
	}
	return <-resp
}

// ok: the same with the helper's error.
func (a *Agent) ApplyErr(op string) error {
	resp := make(chan error)
	if err := a.submit(command{op: op, resp: resp}); err != nil {
		return err
	}
	return <-resp
}

// The twin that stops waiting after the worker took the command.
func (a *Agent) Cancelable(ctx context.Context, op string) error {
	resp := make(chan error)
	if !a.dispatch(command{op: op, resp: resp}) {
		return errors.New("agent stopped")
	}
	select {
	case err := <-resp:
		return err
	case <-ctx.Done():
		return ctx.Err()
	}
}

// A call registered in a map of pending calls, answered by the read loop
// that finds it there; the caller can stop waiting.
type call struct {
	id   int
	done chan string
}

type Conn struct {
	mu      sync.Mutex
	pending map[int]*call
	next    int
}

func (c *Conn) readLoop(read func() (int, string)) {
	for {
		id, resp := read()
		c.mu.Lock()
		cl := c.pending[id]
		delete(c.pending, id)
		c.mu.Unlock()
		if cl != nil {
			cl.done <- resp // want `send on unbuffered cl\.done blocks forever once the receiver leaves \(case <-ctx\.Done\(\) at reqreply\.go:359\); the goroutine leaks — make done buffered in \(\*Conn\)\.Call`
		}
	}
}

func (c *Conn) Call(ctx context.Context, write func(int) error) (string, error) {
	c.mu.Lock()
	c.next++
	cl := &call{id: c.next, done: make(chan string)}
	c.pending[cl.id] = cl
	c.mu.Unlock()
	if err := write(cl.id); err != nil {
		return "", err
	}
	select {
	case resp := <-cl.done:
		return resp, nil
	case <-ctx.Done():
		c.mu.Lock()
		delete(c.pending, cl.id) // the read loop may have taken it already
		c.mu.Unlock()
		return "", ctx.Err()
	}
}

// ok: the twin whose calls have room for the one reply.
type bufCall struct {
	id   int
	done chan string
}

type BufConn struct {
	mu      sync.Mutex
	pending map[int]*bufCall
}

func (c *BufConn) readLoop(read func() (int, string)) {
	for {
		id, resp := read()
		c.mu.Lock()
		cl := c.pending[id]
		delete(c.pending, id)
		c.mu.Unlock()
		if cl != nil {
			cl.done <- resp
		}
	}
}

func (c *BufConn) Call(ctx context.Context, id int) (string, error) {
	cl := &bufCall{id: id, done: make(chan string, 1)}
	c.mu.Lock()
	c.pending[id] = cl
	c.mu.Unlock()
	select {
	case resp := <-cl.done:
		return resp, nil
	case <-ctx.Done():
		return "", ctx.Err()
	}
}

// errStub stands for the failures the stubs above may report: they can
// fail, as what they stand for can.
var errStub error

// The request wrapped before it is handed over: a task holding it,
// converted to an interface and put in an envelope with a priority.
// Wrapping is not handing over. The handoff is the send of the
// envelope, and the enqueue's own ctx.Done case leaves before any
// worker holds the request; the exit that strands the worker is the
// second select's (validation set 34, an HSM signer's requests).
type lookup struct {
	key   string
	reply chan string
}

type doer interface{ do() }

type task struct {
	req *lookup
	c   *Cache
}

func (t *task) do() {
	t.req.reply <- t.c.data[t.req.key] // want `send on unbuffered t.req.reply blocks forever once the receiver leaves \(case <-ctx.Done\(\) at reqreply.go:451\); the goroutine leaks — make reply buffered in \(\*Cache\).Lookup`
}

type envelope struct {
	prio int
	d    doer
}

func serveEnvelopes(in chan envelope) {
	for e := range in {
		e.d.do()
	}
}

func (c *Cache) Lookup(ctx context.Context, in chan envelope, key string) (string, error) {
	req := &lookup{key: key, reply: make(chan string)}
	select {
	case in <- envelope{prio: 1, d: &task{req: req, c: c}}:
	case <-ctx.Done():
		return "", ctx.Err()
	}
	select {
	case v := <-req.reply:
		return v, nil
	case <-ctx.Done():
		return "", ctx.Err()
	}
}
