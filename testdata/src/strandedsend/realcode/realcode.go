// Package realcode reproduces what strandedsend met in real code: each
// false positive it once reported, as a negative the pass must stay
// silent on, next to the true positives it must keep.
package realcode

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"time"
)

func work() {}

// nope: a count-down receive loop (archive/zip's reader test): the loop
// receives on every iteration, and the analysis cannot tell how many, so
// its exit is not a leave.
func countDown(files []string) {
	n := 0
	done := make(chan bool)
	for i := 0; i < 5; i++ {
		for range files {
			go func() {
				work()
				done <- true
			}()
			n++
		}
	}
	for ; n > 0; n-- {
		<-done
	}
}

// nope: range over an integer enters its loop through a pre-check
// (runtime's BenchmarkMutexCapture); skipping the loop receives as many
// values as there are senders: none.
func rangeInt(procs int) [][2]int {
	var out [][2]int
	results := make(chan [2]int)
	for range procs {
		go func() { results <- [2]int{} }()
	}
	for range procs {
		out = append(out, <-results)
	}
	return out
}

// nope: a stream received a constant number of times, then to its end
// (io's TestPipe2, runtime's chan tests): every value is received.
func streamCounted() int {
	c := make(chan int)
	done := make(chan struct{})
	go func() {
		for i := 0; i < 10; i++ {
			c <- i
		}
		done <- struct{}{}
	}()
	sum := 0
	for i := 0; i < 10; i++ {
		sum += <-c
	}
	<-done
	return sum
}

// nope: a stream received in counted loops nested in the loop that makes
// the channel (runtime's TestStackCache).
func streamNested(rounds, workers int) {
	for r := 0; r < rounds; r++ {
		done := make(chan struct{})
		for w := 0; w < workers; w++ {
			go func() {
				for i := 0; i < 3; i++ {
					done <- struct{}{}
				}
			}()
		}
		for i := 0; i < 3; i++ {
			for w := 0; w < workers; w++ {
				<-done
			}
		}
	}
}

// nope: the other case receives from a channel nothing sends on or
// closes (runtime/pprof's blockSelectRecvAsync): it never fires.
func neverReady() {
	c := make(chan bool, 1)
	c2 := make(chan bool, 1)
	go func() {
		for i := 0; i < 3; i++ {
			c <- true
		}
	}()
	for i := 0; i < 3; i++ {
		select {
		case <-c:
		case <-c2:
		}
	}
}

// nope: of P goroutines only the last to arrive sends (runtime's
// TestGoroutineParallelism); a send some of many goroutines may skip does
// not make as many values as goroutines.
func lastArrives(p int) {
	done := make(chan bool)
	var x atomic.Int32
	for i := 0; i < p; i++ {
		go func() {
			if x.Add(1) == int32(p) {
				done <- true
			}
		}()
	}
	<-done
}

// But a conditional sender of many still strands its value when the
// receiver visibly leaves.
func lastArrivesOrQuits(p int, quit <-chan struct{}) {
	done := make(chan bool)
	var x atomic.Int32
	for i := 0; i < p; i++ {
		go func() {
			if x.Add(1) == int32(p) {
				done <- true // want `\(case <-quit at realcode.go:\d+\)`
			}
		}()
	}
	select {
	case <-done:
	case <-quit:
	}
}

// nope: the capacity is a variable (sync's cond tests), even one the
// compiler folds to a constant: unknown means silence.
func variableRoom() {
	n := 2
	awake := make(chan bool, n)
	var mu sync.Mutex
	for i := 0; i < n; i++ {
		go func() {
			mu.Lock()
			awake <- true
			mu.Unlock()
		}()
	}
	<-awake
}

// nope: a future whose callers are all in view and all wait for it
// (testing's sub_test doCall).
func callers(f func(), start chan bool) {
	doCall := func(f func()) chan bool {
		done := make(chan bool)
		go func() {
			f()
			done <- true
		}()
		return done
	}
	signal := doCall(f)
	select {
	case <-signal:
	case start <- true:
		<-signal
	}
}

// A future whose caller in view can leave is reported at the send, with
// the caller's way out.
func leavingCaller(f func(), quit chan struct{}) {
	doCall := func() chan bool {
		done := make(chan bool)
		go func() {
			f()
			done <- true // want `send on unbuffered done blocks forever once the receiver leaves \(case <-quit at realcode.go:\d+\); the goroutine leaks — make done buffered`
		}()
		return done
	}
	select {
	case <-doCall():
	case <-quit:
	}
}

