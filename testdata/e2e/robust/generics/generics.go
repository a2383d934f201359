// Package generics uses type parameters over channels, semaphores and
// slices, in the shapes the passes look for.
package generics

import (
	"context"
	"io"
)

// Semaphore is a generic channel semaphore.
type Semaphore[T any] chan T

// Map runs f on every element, each on a goroutine that waits for sem.
func Map[T, U any](xs []T, sem Semaphore[struct{}], f func(T) U, out chan<- U) {
	for _, x := range xs {
		go func() {
			sem <- struct{}{}
			defer func() { <-sem }()
			out <- f(x)
		}()
	}
}

// First returns f's result or gives up with ctx.
func First[T any](ctx context.Context, f func() T) (T, error) {
	c := make(chan T)
	go func() { c <- f() }()
	select {
	case v := <-c:
		return v, nil
	case <-ctx.Done():
		var zero T
		return zero, ctx.Err()
	}
}

// Head reads everything and keeps the first n elements of it.
func Head[S ~[]byte](r io.Reader, n int) (S, error) {
	data, err := io.ReadAll(r)
	if err != nil || len(data) < n {
		return nil, err
	}
	return S(data[:n]), nil
}

// Pair is a generic pair whose methods start goroutines.
type Pair[K comparable, V any] struct {
	sem  chan struct{}
	keys []K
}

// Each calls f for each key on a goroutine, acquiring before spawning.
func (p *Pair[K, V]) Each(f func(K)) {
	for _, k := range p.keys {
		p.sem <- struct{}{}
		go func() {
			defer func() { <-p.sem }()
			f(k)
		}()
	}
}
