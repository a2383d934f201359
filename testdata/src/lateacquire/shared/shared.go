// Package shared: one acquire that several spawns reach is one cause.
// A goroutine body written once (a named closure, a function) and started
// from two loops waits on the semaphore in one place: moving that one
// acquire before the spawns is the fix, so it is one report, naming every
// spawn's unit, with every go statement as a related position.
package shared

import "sync"

// cleanup deletes an upload's parts and its intermediate objects, one
// goroutine per object, both through run: one report.
func cleanup(parts, merged map[string]string, limit int, del func(string)) {
	var wg sync.WaitGroup
	sem := make(chan struct{}, limit)
	run := func(name string) {
		defer wg.Done()
		sem <- struct{}{} // want `goroutine waits on sem before doing any work; one goroutine parks per entry of parts and per entry of merged — acquire before the go statement`
		defer func() { <-sem }()
		del(name)
	}
	for _, p := range parts {
		wg.Add(1)
		go run(p)
	}
	for _, m := range merged {
		wg.Add(1)
		go run(m)
	}
	wg.Wait()
}

// cleanupTwice is the twin written with two goroutine bodies: two
// acquires, two places to change, two reports.
func cleanupTwice(parts, merged map[string]string, limit int, del func(string)) {
	var wg sync.WaitGroup
	sem := make(chan struct{}, limit)
	for _, p := range parts {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{} // want `goroutine waits on sem before doing any work; one goroutine parks per entry of parts — acquire before the go statement`
			defer func() { <-sem }()
			del(p)
		}()
	}
	for _, m := range merged {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{} // want `goroutine waits on sem before doing any work; one goroutine parks per entry of merged — acquire before the go statement`
			defer func() { <-sem }()
			del(m)
		}()
	}
	wg.Wait()
}

// cleanupHoisted takes the permit before each spawn: silent.
func cleanupHoisted(parts, merged map[string]string, limit int, del func(string)) {
	var wg sync.WaitGroup
	sem := make(chan struct{}, limit)
	run := func(name string) {
		defer wg.Done()
		defer func() { <-sem }()
		del(name)
	}
	for _, p := range parts {
		wg.Add(1)
		sem <- struct{}{}
		go run(p)
	}
	for _, m := range merged {
		wg.Add(1)
		sem <- struct{}{}
		go run(m)
	}
	wg.Wait()
}
