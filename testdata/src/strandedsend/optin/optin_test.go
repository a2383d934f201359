package optin

import (
	"context"
	"testing"
)

// silent by default (-strandedsend.tests): the receiver is a test, whose
// receives follow a protocol its assertions enforce; leaks here last as
// long as the test binary.
func TestAbandonsReply(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	reply := make(chan int)
	go func() {
		reply <- compute()
	}()
	select {
	case v := <-reply:
		if v != 42 {
			t.Errorf("got %d", v)
		}
	case <-ctx.Done():
	}
}
