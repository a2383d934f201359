// Package errgroup is a stub of golang.org/x/sync/errgroup for
// analysistest: the same API, so passes match it by import path.
package errgroup

import "context"

// A Group is a collection of goroutines working on subtasks.
type Group struct{ limit int }

// WithContext returns a new Group and an associated Context.
func WithContext(ctx context.Context) (*Group, context.Context) { return &Group{}, ctx }

// Go calls the given function in a new goroutine. With a limit set, it
// blocks until the new goroutine can be added without exceeding it.
func (g *Group) Go(f func() error) { go f() }

// TryGo calls the given function in a new goroutine only if the number of
// active goroutines in the group is below the configured limit.
func (g *Group) TryGo(f func() error) bool { go f(); return true }

// Wait blocks until all function calls from the Go method have returned.
func (g *Group) Wait() error { return nil }

// SetLimit limits the number of active goroutines in this group to at
// most n. A negative value indicates no limit.
func (g *Group) SetLimit(n int) { g.limit = n }
