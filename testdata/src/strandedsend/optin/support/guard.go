package support

import (
	"errors"
	"time"
)

// silent by default, and with -strandedsend.tests too: a step's time
// limit in a harness, in a file that does not mention package testing;
// its timeout's error fails the test that runs the step (RunSteps calls
// t.Fatal on it), and a failed test ends the story.
func guard(step func() error, d time.Duration) error {
	errc := make(chan error)
	go func() {
		errc <- step()
	}()
	select {
	case err := <-errc:
		return err
	case <-time.After(d):
		return errors.New("step timed out")
	}
}
