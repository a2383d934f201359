// Package structs holds channels that reach the goroutine inside a
// struct: an argument, the receiver of the method it runs, a variable
// its closure captures; the goroutine (or a helper it calls) sends on
// the struct's field. Each positive has its twins beside it: the
// channel buffered, the send in a select with ctx.Done(), a receiver
// that cannot leave, a helper that never sends on the field, a struct
// with a second channel the helper sends on instead.
package structs

import (
	"context"
	"errors"
	"fmt"
	"time"

	"strandedsend/structs/jobs"
)

type task struct {
	id  int
	out chan int
}

func work(t *task) {
	t.out <- t.id * 2 // want `send on unbuffered t\.out blocks forever once the receiver leaves \(case <-ctx\.Done\(\) at structs\.go:35\); the goroutine leaks — make out buffered in pointerArg$`
}

// A pointer to a struct holding the channel, given to a function.
func pointerArg(ctx context.Context) int {
	t := &task{id: 1, out: make(chan int)}
	go work(t)
	select {
	case v := <-t.out:
		return v
	case <-ctx.Done():
		return -1
	}
}

// Another requester stranding the same send, with a channel of its own
// put in the struct: one finding at the send, related to both leaves,
// whose fix gives both channels room.
func pointerArgLocal(ctx context.Context) int {
	ch := make(chan int)
	go work(&task{id: 4, out: ch})
	select {
	case v := <-ch:
		return v
	case <-ctx.Done():
		return -1
	}
}

// ok: the twin whose channel has room for the one value.
func pointerArgBuffered(ctx context.Context) int {
	t := &task{id: 1, out: make(chan int, 1)}
	go work(t)
	select {
	case v := <-t.out:
		return v
	case <-ctx.Done():
		return -1
	}
}

// ok: the twin that waits for the value on every path.
func pointerArgWaits() int {
	t := &task{id: 1, out: make(chan int)}
	go work(t)
	return <-t.out
}

// echo takes a value from the task before it answers.
func echo(t *task) {
	v := <-t.out
	t.out <- v
}

// nope: the goroutine receives from the field as well as sending on it,
// which the count does not model; and no other send on the field (work's)
// can be on this channel, which goes nowhere else.
func echoes(ctx context.Context) int {
	t := &task{id: 5, out: make(chan int)}
	go echo(t)
	select {
	case v := <-t.out:
		return v
	case <-ctx.Done():
		return -1
	}
}

type job struct {
	id  int
	out chan int
}

func (j *job) run() {
	j.out <- j.id // want `send on unbuffered j\.out blocks forever once the receiver leaves \(case <-time\.After\(time\.Second\) at structs\.go:116\); the goroutine leaks — make out buffered in method$`
}

func (j *job) runCtx(ctx context.Context) {
	select {
	case j.out <- j.id:
	case <-ctx.Done():
	}
}

// The method of the struct, run as the goroutine.
func method() int {
	j := &job{id: 1, out: make(chan int)}
	go j.run()
	select {
	case v := <-j.out:
		return v
	case <-time.After(time.Second):
		return -1
	}
}

// ok: the twin whose method gives up with the receiver.
func methodCtx(ctx context.Context) int {
	j := &job{id: 1, out: make(chan int)}
	go j.runCtx(ctx)
	select {
	case v := <-j.out:
		return v
	case <-ctx.Done():
		return -1
	}
}

type batch struct {
	n    int
	sums chan int
}

func (b *batch) total() int { return b.n * (b.n + 1) / 2 }

func (b *batch) wait() int { return <-b.sums }

func (b *batch) sum() {
	b.sums <- b.total() // want `send on unbuffered b\.sums blocks forever once the receiver leaves \(case <-ctx\.Done\(\) at structs\.go:157\); the goroutine leaks — make sums buffered in methods$`
}

// The goroutine's method, and the function, call other methods of the
// struct that leave its channel alone.
func methods(ctx context.Context) int {
	b := &batch{n: 10, sums: make(chan int)}
	if b.total() == 0 {
		return 0
	}
	go b.sum()
	select {
	case v := <-b.sums:
		return v
	case <-ctx.Done():
		return -1
	}
}

// nope: the function receives through a method of the struct: what it
// does there is not counted, as for a helper given the channel.
func methodsWait(ctx context.Context) int {
	b := &batch{n: 10, sums: make(chan int)}
	go b.sum()
	if ctx.Err() != nil {
		return -1
	}
	return b.wait()
}

