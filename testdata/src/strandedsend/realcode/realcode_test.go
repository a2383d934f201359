package realcode

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func read() error { return errStub }

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

func encode() error { return errStub }
func decode() error { return errStub }

// nope: errc carries only failures: it is sent on when encoding or
// decoding fails, and receiving from it fails the test (client-go's
// rest/watch TestDecoder). A send left behind on it is one more symptom
// of a test that is failing already.
func TestFailureChannel(t *testing.T) {
	errc := make(chan error)
	go func() {
		if err := encode(); err != nil {
			errc <- err
		}
	}()
	done := make(chan struct{})
	go func() {
		if err := decode(); err != nil {
			errc <- err
			return
		}
		close(done)
	}()
	select {
	case err := <-errc:
		t.Fatal(err)
	case <-done:
	}
}

// A channel whose values the test reads and checks carries results: the
// encoder's result is left behind when the decoder finishes first.
func TestResultChannel(t *testing.T) {
	errc := make(chan error)
	go func() {
		errc <- encode() // want `send on unbuffered errc blocks forever once the receiver leaves \(case <-done at realcode_test.go:\d+\)`
	}()
	done := make(chan struct{})
	go func() {
		decode()
		close(done)
	}()
	select {
	case err := <-errc:
		if err != nil {
			t.Fatal(err)
		}
	case <-done:
	}
}

// stage is a pipeline stage of production code: it sends one value per
// input.
func stage(in []int, out chan<- int) {
	for _, v := range in {
		out <- v * 2
	}
}

// nope: after taking the values it expects, the test asserts that
// nothing more arrived, failing if something did (syncthing's
// TestCopierFinder): a value still pending fails the test.
func TestNothingMore(t *testing.T) {
	out := make(chan int)
	go stage([]int{1, 2}, out)
	for i := 0; i < 2; i++ {
		<-out
	}
	select {
	case v := <-out:
		t.Fatalf("unexpected %d", v)
	default:
	}
}

// A test that polls once and moves on strands the stage.
func TestPollOnce(t *testing.T) {
	out := make(chan int)
	go stage2([]int{1, 2}, out)
	select {
	case v := <-out:
		t.Log(v)
	default:
	}
}

func stage2(in []int, out chan<- int) {
	for _, v := range in {
		out <- v * 2 // want `send on out blocks forever once the receiver stops receiving \(default at realcode_test.go:\d+\)`
	}
}

// errStub stands for the failures the stubs above may report: they can
// fail, as what they stand for can.
var errStub error
