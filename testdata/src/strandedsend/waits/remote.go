package waits

import (
	"sync"

	"strandedsend/helpers/feed"
)

// Shape 9 across packages: the send is made by a helper of another
// package (feed.Publish's fact), called while the goroutine holds the
// lock the receiver takes before it receives.
type board struct {
	mu   sync.Mutex
	last int
}

func (b *board) publish(id int) feed.Event {
	out := make(chan feed.Event)
	go func() {
		b.mu.Lock()
		defer b.mu.Unlock()
		b.last = id
		feed.Publish(out, id) // want `send on unbuffered out in feed\.Publish at feed\.go:11 blocks forever when its sender takes b\.mu first: \(\*board\)\.publish locks b\.mu \(b\.mu\.Lock\(\) at remote\.go:25\) before receiving, and the sender holds it while it sends; they wait for each other — unlock b\.mu before sending, or make out's capacity 1$`
	}()
	b.mu.Lock()
	b.last++
	b.mu.Unlock()
	return <-out
}

// A WaitGroup waited for before the receive, the senders being helpers of
// another package.
func publishAll(ids []int) []feed.Event {
	out := make(chan feed.Event)
	var wg sync.WaitGroup
	for _, id := range ids {
		wg.Add(1)
		go func() {
			defer wg.Done()
			feed.Publish(out, id) // want `send on unbuffered out in feed\.Publish at feed\.go:11 blocks forever: publishAll waits for its senders \(wg\.Wait\(\) at remote\.go:43\) before receiving what they send; they wait for each other — receive before waiting$`
		}()
	}
	wg.Wait()
	close(out)
	var evs []feed.Event
	for ev := range out {
		evs = append(evs, ev)
	}
	return evs
}

// ok: the twin whose goroutine unlocks before the helper sends.
func (b *board) publishUnlocked(id int) feed.Event {
	out := make(chan feed.Event)
	go func() {
		b.mu.Lock()
		b.last = id
		b.mu.Unlock()
		feed.Publish(out, id)
	}()
	b.mu.Lock()
	b.last++
	b.mu.Unlock()
	return <-out
}

// ok: the twin that receives while the senders run, then waits.
func publishAllReceived(ids []int) []feed.Event {
	out := make(chan feed.Event)
	var wg sync.WaitGroup
	for _, id := range ids {
		wg.Add(1)
		go func() {
			defer wg.Done()
			feed.Publish(out, id)
		}()
	}
	evs := make([]feed.Event, 0, len(ids))
	for range ids {
		evs = append(evs, <-out)
	}
	wg.Wait()
	return evs
}