// unexported future, called in view: silent while every caller waits.
func start(f func()) <-chan struct{} {
	ch := make(chan struct{})
	go func() {
		f()
		ch <- struct{}{}
	}()
	return ch
}

func waitsForStart() { <-start(work) }

// One goroutine sending twice on a path, the second after an error it
// forgot to return on (os's TestOpenInRoot race test): the receiver takes
// one value and moves on.
func twice(open func() ([]byte, error)) {
	for range 3 {
		gotc := make(chan []byte)
		go func() {
			b, err := open()
			if err != nil {
				gotc <- nil // want `send on gotc blocks forever once the receiver leaves \(the next iteration at realcode.go:\d+\) after 1 of 2 values, with room for 0; the goroutine leaks — make gotc's capacity 2`
			}
			gotc <- b // related to the first send: one finding per channel
		}()
		<-gotc
	}
}

// nope: a polling loop that ends only once it has received (nats-server's
// TestMonitorRoutezRace): the flag is set on the receiving path alone.
func polling(poll func()) {
	doneCh := make(chan struct{})
	go func() {
		defer func() {
			doneCh <- struct{}{}
		}()
		work()
	}()
	done := false
	for !done {
		poll()
		select {
		case <-doneCh:
			done = true
		default:
		}
	}
}

// The same flag, also set when a quit channel fires: that path leaves.
func pollingQuit(poll func(), quit <-chan struct{}) {
	doneCh := make(chan struct{})
	go func() {
		defer func() {
			doneCh <- struct{}{} // want `\(case <-quit at realcode.go:\d+\)`
		}()
		work()
	}()
	done := false
	for !done {
		poll()
		select {
		case <-doneCh:
			done = true
		case <-quit:
			done = true
		default:
		}
	}
}

// nope: a stream of error reports into a large buffer that is checked,
// never drained (nats-server's JetStream KV tests): how many reports come
// is unknown, and so is whether the buffer holds them.
func errorReports(check func() error) int {
	errCh := make(chan error, 100)
	done := make(chan struct{})
	go func() {
		for {
			select {
			case <-done:
				return
			default:
				if err := check(); err != nil {
					errCh <- err
				}
			}
		}
	}()
	work()
	close(done)
	return len(errCh)
}

// nope: callbacks that may each send once, into a buffer the author
// sized for them (grpc's timeout cache test): a count known only at run
// time is not taken to exceed a buffer of more than one.
func sized(values []string, timeout <-chan struct{}) bool {
	callbacks := make(chan struct{}, 3)
	for range values {
		fired := make(chan struct{})
		go func() {
			select {
			case <-fired:
				callbacks <- struct{}{}
			case <-timeout:
			}
		}()
	}
	select {
	case <-callbacks:
		return false
	case <-timeout:
		return true
	}
}

// nope: the goroutine closes goAway and returns instead of sending
// (grpc's GOAWAY tests): receiving from goAway means it will not send.
func closedInstead(read func() (int, error), ctxDone <-chan struct{}) error {
	goAway := make(chan struct{})
	errCh := make(chan error)
	go func() {
		for {
			n, err := read()
			if err != nil {
				errCh <- err
				return
			}
			if n == 0 {
				close(goAway)
				return
			}
		}
	}()
	select {
	case <-goAway:
		return nil
	case err := <-errCh:
		return err
	}
}

// But a goroutine that may still send after closing strands the send.
func closedThenSends(read func() (int, error)) error {
	goAway := make(chan struct{})
	errCh := make(chan error)
	go func() {
		for {
			n, err := read()
			if n == 0 {
				close(goAway)
			}
			if err != nil {
				errCh <- err // want `\(case <-goAway at realcode.go:\d+\)`
				return
			}
		}
	}()
	select {
	case <-goAway:
		return nil
	case err := <-errCh:
		return err
	}
}

// nope: two goroutines may each send one error; the second closes
// ok instead when it succeeds. The receiver takes one error, then leaves
// through ok: the second goroutine is done without sending, so the error
// received was the first one's, and nothing is pending (x/net http2's
// TestDialRaceResumesDial).
func closedByOne(first, second func() error) error {
	errCh := make(chan error)
	go func() {
		if err := first(); err != nil {
			errCh <- err
		}
	}()
	ok := make(chan struct{})
	go func() {
		if err := second(); err != nil {
			errCh <- err
			return
		}
		close(ok)
	}()
	err := <-errCh
	select {
	case second := <-errCh:
		return errors.Join(err, second)
	case <-ok:
	}
	return err
}

