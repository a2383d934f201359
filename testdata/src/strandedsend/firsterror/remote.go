package firsterror

import "strandedsend/helpers/feed"

// Shape 8 across packages: one sender per id, each a helper of another
// package that sends once (feed.Publish's fact), and a receiver that
// takes the first value only.
func firstPublished(ids []int) feed.Event {
	out := make(chan feed.Event)
	for _, id := range ids {
		go feed.Publish(out, id) // want `send on out in feed.Publish at feed.go:11 blocks forever once the receiver leaves \(return at remote.go:13\) after 1 of len\(ids\) values, with room for 0; goroutines leak — make out's capacity len\(ids\)`
	}
	return <-out
}

// The same through a closure, with a count from a parameter.
func firstOfN(n int) feed.Event {
	out := make(chan feed.Event)
	for i := 0; i < n; i++ {
		go func() { feed.Publish(out, i) }() // want `send on out in feed.Publish at feed.go:11 blocks forever once the receiver leaves \(return at remote.go:22\) after 1 of n values, with room for 0; goroutines leak — make out's capacity n`
	}
	return <-out
}

// ok: the twin with room for every sender.
func firstPublishedRoomy(ids []int) feed.Event {
	out := make(chan feed.Event, len(ids))
	for _, id := range ids {
		go feed.Publish(out, id)
	}
	return <-out
}

// ok: the twin that takes every value.
func lastOfN(n int) feed.Event {
	out := make(chan feed.Event)
	for i := 0; i < n; i++ {
		go func() { feed.Publish(out, i) }()
	}
	var last feed.Event
	for range n {
		last = <-out
	}
	return last
}
