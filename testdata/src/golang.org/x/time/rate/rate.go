// Package rate is a stub of golang.org/x/time/rate for analysistest: the
// same API, so passes match it by import path.
package rate

import (
	"context"
	"time"
)

// Limit defines the maximum frequency of some events.
type Limit float64

// Inf is the infinite rate limit.
const Inf = Limit(1e308)

// Every converts a minimum time interval between events to a Limit.
func Every(interval time.Duration) Limit { return Limit(1 / interval.Seconds()) }

// A Limiter controls how frequently events are allowed to happen.
type Limiter struct {
	limit Limit
	burst int
}

// NewLimiter returns a new Limiter that allows events up to rate r and
// permits bursts of at most b tokens.
func NewLimiter(r Limit, b int) *Limiter { return &Limiter{limit: r, burst: b} }

// Wait is shorthand for WaitN(ctx, 1).
func (lim *Limiter) Wait(ctx context.Context) error { return lim.WaitN(ctx, 1) }

// WaitN blocks until lim permits n events to happen.
func (lim *Limiter) WaitN(ctx context.Context, n int) error { return ctx.Err() }

// Allow reports whether an event may happen now.
func (lim *Limiter) Allow() bool { return true }

// AllowN reports whether n events may happen at time t.
func (lim *Limiter) AllowN(t time.Time, n int) bool { return true }

// Tokens returns the number of tokens available now.
func (lim *Limiter) Tokens() float64 { return float64(lim.burst) }