// But when the goroutine closing ok may also have sent before, the value
// received may be its own, and the first goroutine's send strands.
func sentThenClosed(first, second func() error) error {
	errCh := make(chan error)
	go func() {
		if err := first(); err != nil {
			errCh <- err // want `send on errCh blocks forever once the receiver leaves \(case <-ok at realcode.go:\d+\)`
		}
	}()
	ok := make(chan struct{})
	go func() {
		if err := second(); err != nil {
			errCh <- err // related to the first send
		}
		close(ok)
	}()
	err := <-errCh
	select {
	case second := <-errCh:
		return errors.Join(err, second)
	case <-ok:
	}
	return err
}

// nope: a stream received now and then inside a counted loop whose
// counter the body also moves (nats-server's MQTT QoS1 benchmark), then
// the final values of each sender are received.
func ackStream(n int, acks func() int) error {
	ppich := make(chan error, 10)
	dch := make(chan error, 1)
	go func() {
		for acks() > 0 {
			ppich <- nil
		}
		ppich <- nil
		dch <- nil
	}()
	for i := 0; i < n; i++ {
		if i%2 == 0 {
			continue
		}
		if e := <-ppich; e != nil {
			panic(e)
		}
		i--
	}
	return <-dch
}

// nope: a stream into a large buffer whose producer watches the context
// the receiver cancels as it leaves (nats-server's JetStream cluster
// tests): whether the buffer holds the rest is unknown.
func bigBuffer(ctx context.Context, cancel func(), publish func() error, deadline <-chan time.Time) int {
	errCh := make(chan error, 100_000)
	go func() {
		for {
			select {
			case <-ctx.Done():
				return
			default:
				if err := publish(); err != nil {
					errCh <- err
				}
			}
		}
	}()
	n := 0
	for {
		select {
		case <-errCh:
			n++
			if n >= 2000 {
				cancel()
				return n
			}
		case <-deadline:
			cancel()
			return n
		}
	}
}

// nope: the receiver breaks out of its drain and returns on a path that
// tests an error only the producer sets, just before it stops (the
// Prometheus TSDB's WAL replay): where the receiver goes depends on what
// the sender did, so the analysis cannot tell that path strands it.
func replay(next func() (int, error), apply func(int) error) error {
	decoded := make(chan int, 10)
	var decodeErr, applyErr error
	go func() {
		defer close(decoded)
		for {
			v, err := next()
			if err != nil {
				decodeErr = err
				return
			}
			decoded <- v
		}
	}()
	for d := range decoded {
		if err := apply(d); err != nil {
			applyErr = err
			break
		}
	}
	if decodeErr != nil {
		return decodeErr
	}
	if applyErr != nil {
		for range decoded { // drain to unblock the producer
		}
		return applyErr
	}
	return nil
}

// The same replay without the drain strands the producer.
func replayUndrained(next func() (int, error), apply func(int) error) error {
	decoded := make(chan int)
	go func() {
		defer close(decoded)
		for {
			v, err := next()
			if err != nil {
				return
			}
			decoded <- v // want `send on decoded blocks forever once the receiver stops receiving \(return at realcode.go:\d+\)`
		}
	}()
	for d := range decoded {
		if err := apply(d); err != nil {
			return err
		}
	}
	return nil
}

// nope: three goroutines each signal once on a channel of their own, and
// the receiver counts the signals of all three before it returns
// (fasthttp's TestShutdown*): taking one channel's case waits again for
// the others, and the count decides the return.
func countedSignals(serve, client, shutdown func()) error {
	serveCh := make(chan struct{})
	go func() {
		serve()
		serveCh <- struct{}{}
	}()
	clientCh := make(chan struct{})
	go func() {
		client()
		clientCh <- struct{}{}
	}()
	shutdownCh := make(chan struct{})
	go func() {
		shutdown()
		shutdownCh <- struct{}{}
	}()
	done := 0
	for {
		select {
		case <-serveCh:
			done++
		case <-clientCh:
			done++
		case <-shutdownCh:
			done++
		}
		if done == 3 {
			return nil
		}
	}
}

