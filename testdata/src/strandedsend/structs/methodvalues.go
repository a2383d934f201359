package structs

import (
	"context"
	"io/fs"
	"path/filepath"

	"strandedsend/structs/jobs"
)

// Method values run in place: the goroutine hands w.visit to a walker,
// or calls f := j.run. The trace looks through the synthetic wrapper of
// the method value into the method, whose receiver holds the channel.

type walker struct{ paths chan string }

func (w *walker) visit(p string, d fs.DirEntry, err error) error {
	w.paths <- p // want `send on w\.paths blocks forever once the receiver stops receiving \(case <-ctx\.Done\(\) at methodvalues\.go:30\); the goroutine leaks — select on ctx\.Done\(\) or a done channel as well$`
	return nil
}

// A method value handed to a walker inside the goroutine: the walker
// runs it once per file, and the receiver takes the first path only.
func firstPath(ctx context.Context, root string) string {
	w := &walker{paths: make(chan string)}
	go func() { filepath.WalkDir(root, w.visit) }()
	select {
	case p := <-w.paths:
		return p
	case <-ctx.Done():
		return ""
	}
}

type chore struct {
	id   int
	done chan int
}

func (c *chore) finish() {
	c.done <- c.id // want `send on unbuffered c\.done blocks forever once the receiver leaves \(case <-ctx\.Done\(\) at methodvalues\.go:54\); the goroutine leaks — make done buffered in methodValue$`
}

// A method value called in place by the goroutine.
func methodValue(ctx context.Context) int {
	c := &chore{id: 6, done: make(chan int)}
	go func() {
		f := c.finish
		f()
	}()
	select {
	case v := <-c.done:
		return v
	case <-ctx.Done():
		return -1
	}
}

// nope: a method value of another package's type: the method's body is
// not in view, and its wrapper is not a summarised helper.
func remoteMethodValue(ctx context.Context) int {
	j := &jobs.Job{ID: 7, Out: make(chan int)}
	go func() {
		f := j.Run
		f()
	}()
	select {
	case v := <-j.Out:
		return v
	case <-ctx.Done():
		return -1
	}
}
