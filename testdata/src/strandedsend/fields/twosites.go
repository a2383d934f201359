package fields

import (
	"context"
	"time"
)

// A permit future constructed at two sites, both unbuffered: the fix
// buffers the field at each of them.
type permit struct{ ok chan bool }

func requestPermit(ask func() bool) *permit {
	p := &permit{ok: make(chan bool)}
	go func() {
		p.ok <- ask() // want `send on unbuffered p\.ok blocks forever once a caller of \(\*permit\)\.OK stops waiting \(case <-ctx\.Done\(\) at twosites\.go:39\); the goroutine leaks — make ok buffered`
	}()
	return p
}

func requestPermitAfter(d time.Duration, ask func() bool) *permit {
	p := &permit{ok: make(chan bool)}
	go func() {
		time.Sleep(d)
		p.ok <- ask()
	}()
	return p
}

func (p *permit) OK() <-chan bool { return p.ok }

func Permitted(ctx context.Context, later bool, ask func() bool) bool {
	p := requestPermit(ask)
	if later {
		p = requestPermitAfter(time.Second, ask)
	}
	select {
	case ok := <-p.OK():
		return ok
	case <-ctx.Done():
		return false
	}
}

// ok: the twin constructed at two sites, each with room.
type lot struct{ ok chan bool }

func requestLot(ask func() bool) *lot {
	l := &lot{ok: make(chan bool, 1)}
	go func() { l.ok <- ask() }()
	return l
}

func requestLotAfter(d time.Duration, ask func() bool) *lot {
	l := &lot{ok: make(chan bool, 1)}
	go func() {
		time.Sleep(d)
		l.ok <- ask()
	}()
	return l
}

func (l *lot) OK() <-chan bool { return l.ok }

func Allotted(ctx context.Context, later bool, ask func() bool) bool {
	l := requestLot(ask)
	if later {
		l = requestLotAfter(time.Second, ask)
	}
	select {
	case ok := <-l.OK():
		return ok
	case <-ctx.Done():
		return false
	}
}