// Returning on the first signal instead leaves the other two behind.
func firstSignal(serve, client func()) {
	serveCh := make(chan struct{})
	go func() {
		serve()
		serveCh <- struct{}{} // want `send on unbuffered serveCh blocks forever once the receiver leaves \(case <-clientCh at realcode.go:\d+\)`
	}()
	clientCh := make(chan struct{})
	go func() {
		client()
		clientCh <- struct{}{} // want `send on unbuffered clientCh blocks forever once the receiver leaves \(case <-serveCh at realcode.go:\d+\)`
	}()
	for {
		select {
		case <-serveCh:
			return
		case <-clientCh:
			return
		}
	}
}

// nope: a reader forwards messages until a read fails, then reports the
// error on another channel and returns; the handler returns only on that
// error (syncthing's relay protocolConnectionHandler): by then the reader
// has made its last send on messages.
func handleConn(read func() (string, error), handle func(string)) error {
	messages := make(chan string)
	errs := make(chan error, 1)
	go messageReader(read, messages, errs)
	for {
		select {
		case msg := <-messages:
			handle(msg)
		case err := <-errs:
			return err
		}
	}
}

func messageReader(read func() (string, error), messages chan<- string, errs chan<- error) {
	for {
		msg, err := read()
		if err != nil {
			errs <- err
			return
		}
		messages <- msg
	}
}

// A handler that also gives up on an idle timer leaves the reader
// blocked on its next message.
func handleConnIdle(read func() (string, error), handle func(string), idle <-chan time.Time) error {
	messages := make(chan string)
	errs := make(chan error, 1)
	go messageReader2(read, messages, errs)
	for {
		select {
		case msg := <-messages:
			handle(msg)
		case err := <-errs:
			return err
		case <-idle:
			return errors.New("idle")
		}
	}
}

func messageReader2(read func() (string, error), messages chan<- string, errs chan<- error) {
	for {
		msg, err := read()
		if err != nil {
			errs <- err
			return
		}
		messages <- msg // want `send on messages blocks forever once the receiver stops receiving \(case <-idle at realcode.go:\d+\)`
	}
}

// nope: one attempt at a time: the loop starts a new attempt only after
// the last one's error was received, so at most one goroutine is out when
// the context ends, and its one value fits the buffers (go-kit's
// lb.RetryWithCallback).
func retry(ctx context.Context, attempt func() (string, error)) (string, error) {
	responses := make(chan string, 1)
	errs := make(chan error, 1)
	for {
		go func() {
			r, err := attempt()
			if err != nil {
				errs <- err
				return
			}
			responses <- r
		}()
		select {
		case <-ctx.Done():
			return "", ctx.Err()
		case r := <-responses:
			return r, nil
		case <-errs:
			continue
		}
	}
}

// Hedging, a new attempt on every tick without waiting for the last,
// leaves several out when the context ends: one buffered value each is
// not enough.
func hedge(ctx context.Context, tick <-chan time.Time, attempt func() string) string {
	responses := make(chan string, 1)
	for {
		go func() {
			responses <- attempt() // want `send on responses blocks forever once the receiver leaves \(case <-ctx.Done\(\) at realcode.go:\d+\) before any of many values, with room for 1`
		}()
		select {
		case <-ctx.Done():
			return ""
		case r := <-responses:
			return r
		case <-tick:
		}
	}
}

func register() {}

// nope: a deferred send that runs only when the goroutine panicked, and a
// last send that runs only when it did not: one value either way
// (apimachinery's TestConflictingAddKnownTypes).
func panics() bool {
	panicked := make(chan bool)
	go func() {
		defer func() {
			if recover() != nil {
				panicked <- true
			}
		}()
		register()
		panicked <- false
	}()
	return <-panicked
}

// When the send it may panic after is not the last act, a panic can
// come after it, and both values may be sent.
func panicsAfter() bool {
	panicked := make(chan bool)
	go func() {
		defer func() {
			if recover() != nil {
				panicked <- true // want `send on panicked blocks forever once the receiver leaves \(return at realcode.go:\d+\) after 1 of 2 values, with room for 0`
			}
		}()
		panicked <- false
		register()
	}()
	return <-panicked
}

// nope: the deferred send runs only when the goroutine did not get to
// mark its own send done (a callback that called runtime.Goexit or
// panicked), so at most one value is sent, and the buffer holds it (fx's
// withTimeout).
func hookExited(ctx context.Context, callback func() error) error {
	c := make(chan error, 1)
	go func() {
		sent := false
		defer func() {
			if !sent {
				c <- errors.New("exited")
			}
		}()
		c <- callback()
		sent = true
	}()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case err := <-c:
		return err
	}
}

