package future

import "errors"

// A caller may keep its futures in a container of its own and take them
// later. The container is the caller's variable, not another owner: the
// futures are waited for when every value put there is received before
// the caller can return (validation set 34, a test harness that keeps a
// counter's result and its cancel per shard in a map).

type tally struct {
	result <-chan int
	cancel func()
}

func countName(name string, stop <-chan struct{}) <-chan int {
	c := make(chan int)
	go func() {
		<-stop
		c <- len(name)
	}()
	return c
}

// ok: each future is put in the caller's map, and the caller takes the
// value of every entry before it returns.
func countAll(names []string) int {
	stop := make(chan struct{})
	tallies := make(map[string]tally)
	for _, n := range names {
		tallies[n] = tally{result: countName(n, stop), cancel: func() {}}
	}
	close(stop)
	total := 0
	for _, n := range names {
		total += <-tallies[n].result
	}
	return total
}

func measure(name string, stop <-chan struct{}) <-chan int {
	c := make(chan int)
	go func() {
		<-stop
		c <- len(name) // want `send on unbuffered c blocks forever once the receiver leaves \(return at kept.go:\d+\)`
	}()
	return c
}

var errNoNames = errors.New("no names")

// The twin: the caller can return between keeping the futures and
// taking them.
func measureAll(names []string, check func() error) (int, error) {
	stop := make(chan struct{})
	tallies := make(map[string]tally)
	for _, n := range names {
		tallies[n] = tally{result: measure(n, stop)}
	}
	close(stop)
	if err := check(); err != nil {
		return 0, err
	}
	total := 0
	for _, n := range names {
		total += <-tallies[n].result
	}
	return total, nil
}

func probe(name string) <-chan int {
	c := make(chan int)
	go func() { c <- len(name) }() // want `send on unbuffered c blocks forever if the caller of probe stops waiting for the result; the goroutine leaks`
	return c
}

var registry = map[string]tally{}

// The twin: a map the caller does not own (a package variable) is
// another owner; the caller's waiting is out of view.
func probeAll(names []string) {
	for _, n := range names {
		registry[n] = tally{result: probe(n)}
	}
}
