// Package exits holds receivers whose other way out ends the process: a
// call of os.Exit, or logging at fatal level (log.Fatal, zerolog's
// log.Fatal()…Msg, logrus, zap, klog). No goroutine outlives the
// process, so nothing is stranded there.
package exits

import (
	stdlog "log"
	"net/http"
	"os"

	"github.com/rs/zerolog/log"
)

// ok: the other case ends the process.
func serveBoth(a, b *http.Server) {
	aErr := make(chan error)
	bErr := make(chan error)
	go func() { aErr <- a.ListenAndServe() }()
	go func() { bErr <- b.ListenAndServe() }() // want `send on unbuffered bErr blocks forever once the receiver leaves \(case <-aErr at exits.go:\d+\)`
	select {
	case err := <-aErr:
		log.Error().Err(err).Msg("a stopped")
	case err := <-bErr:
		log.Fatal().Err(err).Msg("b failed")
	}
}

// ok: the same with the standard logger and os.Exit.
func waitStd(start func() error, stop <-chan struct{}) {
	done := make(chan error)
	go func() { done <- start() }()
	select {
	case err := <-done:
		stdlog.Printf("start: %v", err)
	case <-stop:
		os.Exit(0)
	}
}

// ok: a fatal log on the way out.
func waitFatal(start func() error, stop <-chan struct{}) {
	done := make(chan error)
	go func() { done <- start() }()
	select {
	case err := <-done:
		stdlog.Printf("start: %v", err)
	case <-stop:
		stdlog.Fatalln("stopped")
	}
}

// The twin that logs at error level and returns: the sender is stranded.
func waitLogged(start func() error, stop <-chan struct{}) {
	done := make(chan error)
	go func() { done <- start() }() // want `send on unbuffered done blocks forever once the receiver leaves \(case <-stop at exits.go:\d+\)`
	select {
	case err := <-done:
		if err != nil {
			stdlog.Printf("start: %v", err)
		}
	case <-stop:
		stdlog.Printf("stopping")
	}
}