// The twin: the flag is set only when the callback failed, so after a
// success both sends are made, and the second finds the buffer full.
func hookFailed(ctx context.Context, callback func() error) error {
	c := make(chan error, 1)
	go func() {
		failed := false
		defer func() {
			if !failed {
				c <- errors.New("exited") // want `send on c blocks forever once the receiver leaves \(case <-ctx.Done\(\) at realcode.go:\d+\)`
			}
		}()
		err := callback()
		c <- err
		if err != nil {
			failed = true
		}
	}()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case err := <-c:
		return err
	}
}

func store(chunks <-chan []byte) (int, error) {
	n := 0
	for c := range chunks {
		n += len(c)
	}
	return n, nil
}

// nope: the goroutine consumes the chunks the function streams to it
// before it can send its result, so a return before the function closes
// chunks finds it inside store, not at its send (cosmos-sdk's snapshot
// load, where the goroutine is stranded in Save).
func loadChunks(next func() ([]byte, error), count int) (int, error) {
	chunks := make(chan []byte)
	saved := make(chan int)
	go func() {
		n, err := store(chunks)
		if err != nil {
			return
		}
		saved <- n
	}()
	for i := 0; i < count; i++ {
		c, err := next()
		if err != nil {
			return 0, err
		}
		chunks <- c
	}
	close(chunks)
	return <-saved, nil
}

// The twin: the function closes chunks, and then gives up waiting on a
// timer: the goroutine is past store, at its send.
func loadChunksWithin(next func() ([]byte, error), count int) (int, error) {
	chunks := make(chan []byte)
	saved := make(chan int)
	go func() {
		n, err := store(chunks)
		if err != nil {
			return
		}
		saved <- n // want `send on unbuffered saved blocks forever once the receiver leaves \(case <-time.After\(time.Second\) at realcode.go:\d+\)`
	}()
	for i := 0; i < count; i++ {
		c, err := next()
		if err != nil {
			break
		}
		chunks <- c
	}
	close(chunks)
	select {
	case n := <-saved:
		return n, nil
	case <-time.After(time.Second):
		return 0, errors.New("timed out")
	}
}

// The loop counts the streams that are done, not the error: after the
// last stream, the error goroutine may still send (client-go's
// remotecommand streamProtocolV1).
func streams(n int, copyStream func(), readError func() error) error {
	errorChan := make(chan error)
	go func() {
		if err := readError(); err != nil {
			errorChan <- err // want `send on unbuffered errorChan blocks forever once the receiver leaves \(case <-doneChan at realcode.go:\d+\)`
		}
	}()
	doneChan := make(chan struct{}, 2)
	go func() { copyStream(); doneChan <- struct{}{} }()
	go func() { copyStream(); doneChan <- struct{}{} }()
	completed := 0
	for {
		select {
		case <-doneChan:
			completed++
			if completed == 2 {
				return nil
			}
		case err := <-errorChan:
			return err
		}
	}
}

// nope: workers answer each request on one channel or the other, and
// the receiver takes one value per request, whichever channel it comes
// on: nothing is left (met on validation set 4: a query splitter that
// fans requests out to a bounded number of workers).
func fanOutAll(reqs []int, workers int) ([]int, error) {
	in := make(chan int)
	go func() {
		for _, r := range reqs {
			in <- r
		}
		close(in)
	}()
	resps, errs := make(chan int), make(chan error)
	for range workers {
		go func() {
			for r := range in {
				if r < 0 {
					errs <- errors.New("negative")
				} else {
					resps <- r * 2
				}
			}
		}()
	}
	var out []int
	var first error
	for range reqs {
		select {
		case v := <-resps:
			out = append(out, v)
		case err := <-errs:
			if first == nil {
				first = err
			}
		}
	}
	return out, first
}

// Its twin returns on the first error while the other workers still
// answer their requests. (One report per channel: each needs its fix.)
func fanOutFirst(reqs []int, workers int) ([]int, error) {
	in := make(chan int)
	go func() {
		for _, r := range reqs {
			in <- r
		}
		close(in)
	}()
	resps, errs := make(chan int), make(chan error)
	for range workers {
		go func() {
			for r := range in {
				if r < 0 {
					errs <- errors.New("negative") // want `send on errs \(or resps\) blocks forever once the receiver stops receiving \(return at realcode\.go:931\); the goroutine leaks — select on ctx\.Done\(\) or a done channel as well`
				} else {
					resps <- r * 2
				}
			}
		}()
	}
	var out []int
	for range reqs {
		select {
		case v := <-resps:
			out = append(out, v)
		case err := <-errs:
			return nil, err
		}
	}
	return out, nil
}

