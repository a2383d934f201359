// Package main holds futures whose callers are all in view: no other
// package imports a main package, so its methods are called from outside
// only through an interface it converts them to.
package main

import (
	"errors"
	"time"
)

var errFailed = errors.New("failed")

type importer struct{ n int }

func (im *importer) run() error {
	if im.n < 0 {
		return errFailed
	}
	return nil
}

// ok: an exported method of a main package's unexported type, whose one
// caller waits for the result (btcd's addblock importer).
func (im *importer) Import() chan error {
	done := make(chan error)
	go func() { done <- im.run() }()
	return done
}

// The twin: its caller gives up on a timer.
func (im *importer) ImportWithin() chan error {
	done := make(chan error)
	go func() { done <- im.run() }() // want `send on unbuffered done blocks forever once the receiver leaves \(case <-time.After\(time.Second\) at main.go:\d+\)`
	return done
}

// Opener is satisfied by a type the package boxes: its method's callers
// are out of view.
type Opener interface{ Open() chan error }

type source struct{}

// A method of a type converted to an interface: called out of view.
func (source) Open() chan error {
	done := make(chan error)
	go func() { done <- nil }() // want `send on unbuffered done blocks forever if the caller of Open stops waiting for the result`
	return done
}

func main() {
	im := &importer{}
	if err := <-im.Import(); err != nil {
		panic(err)
	}
	select {
	case <-im.ImportWithin():
	case <-time.After(time.Second):
	}
	var o Opener = source{}
	<-o.Open()
}
