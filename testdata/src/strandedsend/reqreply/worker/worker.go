// want package:`answers\(strandedsend/reqreply/worker Task.UF1 by \(\*Pool\).run at worker.go:35; strandedsend/reqreply/worker Pool.UF0 by \(\*Pool\).Submit at worker.go:49\)`

// Package worker runs a pool that answers tasks on the channel each task
// carries. Whether its sends can block is decided by its callers, in
// packages importing this one: they see the sends through its facts.
package worker

// A Task asks for N doubled, answered on Done; a Check is answered on
// Ack, in a select that gives up when the pool stops.
type Task struct {
	N    int
	Done chan int
}

type Check struct {
	Ack chan bool
}

type Pool struct {
	Tasks  chan *Task
	Checks chan Check
	quit   chan struct{}
}

func New() *Pool {
	p := &Pool{Tasks: make(chan *Task), Checks: make(chan Check), quit: make(chan struct{})}
	go p.run()
	return p
}

func (p *Pool) run() {
	for {
		select {
		case t := <-p.Tasks:
			t.Done <- t.N * 2
		case c := <-p.Checks:
			select {
			case c.Ack <- true:
			case <-p.quit:
				return
			}
		case <-p.quit:
			return
		}
	}
}

// Submit hands a task over.
func (p *Pool) Submit(t *Task) { p.Tasks <- t }
