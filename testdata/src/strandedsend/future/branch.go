package future

import "context"

// Event is one event of a provider's stream.
type Event struct {
	Text string
	Err  error
}

// Provider streams events; the client forwards to the one it wraps.
type Provider interface {
	Stream(ctx context.Context, prompt string) <-chan Event
}

type Client struct{ inner Provider }

var errUnsupported = context.Canceled

// ok: the client's stream is the wrapped provider's, and its one error
// event when there is none: a function forwarding another producer's
// channel, whose error branch is a future. Its readers read it as they
// read the provider's stream, judged where that stream is read
// (validation set 31, opencode's Bedrock client).
func (c *Client) Stream(ctx context.Context, prompt string) <-chan Event {
	if c.inner == nil {
		ch := make(chan Event)
		go func() {
			ch <- Event{Err: errUnsupported}
			close(ch)
		}()
		return ch
	}
	return c.inner.Stream(ctx, prompt)
}

// The twin whose other branch returns nil: the function returns only
// the future (or nothing), and a caller that stops waiting strands it.
func (c *Client) Ready(ctx context.Context) <-chan Event {
	if c.inner != nil {
		return nil
	}
	ch := make(chan Event)
	go func() {
		ch <- Event{Err: errUnsupported} // want `send on unbuffered ch blocks forever if the caller of Ready stops waiting for the result`
		close(ch)
	}()
	return ch
}