type order struct {
	id   int
	done chan int
}

func fill(o *order) {
	o.done <- o.id // want `send on unbuffered o\.done blocks forever once the receiver leaves \(case <-ctx\.Done\(\) at structs\.go:189\); the goroutine leaks — make done buffered in local$`
}

// A channel of the function's own put into the struct it hands over.
func local(ctx context.Context) int {
	done := make(chan int)
	go fill(&order{id: 2, done: done})
	select {
	case v := <-done:
		return v
	case <-ctx.Done():
		return -1
	}
}

// ok: the twin whose receiver cannot leave.
func localWaits() int {
	done := make(chan int)
	go fill(&order{id: 2, done: done})
	return <-done
}

type req struct{ reply chan<- int }

func handle(r req) { r.reply <- 1 } // want `send on unbuffered r\.reply blocks forever once the receiver leaves \(case <-ctx\.Done\(\) at structs\.go:216\); the goroutine leaks — make reply buffered in value$`

func (r req) answer() {
	r.reply <- 2 // want `send on unbuffered r\.reply blocks forever once the receiver leaves \(return at structs\.go:241\); the goroutine leaks — make reply buffered in valueMethod$`
}

// A struct value, given to a function.
func value(ctx context.Context) int {
	reply := make(chan int)
	go handle(req{reply: reply})
	select {
	case v := <-reply:
		return v
	case <-ctx.Done():
		return -1
	}
}

// ok: the twin with room for the reply.
func valueBuffered(ctx context.Context) int {
	reply := make(chan int, 1)
	go handle(req{reply: reply})
	select {
	case v := <-reply:
		return v
	case <-ctx.Done():
		return -1
	}
}

// A struct value kept in a variable, whose method is the goroutine; the
// receiver returns early on an error.
func valueMethod(check func() error) (int, error) {
	var r req
	reply := make(chan int)
	r.reply = reply
	go r.answer()
	if err := check(); err != nil {
		return 0, err
	}
	return <-reply, nil
}

type lease struct {
	id  int
	got chan int
}

func grant(l *lease) { l.got <- l.id }

// A closure capturing the struct calls the helper that sends.
func closure(ctx context.Context) int {
	l := &lease{id: 1, got: make(chan int)}
	go func() {
		grant(l) // want `send on unbuffered got in grant at structs\.go:251 blocks forever once the receiver leaves \(case <-ctx\.Done\(\) at structs\.go:262\); the goroutine leaks — make got buffered in closure$`
	}()
	select {
	case v := <-l.got:
		return v
	case <-ctx.Done():
		return -1
	}
}

// ok: the twin whose closure waits for the value on every path.
func closureWaits() int {
	l := &lease{id: 1, got: make(chan int)}
	go func() { grant(l) }()
	return <-l.got
}

type queue struct{ in chan int }

func (q *queue) push(v int) { q.in <- v }

func (q *queue) pushCtx(ctx context.Context, v int) {
	select {
	case q.in <- v:
	case <-ctx.Done():
	}
}

// A method of the struct, called by the goroutine's closure.
func methodHelper(ctx context.Context) int {
	q := &queue{in: make(chan int)}
	go func() { q.push(1) }() // want `send on unbuffered in in \(\*queue\)\.push at structs\.go:276 blocks forever once the receiver leaves \(case <-ctx\.Done\(\) at structs\.go:292\); the goroutine leaks — make in buffered in methodHelper$`
	select {
	case v := <-q.in:
		return v
	case <-ctx.Done():
		return -1
	}
}

// ok: the twin whose method gives up with the receiver.
func methodHelperCtx(ctx context.Context) int {
	q := &queue{in: make(chan int)}
	go func() { q.pushCtx(ctx, 1) }()
	select {
	case v := <-q.in:
		return v
	case <-ctx.Done():
		return -1
	}
}

// relay hands the task on to the helper that sends: the report is at
// its call.
func relay(t *task) {
	work(t) // want `send on unbuffered out in work at structs\.go:25 blocks forever once the receiver leaves \(case <-ctx\.Done\(\) at structs\.go:322\); the goroutine leaks — make out buffered in twoDeep$`
}

// The goroutine's function passes the struct to a helper.
func twoDeep(ctx context.Context) int {
	t := &task{id: 3, out: make(chan int)}
	go relay(t)
	select {
	case v := <-t.out:
		return v
	case <-ctx.Done():
		return -1
	}
}

