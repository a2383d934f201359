package timeout

import (
	"context"
	"log"
	"time"
)

// Goroutines that send only what a call given the receiver's context
// returned without error, and return without sending when it fails, are
// done once that context is: every call in flight fails, by the contract
// of a call that takes a context. Leaving on its ctx.Done(), or after
// cancelling it, strands none of them; only two answers at the very
// instant of cancellation could (validation set 36, a validator client
// asking every beacon node and keeping the first answer).

type answer struct{ slot int }

type provider interface {
	Answer(ctx context.Context, slot int) (*answer, error)
}

// ok: the first answer wins; the context's end, or its cancellation
// once an answer is in, makes the others' calls fail.
func firstAnswer(ctx context.Context, providers []provider, slot int, d time.Duration) (*answer, error) {
	ctx, cancel := context.WithTimeout(ctx, d)
	respCh := make(chan *answer, 1)
	for _, p := range providers {
		go func(ctx context.Context, p provider, ch chan *answer) {
			started := time.Now()
			resp, err := p.Answer(ctx, slot)
			if err != nil {
				log.Printf("no answer after %v: %v", time.Since(started), err)
				return
			}
			ch <- resp
		}(ctx, p, respCh)
	}
	select {
	case <-ctx.Done():
		cancel()
		return nil, ctx.Err()
	case a := <-respCh:
		cancel()
		return a, nil
	}
}

// ok: the same through a method, the answer's field sent.
type firstSlot struct{ providers []provider }

func (f *firstSlot) slot(ctx context.Context, slot int) (int, error) {
	ctx, cancel := context.WithTimeout(ctx, time.Second)
	defer cancel()
	got := make(chan int, 1)
	for _, p := range f.providers {
		go f.ask(ctx, p, slot, got)
	}
	select {
	case <-ctx.Done():
		return 0, ctx.Err()
	case s := <-got:
		return s, nil
	}
}

func (f *firstSlot) ask(ctx context.Context, p provider, slot int, got chan<- int) {
	resp, err := p.Answer(ctx, slot)
	if err != nil {
		return
	}
	got <- resp.slot
}

// The twin with a timer of its own: leaving on it stops no call, and
// the answers that come after it have nobody to take them.
func firstAnswerTimer(ctx context.Context, providers []provider, slot int, d time.Duration) (*answer, error) {
	respCh := make(chan *answer, 1)
	for _, p := range providers {
		go func(p provider) {
			resp, err := p.Answer(ctx, slot)
			if err != nil {
				return
			}
			respCh <- resp // want `send on respCh blocks forever once the receiver leaves \(case <-time.After\(d\) at succeeded.go:91\) before any of len\(providers\) values`
		}(p)
	}
	select {
	case <-ctx.Done():
		return nil, ctx.Err()
	case <-time.After(d):
		return nil, context.DeadlineExceeded
	case a := <-respCh:
		return a, nil
	}
}

// A sender that reports its failure too: the context's end makes the
// call fail, and the failure's send has nobody to take it.
func answerOrError(ctx context.Context, p provider, slot int) (*answer, error) {
	errc := make(chan error)
	got := make(chan *answer)
	go func() {
		resp, err := p.Answer(ctx, slot)
		if err != nil {
			errc <- err // want `send on unbuffered errc \(or got\) blocks forever once the receiver leaves \(case <-ctx.Done\(\) at succeeded.go:112\)`
			return
		}
		got <- resp
	}()
	select {
	case <-ctx.Done():
		return nil, ctx.Err()
	case err := <-errc:
		return nil, err
	case a := <-got:
		return a, nil
	}
}

// A call not given the receiver's context: its end stops nothing.
func answerDetached(ctx context.Context, p provider, slot int) (*answer, error) {
	got := make(chan *answer)
	go func() {
		resp, err := p.Answer(context.Background(), slot)
		if err != nil {
			return
		}
		got <- resp // want `send on unbuffered got blocks forever once the receiver leaves \(case <-ctx.Done\(\) at succeeded.go:132\)`
	}()
	select {
	case <-ctx.Done():
		return nil, ctx.Err()
	case a := <-got:
		return a, nil
	}
}

// Work made of the answer between the call and the send: the context
// can end while it runs, and the send then strands.
func answerDigested(ctx context.Context, p provider, slot int, digest func(*answer) int) (int, error) {
	got := make(chan int)
	go func() {
		resp, err := p.Answer(ctx, slot)
		if err != nil {
			return
		}
		got <- digest(resp) // want `send on unbuffered got blocks forever once the receiver leaves \(case <-ctx.Done\(\) at succeeded.go:151\)`
	}()
	select {
	case <-ctx.Done():
		return 0, ctx.Err()
	case n := <-got:
		return n, nil
	}
}
