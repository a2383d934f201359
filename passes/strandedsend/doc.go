// Package strandedsend defines an Analyzer that reports sends that block
// forever because their receiver stopped waiting.
//
// # Analyzer strandedsend
//
// strandedsend: report sends that block forever once their receiver leaves
//
// A function makes a channel, starts a goroutine that sends its result on
// it, and then may stop receiving: it selects on ctx.Done() or a timer, it
// returns early on an error path, or it returns on the first error while
// other senders still have to report. The goroutine's plain send then
// blocks forever, and the goroutine leaks with everything it holds. Under
// load every abandoned request leaves one behind, and memory grows until
// the process dies. It is the most common message-passing bug in studied
// Go systems, and its usual fix is one number: make(chan T, 1).
//
// Wrong:
//
//	func fetch(ctx context.Context, url string) (string, error) {
//		reply := make(chan string)
//		go func() {
//			reply <- get(url) // send on unbuffered reply blocks forever once the receiver leaves (case <-ctx.Done() at fetch.go:13); the goroutine leaks — make reply buffered or select on ctx.Done()
//		}()
//		select {
//		case body := <-reply:
//			return body, nil
//		case <-ctx.Done():
//			return "", ctx.Err()
//		}
//	}
//
// Right: reply := make(chan string, 1). The goroutine's send completes
// into the buffer whether or not anyone is still listening, and the value
// is collected with the channel.
//
// The pass follows each channel a function makes into the goroutines it
// starts, counts the plain sends they make on it (a send statement, or a
// select whose other cases cannot fire) and the values the function
// receives on each path, and reports a send when some path leaves with
// more sends pending than the buffer holds:
//
//   - a select that takes another case: ctx.Done(), a timer, another
//     channel, a default;
//   - a return between the go statement and the receive, unless the
//     sender is then still waiting for a step this function makes
//     itself: it first calls a method of a value the function holds
//     (c, err := l.AcceptTCP()) and sends what that call returned, and
//     the function aims a call at that value (net.DialTCP to
//     l.Addr()). Before that call, and where it reports failure, the
//     sender is inside its wait, not at its send (validation set 42,
//     a socket pair dialling its own listener); a listener whose
//     connections come from elsewhere has no such step, and a way out
//     after a dial that succeeded strands the send;
//   - a loop receiving from N senders that returns on the first error,
//     with a buffer smaller than N (make the capacity N, or len(jobs));
//   - a request whose reply channel is made unbuffered, sent to a
//     long-lived worker, and waited for in a select: the worker's
//     req.reply <- r blocks, and with it the worker. This is found across
//     packages both ways: from the caller's package to the worker's,
//     reported at the worker's send, and from a worker's package to a
//     caller depending on it, directly or through other packages (the
//     worker's plain sends on channel fields travel as a fact of its
//     package), reported at the caller's make, the channel to buffer.
//     The caller
//     must wait for the reply (receive from the channel it made): a
//     function that makes a channel field and never receives from it
//     (a subscription's placeholder, a channel someone else reads) is
//     no requester, and its return is not a receiver leaving. The
//     request is handed over where it is sent, registered or passed on,
//     not where it is wrapped: put in a struct the requester makes (a
//     task, an envelope), converted to an interface, it goes where the
//     wrapper goes, and a path that leaves before that send (the other
//     case of the select that enqueues it) has no reply to wait for
//     (validation set 34, an HSM signer's requests). When a
//     helper hands the request over and reports whether it did (a false
//     result, a non-nil error), the path on which it refused has no
//     reply to wait for. When the requester skips the reply only on a
//     channel that a method the request carries closes (interrupt:
//     w.stopJob, nothing else closing it or calling the method), the
//     skip is the taker's own doing: a worker whose function never
//     selects that field is always received from (validation set 22,
//     tunny's Process beside ProcessTimed);
//   - a future: a function that returns an unbuffered channel fed by one
//     send from a goroutine it starts. Any caller that stops waiting
//     strands the sender, and a capacity of one costs nothing: it is
//     reported when one of its callers in view can stop waiting (drops
//     the channel, passes it on, or leaves before it receives; a
//     caller that keeps it in a struct in a map it makes and keeps to
//     itself has not passed it on: it still waits if it cannot leave
//     before it receives from what it reads back, validation set 34, a
//     test harness keeping a counter's result per shard). When
//     other packages can call it too (an exported function or method of a
//     package other than main, a method of a type the package converts
//     to an interface or embeds, a function used as a value: but a
//     closure kept in a variable set once and only ever called, there or
//     in closures capturing it, has every call in view, validation set
//     31, athens' parallel delete), the calls
//     the package makes itself outside its tests stand for the contract:
//     if there are some and all of them wait, it is not reported (a
//     caller that only hands it to goroutines or closures that each take
//     it with a plain receive before they can return waits too: they
//     wait in its stead, and never give up; validation set 18, cilium's
//     forwarding goroutines); if
//     there are none, nothing shows the contract, and it is reported
//     (when every call is in view and there is none, as for an
//     unexported function nothing calls, nothing can stop waiting, and
//     it is not: validation set 29, a future copied without its
//     callers),
//     unless the sender can reach its send only after its caller has
//     signalled (it first waits, itself or in a function it calls, on a
//     channel the function returns, or that a closure the function
//     returns closes: done, then read), a protocol with its consumer
//     (validation set 13, a collector of cache hints whose caller closes
//     its input), or unless it fills, on its way to the send, a variable
//     of the function whose address the function returns beside the
//     channel: a caller cannot read those results before it receives
//     without racing their writer, so the channel says they are complete
//     and every caller that uses them waits (validation set 41, a suffix
//     tree builder returning its node slice by address); a variable
//     written only after the send, or not returned, says nothing of the
//     kind. A sender that waits for its caller's cancel only after
//     its send (send one event, then <-ctx.Done()) is still reported: a
//     caller that cancels before reading strands it at the send, as in
//     moby's discovery watcher (bench/realbugs), though an API may
//     promise that its callers drain (set 12, cli-utils). A caller that
//     only returns the future is a future function in turn, judged by its
//     own callers; one that returns another channel at the same result on
//     other paths (a stream, with the future as its error path) makes the
//     future one source of a stream, judged only where a stream's reader
//     is in view (validation set 12, cli-utils), and so does the function
//     making the future when it returns, at that result on other paths, a
//     channel it does not make (another producer's, from a call, a field
//     or a parameter; nil does not count): the future is the error branch
//     of a function forwarding that stream (validation set 31, opencode's
//     one error event for an unsupported provider). A channel returned by
//     the same return as a stream the same goroutine feeds (chunks and
//     their error) is that stream's trailer, not a future: its reader
//     reads the stream to its end and the trailer with it, judged where
//     the stream is read (validation set 14, an image source's
//     GetBlobAt);
//   - for streams (a goroutine sending in a loop), a receiver that
//     visibly stops early: buffering does not help there, the sender must
//     select on a done channel or ctx.Done() as well. A stream whose
//     sender cannot return once it has sent (its loop has no way out: an
//     error makes it try again, or ends the process) is endless: every
//     way the receiver stops receiving strands it, its own return on the
//     value it was waiting for included, and that return, which happens
//     on every run, is the exit the report names, before a select case
//     that fires only if somebody cancels (validation set 16,
//     argo-workflows: a watch whose context no caller cancels);
//   - a receiver that waits for its senders to finish before it receives
//     (the Wait of the WaitGroup they mark Done in a deferred call or in
//     a call after which they cannot send, or of the errgroup whose Go
//     started them; a WaitGroup that is a field of the same variable
//     counts), with more sends than the buffer holds: each side waits
//     for the other forever;
//   - a receiver that locks a mutex before it receives (itself, or by
//     calling a method of the package that locks it first thing, on
//     every path) while every sender holds that mutex across its sends
//     (locked in the
//     goroutine's own body on a path to the send that does not unlock
//     it; a read lock waits only for a sender holding the write lock):
//     when the sender takes the lock first, each waits for the other.
//     Locks a sender takes in helpers, locks deeper than one call on
//     the receiver's side, and a mutex reached another way than
//     through the same variable, field or global, are not followed;
//   - with -strandedsend.consumers (opt-in), the other direction: the
//     function streams values (plain sends in a loop that does not also
//     make the channel, after it has started the receivers) to goroutines
//     it starts, and every one of them can stop receiving before the
//     channel is closed, on a failure or a cancellation (it returns or
//     breaks out on a non-nil error, or leaves on ctx.Done() or a timer,
//     without draining): once they have, the function's next send blocks
//     forever, and the function with it. A receiver that stops after a
//     set number of values, or on a signal the function gives once it has
//     sent everything, keeps a protocol and is not reported. It is opt-in
//     because its first look (validation set 5) was 2 false of 3: lockstep
//     barriers where the function waits for every receiver between sends
//     are not told apart yet.
//
// The model: a report needs a channel the function makes, with a
// capacity it writes as a constant, that only it receives from and only
// goroutines it starts send on (every use in view); the plain sends those
// goroutines can make on it, counted per path (a goroutine sending in a
// loop is a stream, unless the send runs under a flag the loop sets on
// every way round from it and never clears: if !sent { sent = true;
// ch <- v } sends once, validation set 21, frp; the same when the flag is
// a variable of the goroutine, made once outside its loops, that a
// closure captures or the body of a range-over-func loop sets, set on
// every way to the send or in its block, the send unable to run again
// without testing it, and never set false but where it is declared,
// validation set 31, ddev's readiness line sent from a strings.SplitSeq
// loop; a send so made once is counted on its own channel, never as one
// of a pair of answers, one per round, with another channel's sends in
// the same loop: ddev's loop forwards every other line on a second
// channel; nor is a send whose loop comes back round to it only on a
// tick of a ticker the goroutine made and stops after the send, on every
// way round, never resetting it nor letting it go anywhere (a stopped
// ticker ticks no more, since Go 1.23 not even a tick already due; the
// package's go version decides): a poller that sends its first error,
// stops its ticker and waits for the next tick sends once, validation
// set 32, doctl; nor is a loop whose
// every way round from the send passes a plain send of its own on
// another unbuffered channel of the function, with at most one send on
// the channel between two of those: an accept loop that sends each
// connection on conns and, when Accept fails, an error on errc first
// sends one error a round, and starts a round only when the function
// takes a connection, so what it has yet to have taken never exceeds
// the buffer and the one send it waits at, and a path that leaves
// having just taken the error leaves nothing stranded on errc; the
// goroutine is stranded at conns, reported there; validation set 21,
// kapacitor); and a path on which the function stops receiving
// while more sends are pending than the buffer holds. Receives on the way
// count, against the senders started on the way: a loop that starts a
// goroutine per attempt, each sending one value, and takes each value
// before it starts the next, has one sender out at a time, whether the
// loop's trips can be counted or not (for _, e := range engines, each
// engine tried once its predecessor's value was taken, a buffer of one:
// validation set 28, gotenberg); a go
// statement in a loop reached only on the trip whose index equals a value
// the loop does not change (if i == len(cmds)-1) starts one sender, not
// one per trip (validation set 13, release-utils). Requests count
// the same way: a goroutine that loops on a request channel only the
// function sends on, and answers each request it takes with at most one
// plain send (on one or another reply channel), has as many answers out
// as requests not yet answered; a function that takes each answer before
// its next request has one out when it leaves, which a buffer of one
// holds. An exit that can only happen once the sender is done is not a
// leave: receiving from a channel the sender closes instead of sending,
// or sends on last before it returns (a reader that forwards messages
// until an error, which it then reports on another channel, plainly or
// in a select that gives up on ctx.Done(); validation set 10, templ;
// a send from a deferred closure comes after everything the body sends,
// and one made only when recover() returns non-nil never comes after a
// send that is the body's last act, with no call after it that may
// panic, so a done signal sent from a deferred recover excludes the
// result's send; validation set 33, libopenapi-validator),
// or that another goroutine sends on, only and only after a Wait of the
// group that waits for every sender to have made its sends (defer
// wg.Done() in each; go func() { wg.Wait(); done <- struct{}{} }(), the
// select taking done or the first error; validation set 22, karmada),
// or
// shutting down (Shutdown, Close) the HTTP server whose error the sender
// reports only when it is not http.ErrServerClosed: the shutdown's own
// error is the one it drops. A send that follows a Serve that cannot
// return is never made: the sender made the *http.Server itself and uses
// it for nothing but its fields, the setters that cannot stop it
// (SetKeepAlivesEnabled, RegisterOnShutdown) and that call (or calls
// http.Serve), and the listener and everything it was made from are the
// function's own, made by calls given nothing that could close them
// later (a context, a channel, a function) and used for nothing but
// serving, making listeners and reading their address (validation set
// 32, go-swagger's docs server); Serve returns only when its listener fails or the server
// stops, and nothing can make either happen. What leaks then is the
// server, which this pass does not claim (validation set 19, kwok: the
// two servers of a multiplexed listener). ServeTLS and ListenAndServe can
// fail as they start, and are counted as any sender. A sender that,
// before its send, hands a call a channel the function streams to and
// closes (Save(h, chunks), reading chunks until it is closed) cannot
// reach its send before that close: a leave before it strands the
// sender inside the call, which this pass does not claim. Likewise a sender that sends on two channels
// in turn (outcome <- o; failure <- err) reaches the second only once the
// first value is taken: a leave before that strands it at the first
// send, reported there, and the second is pending only from that receive
// on (validation set 11, ginkgo). A sender that marks its last value
// (right after a send it tests what it sent, an end-of-stream flag or a
// [DONE] line, or what it had beside it, and on one branch sends no
// more; the test may follow in the block the send falls through to when
// that block only tests: an error sent in an if with no return, then if
// page == nil { break } on the page the call gave beside the error,
// validation set 27, guac) is done when its
// receiver leaves the loop of receives on a test of a received value:
// that is the mark, read (validation set 10, langchaingo's ernie); a
// receiver stopping at the first match of a stream with no mark still
// strands it. A test of the loop's own counter is no mark: for range n
// tests its counter right after the body's send, and the end it decides
// is a count of trips the receiver cannot read off a value (a producer
// of four values into a receiver that returns on the first match still
// strands the rest). A lone sender, started once, whose plain sends are struct
// literals that tell its last value from the others by a field (nil in
// the one send after which it can send no more, and in every other a
// value it has just tested is not nil: an error sent under if err !=
// nil with no return after it, then the result with no error) is done
// once its receiver finds that field of a received value nil: a leave
// on that branch strands nothing, and the exit named is one on the
// other (validation set 34, a NETCONF client's capabilities read). A
// sender whose every send hands on, with no call between, a value it
// has just taken from a source opened with the receiver's context (a
// channel that a call given that context, or a context derived from it,
// returned, directly or by a method of what it returned: a watch, a
// subscription) is done once that context is: by the contract of a call
// that takes a context the source then closes, the loop over it ends,
// and the sender returns without sending. A case on that ctx.Done() is
// no leave, and the exit named is another, such as the select's timer
// (validation set 35, a pod watch whose first event is handed on); a
// value in flight at the instant of cancellation is left out of the
// model. A plain receive from the source (no comma-ok, no range) gives
// the zero value once it is closed, which is then sent, and a send after
// the loop, or of what a call made of the value, can come after the
// context's end: those still count. The same holds for a sender that
// sends only on the branch where a call given that context returned a
// nil error, a value made of the call's results (no call making it),
// with nothing between that branch and the send that can wait (a send,
// a receive, a call given a context, a channel or a function), and
// that returns without sending when the call fails: once the context is
// done the call fails (validation set 36, a validator client's
// first-answer-wins strategies, each asking every beacon node with the
// context it then times out). A
// counted loop of receives whose every trip waits for a
// value in a select, and either takes one or gives up on another case
// that goes round (a timeout logged), has taken a value from every
// sender that sent when its senders may return without sending: the
// trips given up are theirs (a goroutine per directory entry, some
// returning early, and a trip each with a one-minute timeout;
// validation set 29, kepler); when every sender sends, a trip given up
// strands one, reported at that case. Nor is a select case after which the receiving loop waits again, or an exit
// from a loop of receives decided by a count the analysis cannot follow
// (done++ over the cases of several channels, then done == 3). A loop
// whose own test compares a counter with a bound (for done < total),
// the counter starting at zero and growing by one only after a value of
// the channel is taken, or a value of another channel every sender sends
// on exactly once after its last send on this one (an optional error,
// then always its result), has received its bound when it ends through
// that test, its first check included: a bound that is not a constant
// means everything sent was taken, as for a counted loop (validation set
// 13, libopenapi: counting results after the error they follow, counting
// done signals of two sets of workers). A loop whose test holds when it
// is entered (for i := 0; i < 2; i++, for n := 2; n > 0;) runs once at
// least. A loop taking a constant number of values, one a trip, from a
// select over the channel and other channels of the function whose
// senders it starts and counts (plain sends, nobody closing them), has
// taken all its trips' values from the channel but those the others
// send: two goroutines copying a connection each way, each reporting on
// a done channel of its own, and a loop taking two values from a select
// over both, strand neither (validation set 32, ziti's tunnel). A send
// a helper makes for two channels (two goroutines run it, each given
// its own) is reported once; its fix buffers both. A send made by a goroutine the
// sender starts comes before the sender's own last send when the sender
// waits for it first: every path from its go statement to that send
// passes a Wait of a sync.WaitGroup the goroutine marks Done, a Wait
// under a flag set beside every such start counting (if started {
// wg.Wait() }: the flag is false only when nothing was started). A
// boolean parameter or captured variable keeps its value along a path:
// a sender started under if !inline is not stranded by the receive
// skipped under if inline (validation set 10, go-git); so does a
// boolean the function computes once, outside its loops (check :=
// cmd.ShouldCheck(), tested around the go statement and again around
// the receive; validation set 29, driftctl), and a test against nil of a
// parameter or of such a value (a sender started under if out != nil ||
// errOut != nil is not stranded by a receive skipped only when the same
// test fails; validation set 29, cri-dockerd); a value computed again
// (the same call made twice) may differ, and is not; so does a test
// of whether a field of the struct a parameter or captured variable
// points to is nil, when the function stores to no such field: a sender
// started under if f.conn == nil is not stranded by a return under if
// f.conn != nil (validation set 22, vcluster's port forwarder), or of a
// field of a struct parameter passed by value that neither the function
// nor its goroutines write (a driver started under if opts.driver != nil,
// its receive skipped under if opts.driver == nil; validation set 36,
// rootlesskit's child); and so
// does a test against nil of a variable that every way into its test
// sets either to nil or to a value that is never nil (a fresh error of
// errors.New or fmt.Errorf, an allocation, a value in an interface):
// an err set only in a select's timeout case and then tested to return
// (validation set 23, taskq: the next waiter is started only on the
// path that took the first one's value). A path keeps such a variable's
// nilness across the loops it goes round as long as its ways in are
// nil, never nil or the variable itself, and only a case taking a value
// sets it to something unknown: an error nil when a loop starts and set
// only by the case that takes the sender's last value stays nil on the
// path through a flush timer's case, so the exits tested on it (err !=
// nil, err == io.EOF: a sentinel error, a package-level variable of
// type error, is taken as never nil) are not reached by that path, and
// the timer that only flushes and goes round is no way out (validation
// set 39, go-linereader and prefixedio). A test against nil of a value
// made in view (a channel, a map, an allocation), or of a variable
// stored once with one, before every read, and never written again, is
// decided: it is never nil, so a return under errc == nil && ch == nil
// is dead code (validation set 37, prysm's metrics scraper). A
// deferred send that runs only when the goroutine is panicking (under
// recover() != nil), or only when it did not get to mark its own send
// done (under a flag it sets to true right after each of its sends),
// adds to the count only what the panic left unsent (a builtin other
// than panic after the last send, such as close(done), cannot panic
// there: validation set 28, jupiter's task runner). In tests,
// a path on which the test has failed ends the story, a select with a
// default whose receives all fail the test asserts that nothing is
// pending, and a channel whose every receive fails the test carries
// failures: none of them strands a send worth reporting. One report per
// cause: the other sends the same leave strands are related positions,
// and so are the sends on the other channels of a group the same leave
// strands in the same goroutines (a goroutine that sends its result on
// one channel or its error on another leaks once, whichever it sends:
// one report, whose fix buffers both; validation set 17, kratos). One
// report per send, too: when the leaves of several functions strand the
// same send (they start the same worker, or hand it the same helper),
// the later ones are related positions of the first one's report, and
// its fix buffers their channels as well when they need the same room.
// It points at a send of a sender the leave strands: leaving through a
// receive on a channel that one sender closes after its last send (defer
// close(end) in a reader) strands the others, not that one (validation
// set 10, yaegi).
// The leave it names is first a return that strands a sender on every
// run that takes it: no path to it receives, and the senders still have
// sends they make on every path (or never stop) that no room holds
// (validation set 37, go-state-types: the last return came only after
// the sender's last value; set 36, devpod: a timer named while the
// success return stranded the sender on every run). Else a select case
// the receiver can take, else the last return that strands the sender:
// the further the receiver got, the more surely the sender has reached
// its send. Of the cases, one that
// fires by itself (a timer, ctx.Done(), a default, a channel made
// elsewhere) comes before a receive from a channel the function makes
// for another of its goroutines: whether that sibling can finish before
// the sender sends is a race the report cannot show (validation set 27,
// a test daemon's exit beside its readiness poller and its timeout). A case on a channel field
// that nothing in the package sends on or closes (outside its tests, for
// code outside them), and that no code out of view can reach, never
// fires and is not named (validation set 12, a server's exit field only
// a test sends on). A case after which the loop waits again (a tick that
// goes round) is named only for a return it leads to: a return inside
// the loop that a path taking no case also reaches leaves by itself, and
// is named instead (validation set 12, a subscription handler leaving at
// its loop's head).
//
// What crosses function and package boundaries. The sends may be made
// by helpers the goroutine calls, in this package or another, at any
// depth (go func() { produce(ctx, ch) }(), go s.fill(ch), go
// feed.Publish(ch)), generic or not (go emit(ch, v) with emit[T any]
// runs the generic function's code, reported at its lines; so does a
// method of a generic type, go b.fill(vs)), by closures it defines and calls in place, at one
// call or several, each call counting the closure's sends (add :=
// func(n string) { names <- n }, then add(first) and add(n) in a loop:
// a stream; validation set 27, tkn's pod names, whose error channel is
// that stream's trailer), and by callbacks it hands to a function that runs
// them in place: a walker (filepath.WalkDir, fs.WalkDir, sync.Map's
// Range, sync.Once's Do, or a function of the module that only calls
// its function parameter), or the body of a range-over-func loop; and
// by the goroutines the goroutine itself starts (one level). The
// channel may reach the goroutine inside a struct the function makes
// and stores it in (t := &task{out: make(chan int)}, or req{reply: ch}
// with ch its own): passed as an argument, by pointer or by value (go
// work(t), go handle(req{reply: ch})), as the receiver of the method the
// goroutine runs (go t.run()), or in a variable its closure captures (go
// func() { work(t) }()); the goroutine's plain sends on that field, and
// its helpers', count as sends on the channel, and the report names the
// function to buffer it in (make out buffered in A), as for a request's
// reply. The struct, its copies and the variables holding it must go
// nowhere else (a method of the package that only uses its other fields
// is no harm): stored in another struct, a map or a global, sent on a
// channel, converted to an interface or returned, it is out of view, as
// the channel would be. Each helper is summarised once, by the plain
// sends it makes on each channel parameter, and on each channel field of
// a struct parameter or receiver (most and fewest per path, or a stream
// if they may repeat; for a field it sends on only in selects that can
// give up, that it makes none); summaries cross packages as facts. A
// callback run any number of times sends a stream. A helper given two
// channels of the function is out of view: which it sends on is its own
// business; so is a helper given a struct that reaches a second channel,
// or a channel beside the struct. A receive-only channel beside it (a
// ticker's C, a quit channel) does not count: the helper cannot send on
// it, and what receiving from it does to the sends (a case that gives up,
// one that only loops back) is in the summary of the channel it sends on. A struct reaches a channel through any
// field, embedded or nested, behind pointers, in an array, slice or map,
// at any depth; a func field counts as reaching one (it may close over
// the function's other channel: t.onErr(err)), an interface field does
// not (a context.Context, a logger). A function or goroutine that reads
// such a field of the struct (not a channel field of its own, which is
// traced apart) may send or wait there instead: the channel is out of
// view. A select in a loop whose other cases only loop back (a ticker's
// tick, a heartbeat, a metrics flush) can only leave by sending: it is a
// plain send. A request's
// reply channel may reach its replier through a channel, a map of
// pending calls (c.pending[id] = call) or a long-lived object's field or
// slice; the replier's plain send on that field is reported, in the
// requester's package or one importing it, and the requester's make is
// reported when the replier is in a package the requester depends on,
// directly or not. That
// rule cannot tell which of the field's sends a requester reaches: a
// requester whose struct goes only to goroutines it starts, as above, is
// left to the count, which can. A replier may also answer one request
// twice: a send on the request's reply field that ends an if with no
// else and falls through, past statements that cannot branch away (no
// return, continue, break, panic, select, send or receive), to another
// send on the same field of the same request is reported, at the first
// send with the second as a related position, when the field is the
// package's own (unexported, or of an unexported struct) and every
// channel the package stores in it is made unbuffered by a requester
// that hands the request over and then takes exactly one reply (one
// receive, on every path, outside loops, with no way to leave before
// it): the second send finds no one. The fix is the continue (inside a
// loop) or return the first send lacks. What does not cross yet: a channel or a
// struct holding it that the function itself passes to a helper (its
// receives there are not counted), helpers called through interfaces or
// function values, goroutines started by a helper it calls unless the
// helper is a spawning wrapper of the same package (its one go
// statement, outside any loop, runs a function of the package named in
// it, given the helper's own parameters, which the helper uses for
// nothing else: func (w *watcher) start(c chan<- event) { go w.watch(c)
// }), a channel in a struct nested in another (t.job.out) or in a struct
// the function did not make, and channels kept in fields between calls,
// except as -strandedsend.fields below.
//
// A send made only when a read from the reading end of an io.Pipe (or
// a bufio.Reader reading whole strings, bytes or runes from one) failed
// with an error other than io.EOF is never made, when the function making
// the pipe never closes its reader and hands its writer only to Write,
// Close and places taking an io.Writer (an exec.Cmd's Stdout): such a
// pipe is closed only by the writer's Close, and its reads fail with
// io.EOF alone (validation set 30, helmfile: a goroutine forwarding a
// command's output lines, which breaks on io.EOF and sends any other
// error).
//
// A branch on the error of a call that cannot fail is never taken, and a
// return there is no way out: a call documented never to fail
// ((*io.PipeWriter).Close, (*bytes.Buffer).Write, (*strings.Builder).Write),
// called directly or through an interface known to hold one, and a
// static call of a function of the package whose every return gives its
// error as the constant nil (a stub of the build analysed: the other
// build's version may fail, and is judged in that build; validation set
// 18, a VM whose extern work is a no-op without CUDA). Nor is a branch
// on a short write once the error was found nil: past n, err :=
// w.Write(p) and a nil err, n != len(p) (or n < len(p)) never holds,
// since a Write with io.Writer's signature returns an error whenever it
// writes less (io.Writer's contract); a return there is no way out, and
// the report names the error's return instead (validation set 40, gatt:
// a short-write check after a write to a raw socket).
//
// Not reported: a buffer at least as large as the sends that can be left
// unreceived; a sender that selects on ctx.Done(), a done channel or a
// default; a receiver that receives on every path or drains the channel
// until it is closed; close(ch) as the signal; a capacity that is not a
// constant; a stream, or a number of senders known only at run time, into
// a buffer of two or more (whether it suffices is unknown); a receiver
// whose way out branches on what the senders wrote; and any channel that
// reaches code the analysis cannot see (passed to an unknown function,
// stored in a global or an interface): unknown means silence. Nor are
// paths on which a test has already failed (t.Error, t.Fatal, t.Skip,
// testify's require.FailNow), paths on which the process exits (os.Exit,
// and logging at fatal level: log.Fatal, logrus, zap, zerolog, klog,
// glog), or goroutines of main, which end with the process. A return of
// an error that is never nil (fmt.Errorf, errors.New, or ctx.Err() once
// a receive from the same ctx.Done() has fired) ends the process
// too when every call of the function is in view and tests the error
// and, when it is not nil, exits or fails the test, or hands the error
// up to a caller that does, a few levels at most (validation set 24,
// yarpc: a command's timeout returned to main, which calls log.Fatal),
// tested there or returned as it is (return o.run(ctx); validation set
// 32, ziti's quickstart).
// Any return ends the process when every call of the function, all in
// view, ends it as soon as the call returns, whatever was returned:
// os.Exit(run()) in main, or a return right after the call from a
// function of which the same holds (validation set 29, driftctl: the
// exit codes of a command's failures, which main hands to os.Exit).
// A select case on ctx.Done() is no way out when the context is
// context.Background() or TODO() at every call in view, passed down as
// a parameter (validation set 24, copilot-cli: a helper three calls
// below Background). Every call is in view when nothing takes the
// function as a value and no other package can call it: an unexported
// function, any function of package main, or an unexported method,
// which only the package's own calls and interfaces can reach.
//
// When the channel is made in view and the number of sends is known (one,
// a constant, or the len(x) or n of the loop that starts the senders), the
// suggested fix sets the capacity. When the way out named leaves one
// value pending but another way out leaves more (senders a loop starts,
// beside the one named), no capacity is suggested: the message says to
// select on the receiver's signal instead (validation sets 24 and 25,
// swarmkit's log subscriptions and regclient's image copy, where a
// buffer of one was suggested for many). When a goroutine sends twice
// on a path because a send that ends an if with no else falls through
// to another send on the same channel (an error sent with no return
// after it), and one value a run is what the receiver takes before it
// leaves, a second fix adds the return after each such send (in a
// function with no results, outside loops); the capacity fix, always
// safe, comes first.
//
// Two kinds of report are left out of the default run, because on code
// nobody had triaged they were mostly wrong (docs/findings.md, validation
// set 1): a receiver in test code (a function in a _test.go file, or a
// test helper elsewhere, known by its call of t.Helper() through any
// interface, as assertion libraries make it, or any function of a
// package of test support, whose non-test files use testing's T, TB, B,
// F or M (a harness, a spec runner): 2 true
// of 12), whose receives follow a protocol its assertions enforce — the
// receiver leaves only after the values the test expects, its other exits
// fail the test — and a leak there lasts as long as the test binary; and
// senders started a number of times only known at run time into a buffer
// of one or none (0 true of 3), where how many run at once is decided by
// code out of view (a gate that starts the next only when the last one
// is done, a count of running workers). Such senders are reported by
// default when the receiver takes each one's value before it starts the
// next (a retry loop that starts an attempt per trip): one is out when
// it leaves, whatever the count; and when the receiver waits for all of
// them before it receives from an unbuffered channel. A loop that sends
// only in one case of a type switch on what it reads (a session reader
// that sends on started for each Started message) sends as many values as
// the peer sends of that kind, a number only known at run time too: into
// an unbuffered channel it is a stream, reported by default (one value
// strands it); into a buffer, which takes the first, it is left to
// -strandedsend.many (validation set 9: a reader sending one reply per
// request into a fresh buffer of one, false).
//
// Counting against a buffer is opt-in (-strandedsend.buffered): a
// channel made with room for one or more values is reported by default
// only when its senders stream (send without end, or one value a round:
// no room holds them). Counting the values still to come against the
// room when the receiver leaves was right 3 times in 20 on the first
// looks of validation sets 27 to 37, against about 2 in 3 for unbuffered
// channels: the count misses receives a protocol makes (one sender out
// at a time, a flag that lets one send through) or senders that give up
// with the receiver (first-answer strategies whose calls fail when the
// context ends). With -strandedsend.buffered, three senders into room
// for one and a receiver that can leave after the first value are
// reported, with the capacity that holds them all as the fix.
//
// Fields are opt-in too (5 true of 47 reports on the modules of
// validation sets 5, 7 and 8, some with -many or -tests): with
// -strandedsend.fields, an unexported channel field, made unbuffered
// wherever the package stores one and used only in view, is
// reported at its plain sends when nothing in the package receives from
// it (a function that makes a channel it stores there and then receives
// from that channel directly, as a request's maker waits on its reply,
// or hands it to the goroutine that receives from it, receives from it;
// one that also returns it leaves the receiving to its callers, as a
// lexer's constructor returns the token stream its parser drains:
// validation set 23, m3),
// or when the loop receiving from it selects on another case after
// which it returns (a quit channel, ctx.Done()) while other functions
// send on it with plain sends: once the loop has returned, every later
// send blocks. The case itself must end the loop: one that leads back
// to the loop's head (an idle timer's tick) is not a way out, whatever
// the head then does. A field may also hold a future: the function making
// its channel starts the one goroutine that sends on it, once, and
// methods hand it out (func (c *T) Next() <-chan struct{} { return
// c.next }); the send is reported when a caller of such a method in the
// package, called directly or through an interface the type implements,
// can stop waiting before it receives (lestrrat-go/backoff's null
// controller), and the fix buffers every make of the field. A type built
// at several sites (a constructor and its variants) is one future per
// site when each function making the channel starts one such sender, once:
// one report, at the first sender, the others related, and the fix
// buffers each make. Callers in other packages are not seen. A field whose every receiving loop can
// stop on a failure or a cancellation (it ranges over the field and
// returns on a non-nil error) while the channel is open, and which other
// functions send on plainly, as a stream no buffer holds (unbuffered, a
// capacity set at run time, or a send on a loop), is reported at those
// sends, buffered or not: once the loop has returned, the next send
// blocks its caller forever (hugo's pages processor, a real bug). A loop
// that keeps receiving until the close after a failure takes every
// value. The package's _test.go files and files left out by build
// constraints are read for other uses of the field, which keep it
// silent.
//
// Flags: -strandedsend.tests reports receivers in test code too;
// -strandedsend.many reports senders counted at run time;
// -strandedsend.buffered counts values against a buffer's room, as above;
// -strandedsend.fields reports unexported channel fields as above;
// -strandedsend.consumers reports functions streaming to receivers that
// can all stop early, as above;
// -strandedsend.futures=false stops reporting futures (both those whose
// callers are out of view and those a caller in view abandons), for code
// bases that document that every caller must receive.
package strandedsend

import _ "embed"

//go:embed doc.go
var doc string
