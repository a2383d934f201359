package basic

import "fmt"

// Counts the input decides, written in other forms than i < len(xs).

// Per element, counting down from the last index.
func newestFirst(items []Job, sem chan struct{}) {
	for i := len(items) - 1; i >= 0; i-- {
		go func() {
			sem <- struct{}{} // want `one goroutine parks per element of items`
			defer func() { <-sem }()
			process(items[i])
		}()
	}
}

// nope: counting down from a constant is a fixed pool.
func drainers(sem chan struct{}, jobs <-chan Job) {
	for i := 3; i > 0; i-- {
		go func() {
			sem <- struct{}{} // nope: three drainers
			defer func() { <-sem }()
			process(<-jobs)
		}()
	}
}

// Per unit of a count scanned from text.
func scannedCount(header string, sem chan struct{}) error {
	var n int
	if _, err := fmt.Sscanf(header, "parts=%d", &n); err != nil {
		return err
	}
	for i := 0; i < n; i++ {
		go func() {
			sem <- struct{}{} // want `one goroutine parks per unit of n, parsed by fmt\.Sscanf`
			defer func() { <-sem }()
			process(Job{i})
		}()
	}
	return nil
}

// nope: a count with a default the scan may leave alone is the
// program's as much as the input's.
func scannedDefault(header string, sem chan struct{}) {
	n := 4
	fmt.Sscanf(header, "workers=%d", &n)
	for i := 0; i < n; i++ {
		go func() {
			sem <- struct{}{} // nope: n starts as a worker count
			defer func() { <-sem }()
			process(Job{i})
		}()
	}
}

// A fetcher whose unexported method every caller hands a length.
type crawler struct{ sem chan struct{} }

func (f *crawler) fetchN(urls []string, n int) {
	for i := 0; i < n; i++ {
		go func() {
			f.sem <- struct{}{} // want `one goroutine parks per element of urls its callers pass the length of`
			defer func() { <-f.sem }()
			process(Job{len(urls[i])})
		}()
	}
}

func (f *crawler) fetchAll(urls []string) {
	f.fetchN(urls, len(urls))
}

// nope: a method an interface of the package declares may be called
// through it, with any count.
type starter interface{ startN(n int) }

type spawner struct{ sem chan struct{} }

func (p *spawner) startN(n int) {
	for i := 0; i < n; i++ {
		go func() {
			p.sem <- struct{}{} // nope: callers through starter are not in view
			defer func() { <-p.sem }()
			process(Job{i})
		}()
	}
}

func startAll(p *spawner, jobs []Job) {
	p.startN(len(jobs))
}

func startVia(s starter) { s.startN(2) }
