package fields

// A processor's worker ranges over its items field and returns on the
// first failure, while Process keeps sending: once the worker has
// returned, the next send blocks forever, buffered or not, and with it
// whoever called Process (hugo's pages processor, fixed upstream).
type Processor struct {
	items chan job
	check func(job) error
	done  chan error
}

func NewProcessor(workers int, check func(job) error) *Processor {
	p := &Processor{items: make(chan job, workers*2), check: check, done: make(chan error, 1)}
	go p.work()
	return p
}

func (p *Processor) work() {
	for j := range p.items {
		if err := p.check(j); err != nil {
			p.done <- err
			return
		}
	}
	p.done <- nil
}

func (p *Processor) Process(j job) {
	p.items <- j // want `send on p\.items blocks forever once \(\*Processor\)\.work has stopped receiving \(return at streams\.go:23\); the caller of Process blocks with it — keep receiving until items is closed, or select on a signal of the stop as well`
}

func (p *Processor) Wait() error {
	close(p.items)
	return <-p.done
}

// nope: the twin whose worker keeps draining after a failure: every item
// sent is taken until the channel is closed.
type Collector struct {
	items chan job
	check func(job) error
	done  chan error
}

func NewCollector(workers int, check func(job) error) *Collector {
	c := &Collector{items: make(chan job, workers*2), check: check, done: make(chan error, 1)}
	go c.work()
	return c
}

func (c *Collector) work() {
	var first error
	for j := range c.items {
		if first != nil {
			continue
		}
		first = c.check(j)
	}
	c.done <- first
}

func (c *Collector) Process(j job) { c.items <- j }

func (c *Collector) Wait() error {
	close(c.items)
	return <-c.done
}

// nope: the twin whose Process selects on the worker's stop as well.
type Stopper struct {
	items   chan job
	check   func(job) error
	stopped chan struct{}
}

func NewStopper(check func(job) error) *Stopper {
	s := &Stopper{items: make(chan job), check: check, stopped: make(chan struct{})}
	go s.work()
	return s
}

func (s *Stopper) work() {
	defer close(s.stopped)
	for j := range s.items {
		if err := s.check(j); err != nil {
			return
		}
	}
}

func (s *Stopper) Process(j job) bool {
	select {
	case s.items <- j:
		return true
	case <-s.stopped:
		return false
	}
}
