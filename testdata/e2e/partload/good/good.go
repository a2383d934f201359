package good

import "context"

// Fetch waits for get's result or for ctx, whichever comes first. Once ctx
// wins, nobody receives from reply and the goroutine's send blocks forever.
func Fetch(ctx context.Context, get func() string) (string, error) {
	reply := make(chan string)
	go func() {
		reply <- get()
	}()
	select {
	case body := <-reply:
		return body, nil
	case <-ctx.Done():
		return "", ctx.Err()
	}
}
