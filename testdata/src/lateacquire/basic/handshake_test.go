package basic

import "testing"

// nope: a goroutine that waits for a hand-off on an unbuffered channel and
// answers on it is a conversation, not a semaphore; and a subtest's body
// runs once per t.Run (testing's own sub_test.go does this).
func TestHandshake(t *testing.T) {
	ch := make(chan bool)
	t.Run("sub", func(t *testing.T) {
		go func() {
			<-ch // nope: unbuffered, a hand-off
			t.Log("message")
			ch <- true
		}()
	})
	ch <- true
	<-ch
}

// A subtest per case runs the spawn per element of cases.
func TestPerCase(t *testing.T) {
	sem := make(chan struct{}, 2)
	cases := []string{"a", "b"}
	for _, name := range cases {
		t.Run(name, func(t *testing.T) {
			go func() {
				sem <- struct{}{} // want `one goroutine parks per element of cases`
				defer func() { <-sem }()
				t.Log(name)
			}()
		})
	}
}

// nope: a subtest that spawns once.
func TestOnce(t *testing.T) {
	sem := make(chan struct{}, 1)
	t.Run("x", func(t *testing.T) {
		go func() {
			sem <- struct{}{} // nope: one subtest, one goroutine
			defer func() { <-sem }()
		}()
	})
}
