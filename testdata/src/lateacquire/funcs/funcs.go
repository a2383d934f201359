// Package funcs has acquire functions lateacquire cannot recognise by
// itself; the test names them with -lateacquire.funcs.
package funcs

import "context"

// A Gate admits work through a mechanism of its own (say, cgo or a
// remote lock service).
type Gate struct{ n int }

// Enter waits for admission.
func (g *Gate) Enter(ctx context.Context) error { return external(g) }

// Wait waits for a global token.
func Wait() { _ = external(nil) }

//go:noinline
func external(*Gate) error { return nil }

// Leave ends it.
func (g *Gate) Leave() {}

type job struct{}

func do(job) {}

func named(ctx context.Context, g *Gate, jobs []job) {
	for _, j := range jobs {
		go func() {
			if err := g.Enter(ctx); err != nil { // want `goroutine waits in g.Enter before doing any work; one goroutine parks per element of jobs`
				return
			}
			defer g.Leave()
			do(j)
		}()
		go func() {
			Wait() // want `goroutine waits in Wait before doing any work`
			do(j)
		}()
	}
}

// nope: a gate made inside the goroutine is its own.
func ownGate(ctx context.Context, jobs []job) {
	for _, j := range jobs {
		go func() {
			g := &Gate{}
			g.Enter(ctx) // nope: the goroutine's own gate
			do(j)
		}()
	}
}