// ok: the twin with room for the value.
func twoDeepBuffered(ctx context.Context) int {
	t := &task{id: 3, out: make(chan int, 1)}
	go relay(t)
	select {
	case v := <-t.out:
		return v
	case <-ctx.Done():
		return -1
	}
}

type probe struct {
	id   int
	seen chan int
}

func show(p *probe) { fmt.Println(p.id) }

var probes []*probe

func keep(p *probe) { probes = append(probes, p) }

// ok: the goroutine never sends on the field: nothing is stranded.
func neverSends(ctx context.Context) int {
	p := &probe{id: 1, seen: make(chan int)}
	go show(p)
	select {
	case v := <-p.seen:
		return v
	case <-ctx.Done():
		return -1
	}
}

// nope: the goroutine hands the struct to code that keeps it; who sends
// is out of view.
func handedOn(ctx context.Context) int {
	p := &probe{id: 1, seen: make(chan int)}
	go keep(p)
	select {
	case v := <-p.seen:
		return v
	case <-ctx.Done():
		return -1
	}
}

type pair struct {
	res  chan int
	errc chan error
}

func fail(p *pair) { p.errc <- errors.New("failed") }

// ok: the struct holds two channels and the goroutine sends on the other
// one, which has room for it.
func otherField(ctx context.Context) (int, error) {
	p := &pair{res: make(chan int), errc: make(chan error, 1)}
	go fail(p)
	select {
	case v := <-p.res:
		return v, nil
	case <-ctx.Done():
		return 0, ctx.Err()
	}
}

func failVia(p *pair) { fail(p) }

// nope: a helper given the struct with two channels: which it sends on
// is its own business, as for a helper given two channels.
func otherFieldHelper(ctx context.Context) (int, error) {
	p := &pair{res: make(chan int), errc: make(chan error)}
	go func() { failVia(p) }()
	select {
	case v := <-p.res:
		return v, nil
	case err := <-p.errc:
		return 0, err
	case <-ctx.Done():
		return 0, ctx.Err()
	}
}

// Helpers of another package, known by their facts.
func remote(ctx context.Context) int {
	j := &jobs.Job{ID: 1, Out: make(chan int)}
	go jobs.Work(j) // want `send on unbuffered Out in jobs\.Work at jobs\.go:16 blocks forever once the receiver leaves \(case <-ctx\.Done\(\) at structs\.go:419\); the goroutine leaks — make Out buffered in remote$`
	select {
	case v := <-j.Out:
		return v
	case <-ctx.Done():
		return -1
	}
}

func remoteMethod(d time.Duration) int {
	out := make(chan int)
	j := &jobs.Job{ID: 1, Out: out}
	go func() { j.Run() }() // want `send on unbuffered out in jobs\.\(\*Job\)\.Run at jobs\.go:21 blocks forever once the receiver leaves \(case <-time\.After\(d\) at structs\.go:431\); the goroutine leaks — make out buffered in remoteMethod$`
	select {
	case v := <-out:
		return v
	case <-time.After(d):
		return -1
	}
}

func remoteValue(ctx context.Context) string {
	ch := make(chan string)
	go jobs.Answer(jobs.Reply{Ch: ch}, "hi") // want `send on unbuffered ch in jobs\.Answer at jobs\.go:47 blocks forever once the receiver leaves \(case <-ctx\.Done\(\) at structs\.go:442\); the goroutine leaks — make ch buffered in remoteValue$`
	select {
	case s := <-ch:
		return s
	case <-ctx.Done():
		return ""
	}
}

// ok: the twins: buffered, a helper that gives up with the receiver, a
// helper that keeps the job.
func remoteBuffered(ctx context.Context) int {
	j := &jobs.Job{ID: 1, Out: make(chan int, 1)}
	go jobs.Work(j)
	select {
	case v := <-j.Out:
		return v
	case <-ctx.Done():
		return -1
	}
}

func remoteCtx(ctx context.Context) int {
	j := &jobs.Job{ID: 1, Out: make(chan int)}
	go jobs.WorkCtx(ctx, j)
	select {
	case v := <-j.Out:
		return v
	case <-ctx.Done():
		return -1
	}
}

func remoteKept(ctx context.Context) int {
	j := &jobs.Job{ID: 1, Out: make(chan int)}
	go func() { jobs.Keep(j) }()
	select {
	case v := <-j.Out:
		return v
	case <-ctx.Done():
		return -1
	}
}
