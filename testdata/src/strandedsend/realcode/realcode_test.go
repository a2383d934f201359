package realcode

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func read() error { return nil }

// nope: the receiver leaves only on a path where the test has failed
// (bufio's TestZeroReader): the leak does not outlive a failing test.
func TestTimedOut(t *testing.T) {
	c := make(chan error)
	go func() { c <- read() }()
	select {
	case err := <-c:
		if err != nil {
			t.Error(err)
		}
	case <-time.After(time.Second):
		t.Error("timed out")
	}
}

// nope: the same with t.Fatalf.
func TestTimedOutFatal(t *testing.T) {
	c := make(chan error)
	go func() { c <- read() }()
	select {
	case err := <-c:
		if err != nil {
			t.Error(err)
		}
	case <-time.After(time.Second):
		t.Fatalf("timed out")
	}
}

// A test that never receives what its goroutine sends (crypto/tls's
// ECH rejection test) leaks on every run, failing or not.
func TestNeverReceived(t *testing.T) {
	done := make(chan error)
	go func() {
		done <- read() // want `\(the end of the function at realcode_test.go:51\)`
	}()
	if err := read(); err != nil {
		t.Fatalf("unexpected: %v", err)
	}
}

// nope: testify's require.FailNow fails the test as t.FailNow does
// (Prometheus's scrape loop tests).
func TestTestifyFailNow(t *testing.T) {
	c := make(chan error)
	go func() { c <- read() }()
	select {
	case err := <-c:
		require.NoError(t, err)
	case <-time.After(time.Second):
		require.FailNow(t, "timed out")
	}
}
