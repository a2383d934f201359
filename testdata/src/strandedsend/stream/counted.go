package stream

// Streams of a fixed length: a producer that sends a constant number of
// values is a count, not an endless stream. A receiver that takes fewer
// than that many before it leaves strands the rest unless the buffer
// holds them; one that takes all of them, or leaves only after the
// producer is done, strands nothing.

// A fixed count of eight into an unbuffered channel, and a receiver that
// returns on the first match.
func firstSquareOver(limit int) int {
	squares := make(chan int)
	go func() {
		for i := 0; i < 8; i++ {
			squares <- i * i // want `send on squares blocks forever once the receiver stops receiving \(return at counted.go:\d+\)`
		}
		close(squares)
	}()
	for sq := range squares {
		if sq > limit {
			return sq
		}
	}
	return -1
}

// ok: the same count into a buffer that holds all eight.
func firstSquareOverRoomy(limit int) int {
	squares := make(chan int, 8)
	go func() {
		for i := 0; i < 8; i++ {
			squares <- i * i
		}
		close(squares)
	}()
	for sq := range squares {
		if sq > limit {
			return sq
		}
	}
	return -1
}

// A receiver that leaves its loop by break, not return, and never comes
// back to the channel: it has left by the return after the loop.
func hasNegative(vals []int) bool {
	ch := make(chan int)
	go func() {
		for _, v := range vals {
			ch <- v // want `send on ch blocks forever once the receiver stops receiving \(return at counted.go:61\)`
		}
		close(ch)
	}()
	found := false
	for v := range ch {
		if v < 0 {
			found = true
			break
		}
	}
	return found
}

// ok: the twin that drains what is left after breaking out.
func hasNegativeDrained(vals []int) bool {
	ch := make(chan int)
	go func() {
		for _, v := range vals {
			ch <- v
		}
		close(ch)
	}()
	found := false
	for v := range ch {
		if v < 0 {
			found = true
			break
		}
	}
	for range ch {
	}
	return found
}

// A generic producer of a fixed count (a range over an integer, whose
// test of its counter follows the send: a count, not a mark the
// receiver reads), started by a generic function and by a plain one.
func emitN[T any](ch chan<- T, v T) {
	for range 4 {
		ch <- v // want `send on ch blocks forever once the receiver stops receiving \(return at counted.go:\d+\)`
	}
}

func firstOf[T comparable](v, want T) bool {
	ch := make(chan T)
	go emitN(ch, v)
	for got := range ch {
		if got == want {
			return true
		}
	}
	return false
}

// ok: the generic twin whose receiver takes the four values it knows
// come.
func allOf[T comparable](v T) []T {
	ch := make(chan T)
	go emitN(ch, v)
	out := make([]T, 0, 4)
	for range 4 {
		out = append(out, <-ch)
	}
	return out
}

func firstInt(v, want int) bool {
	ch := make(chan int)
	go emitN(ch, v)
	for got := range ch {
		if got == want {
			return true
		}
	}
	return false
}

// A generic function's own goroutine.
func firstOfInline[T comparable](vs []T, want T) bool {
	ch := make(chan T)
	go func() {
		for _, v := range vs {
			ch <- v // want `send on ch blocks forever once the receiver stops receiving \(return at counted.go:\d+\)`
		}
		close(ch)
	}()
	for got := range ch {
		if got == want {
			return true
		}
	}
	return false
}

// ok: its twin that drains the rest.
func countOf[T comparable](vs []T, want T) int {
	ch := make(chan T)
	go func() {
		for _, v := range vs {
			ch <- v
		}
		close(ch)
	}()
	n := 0
	for got := range ch {
		if got == want {
			n++
		}
	}
	return n
}

// ok: a range over an integer whose sender marks its last value, the
// bad one it tests right after sending it: the receiver leaves on
// reading that mark, and the sender has returned.
func firstBadOf(n int, next func(int) item) bool {
	ch := make(chan item)
	go func() {
		for i := range n {
			it := next(i)
			ch <- it
			if it.bad {
				return
			}
		}
		close(ch)
	}()
	for it := range ch {
		if it.bad {
			return true
		}
	}
	return false
}

// A method of a generic type run as the goroutine, sending on its own
// channel field.
type box[T any] struct{ out chan T }

func (b *box[T]) fill(vs []T) {
	for _, v := range vs {
		b.out <- v // want `send on b.out blocks forever once the receiver stops receiving \(return at counted.go:\d+\)`
	}
	close(b.out)
}

func firstInBox(vs []int, want int) bool {
	b := &box[int]{out: make(chan int)}
	go b.fill(vs)
	for got := range b.out {
		if got == want {
			return true
		}
	}
	return false
}

// ok: the twin whose receiver takes everything.
func sumBox(vs []int) int {
	b := &box[int]{out: make(chan int)}
	go b.fill(vs)
	n := 0
	for got := range b.out {
		n += got
	}
	return n
}
