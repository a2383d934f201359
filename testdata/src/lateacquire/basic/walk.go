package basic

import "os"

type node struct {
	left, right *node
	path        string
}

var scanSem = make(chan struct{}, 16)

// A recursive walk that spawns before it throttles.
func walk(n *node) {
	if n == nil {
		return
	}
	go func() {
		scanSem <- struct{}{} // want `goroutine waits on scanSem before doing any work; one goroutine parks per recursive call of walk`
		defer func() { <-scanSem }()
		os.Stat(n.path)
	}()
	walk(n.left)
	walk(n.right)
}

// A recursive directory scan: the spawned function is the walk itself.
func scan(dir string, sem chan struct{}) {
	sem <- struct{}{} // want `one goroutine parks per element of entries`
	entries, _ := os.ReadDir(dir)
	<-sem
	for _, e := range entries {
		if e.IsDir() {
			go scan(dir+"/"+e.Name(), sem)
		}
	}
}

// ok: the same scan acquiring before it spawns.
func scanGood(dir string, sem chan struct{}) {
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if e.IsDir() {
			sem <- struct{}{}
			go func() {
				defer func() { <-sem }()
				scanGood(dir+"/"+e.Name(), sem)
			}()
		}
	}
}
