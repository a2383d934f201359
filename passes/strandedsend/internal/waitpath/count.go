package waitpath

import "strconv"

// A Count is how many values senders will send: a constant, a number
// known only at run time and written in the source (the trip count of the
// loop that starts them), an unknown number, or a stream.
type Count struct {
	N      int64  // a constant number of sends (when Expr, Many and Stream are unset)
	Expr   string // the number as written in the source, such as "len(jobs)"
	Many   bool   // a finite number the analysis cannot name
	Stream bool   // a sender sends in a loop: no number bounds it
	// Endless: a stream whose sender cannot return once it has sent (its
	// loop has no way out but the process's end): however far the
	// receiver got, whatever way it leaves strands it.
	Endless bool
	Maybe   bool // at most this many: some senders may send nothing
}

// One is the count of one goroutine sending once.
var One = Count{N: 1}

// Constant reports whether c is a constant number of sends: no
// expression, not many, not a stream.
func (c Count) Constant() bool { return c.Expr == "" && !c.Many && !c.Stream }

// IsZero reports whether c counts no sends.
func (c Count) IsZero() bool { return c.N == 0 && c.Expr == "" && !c.Many && !c.Stream }

// Plus returns the count of the sends of c and d together.
func (c Count) Plus(d Count) Count {
	sum := c.plus(d)
	sum.Maybe = sum.Maybe || c.Maybe || d.Maybe
	return sum
}

func (c Count) plus(d Count) Count {
	switch {
	case c.Stream || d.Stream:
		return Count{Stream: true, Endless: c.Endless || d.Endless}
	case c.IsZero():
		return d
	case d.IsZero():
		return c
	case c.Many || d.Many || c.Expr != "" || d.Expr != "":
		return Count{Many: true}
	}
	return Count{N: c.N + d.N}
}

// Times returns the count of trip goroutines that each send per values.
func (per Count) Times(trip Count) Count {
	switch {
	case per.IsZero() || trip.IsZero():
		return Count{}
	case per.Stream || trip.Stream:
		return Count{Stream: true, Endless: per.Endless}
	case per.Many || trip.Many:
		return Count{Many: true}
	case trip.Expr != "" && per.N == 1:
		return trip
	case trip.Expr != "":
		return Count{Many: true}
	}
	return Count{N: per.N * trip.N}
}

// Exceeds reports whether, once recvd values have been received, more
// sends than room can still be pending. A count known only at run time,
// or a stream, is taken to be large (the code was written for more than
// a few) but not larger than a buffer of two or more, which its author
// sized for it: whether that suffices is unknown.
func (c Count) Exceeds(recvd int, room int64) bool {
	if c.Stream || c.Many || c.Expr != "" {
		return room <= 1
	}
	return c.N-int64(recvd) > room
}

// Source returns c as a Go expression usable as a channel capacity, and
// whether there is one.
func (c Count) Source() (string, bool) {
	switch {
	case c.Stream || c.Many:
		return "", false
	case c.Expr != "":
		return c.Expr, true
	}
	return strconv.FormatInt(c.N, 10), true
}

func (c Count) String() string {
	if s, ok := c.Source(); ok {
		return s
	}
	if c.Stream {
		return "a stream"
	}
	return "many"
}
