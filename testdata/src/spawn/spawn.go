// Package spawn starts goroutines every way internal/spawn recognises.
package spawn

import (
	"sync"

	"golang.org/x/sync/errgroup"
)

type T struct{}

func (T) m(x int) {}

func named(x int) {}

type runner interface{ run() }

func starts(t T, r runner, f func(), x int) {
	go func() {}() // want `go statement runs spawn.starts\$1 captures=0 args=0`
	go named(x)    // want `go statement runs spawn.named captures=0 args=1`
	go t.m(x)      // want `go statement runs \(spawn.T\).m captures=0 args=2`
	mv := t.m
	go mv(x)              // want `go statement runs \(spawn.T\).m captures=0 args=2`
	go func() { _ = x }() // want `go statement runs spawn.starts\$2 captures=1 args=0`
	go f()                // want `go statement runs <unknown> captures=0 args=0`
	go r.run()            // want `go statement runs <unknown> captures=0 args=0`

	var g errgroup.Group
	g.Go(func() error { return nil })           // want `errgroup Go runs spawn.starts\$3 captures=0 args=0 group`
	g.TryGo(func() error { _ = t; return nil }) // want `errgroup Go runs spawn.starts\$4 captures=1 args=0 group`

	var wg sync.WaitGroup
	wg.Go(func() { _ = x }) // want `WaitGroup.Go runs spawn.starts\$5 captures=1 args=0 group`
	wg.Wait()
}

// A method called Go on another type is not a spawn.
type launcher struct{}

func (launcher) Go(f func()) {}

func notSpawns() {
	var l launcher
	l.Go(func() {})
}