// A new attempt per trip round the loop, each one's result taken before
// the next starts: however many trips, one sender is out when the
// unsubscribe case leaves (go-ethereum's resubscribe loop, fixed
// upstream; from the corpus of real bugs).
type resubscriber struct {
	fn    func(context.Context) error
	unsub chan struct{}
}

func (s *resubscriber) subscribe() bool {
	subscribed := make(chan error)
	for {
		ctx, cancel := context.WithCancel(context.Background())
		go func() {
			subscribed <- s.fn(ctx) // want `send on unbuffered subscribed blocks forever once the receiver leaves \(case <-s\.unsub at realcode\.go:960\); the goroutine leaks — make subscribed buffered`
		}()
		select {
		case err := <-subscribed:
			cancel()
			if err != nil {
				continue
			}
			return true
		case <-s.unsub:
			cancel()
			return false
		}
	}
}

// unsubscribe ends subscribe: the loop leaves through its unsub case.
func (s *resubscriber) unsubscribe() { close(s.unsub) }

// nope: one engine at a time, over a counted loop: each trip starts one
// goroutine and takes its value (or leaves) before the next trip, so at
// most one is out when the context ends, and the buffer holds its value.
// The count of all the trips is not what is out (validation set 28,
// gotenberg's engines tried one after another).
func tryEach(ctx context.Context, engines []func() error) error {
	errs := make(chan error, 1)
	var last error
	for _, run := range engines {
		go func() {
			errs <- run()
		}()
		select {
		case err := <-errs:
			if err == nil {
				return nil
			}
			last = err
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	return last
}

// The unbuffered twin: the one engine out when the context ends has
// nowhere to put its value.
func tryEachUnbuffered(ctx context.Context, engines []func() error) error {
	errs := make(chan error)
	var last error
	for _, run := range engines {
		go func() {
			errs <- run() // want `send on unbuffered errs blocks forever once the receiver leaves \(case <-ctx.Done\(\) at realcode.go:1010\); the goroutine leaks — make errs buffered or select on ctx.Done\(\)`
		}()
		select {
		case err := <-errs:
			if err == nil {
				return nil
			}
			last = err
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	return last
}

// nope: the same with the channel closed after the last send: a builtin
// other than panic does not panic after the send, so one value either
// way, into the one receive (validation set 28, jupiter's task runner).
func panicsClosed() bool {
	panicked := make(chan bool)
	go func() {
		defer func() {
			if recover() != nil {
				panicked <- true
			}
		}()
		register()
		panicked <- false
		close(panicked)
	}()
	return <-panicked
}

// nope: one reader per entry, some returning without a value, and a
// loop of as many trips each taking a value or giving up after a
// timeout and going round: the trips given up are those of the readers
// that sent nothing (validation set 29, kepler's cpufreq reader).
func readEach(paths []string, read func(string) (int, error)) map[int]int {
	ch := make(chan int)
	for i := 0; i < len(paths); i++ {
		go func(i int) {
			v, err := read(paths[i])
			if err != nil {
				return
			}
			ch <- v
		}(i)
	}
	out := map[int]int{}
	for i := 0; i < len(paths); i++ {
		select {
		case v := <-ch:
			out[i] = v
		case <-time.After(time.Minute):
		}
	}
	return out
}

// The twin whose every reader sends: a trip given up is a reader slower
// than the timeout, whose value nobody takes.
func readEachAlways(paths []string, read func(string) int) map[int]int {
	ch := make(chan int)
	for i := 0; i < len(paths); i++ {
		go func(i int) {
			ch <- read(paths[i]) // want `send on ch blocks forever once the receiver leaves \(case <-time.After\(time.Minute\) at realcode.go:\d+\) before any of len\(paths\) values, with room for 0; goroutines leak — make ch's capacity len\(paths\)`
		}(i)
	}
	out := map[int]int{}
	for i := 0; i < len(paths); i++ {
		select {
		case v := <-ch:
			out[i] = v
		case <-time.After(time.Minute):
		}
	}
	return out
}
