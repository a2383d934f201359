package reqreply

import "errors"

// Shape 7 in request/reply form: a worker that may reply twice to one
// request (a missing continue after its error reply), to a requester
// that takes one reply. The second send blocks the worker itself, and
// every request behind it.
type keyLookup struct {
	key   string
	reply chan lookupResult
}

type lookupResult struct {
	val string
	err error
}

type Store struct {
	lookups chan *keyLookup
	data    map[string]string
}

var errMissing = errors.New("missing")

func (s *Store) serve() {
	for req := range s.lookups {
		v, ok := s.data[req.key]
		if !ok {
			req.reply <- lookupResult{err: errMissing} // want `send on unbuffered req\.reply falls through to a second send on it for the same request \(twice\.go:32\), but its requester \(\*Store\)\.Lookup takes one reply: the second blocks forever; the goroutine leaks — continue after this send`
		}
		req.reply <- lookupResult{val: v}
	}
}

func (s *Store) Lookup(key string) (string, error) {
	req := &keyLookup{key: key, reply: make(chan lookupResult)}
	s.lookups <- req
	r := <-req.reply
	return r.val, r.err
}

// ok: the twin whose worker goes on to the next request after its error
// reply.
type Index struct {
	lookups chan *keyLookup
	data    map[string]string
}

func (x *Index) serve() {
	for req := range x.lookups {
		v, ok := x.data[req.key]
		if !ok {
			req.reply <- lookupResult{err: errMissing}
			continue
		}
		req.reply <- lookupResult{val: v}
	}
}

func (x *Index) Lookup(key string) (string, error) {
	req := &keyLookup{key: key, reply: make(chan lookupResult)}
	x.lookups <- req
	r := <-req.reply
	return r.val, r.err
}

// The worker's answer in a method of its own, given the request: two
// sends outside a loop, so the fix is a return.
type Resolver struct {
	lookups chan *resolveReq
	data    map[string]string
}

type resolveReq struct {
	key   string
	reply chan lookupResult
}

func (r *Resolver) serve() {
	for req := range r.lookups {
		r.answer(req)
	}
}

func (r *Resolver) answer(req *resolveReq) {
	v, ok := r.data[req.key]
	if !ok {
		req.reply <- lookupResult{err: errMissing} // want `send on unbuffered req\.reply falls through to a second send on it for the same request \(twice\.go:92\), but its requester \(\*Resolver\)\.Resolve takes one reply: the second blocks forever; the goroutine leaks — return after this send`
	}
	r.data[req.key] = v
	req.reply <- lookupResult{val: v}
}

func (r *Resolver) Resolve(key string) (string, error) {
	req := &resolveReq{key: key, reply: make(chan lookupResult)}
	r.lookups <- req
	res := <-req.reply
	return res.val, res.err
}

// ok: a requester that takes both answers (the first may be a progress
// note), so a second send finds its receiver.
type noted struct {
	reply chan string
}

type Notary struct{ jobs chan *noted }

func (n *Notary) serve() {
	for j := range n.jobs {
		if len(n.jobs) > 0 {
			j.reply <- "queued"
		}
		j.reply <- "done"
	}
}

func (n *Notary) Submit() []string {
	j := &noted{reply: make(chan string)}
	n.jobs <- j
	var got []string
	for s := range j.reply {
		got = append(got, s)
		if s == "done" {
			break
		}
	}
	return got
}

// ok: a reply with room for the second answer.
type Ledger struct {
	lookups chan *roomyLookup
	data    map[string]string
}

type roomyLookup struct {
	key   string
	reply chan lookupResult
}

func (l *Ledger) serve() {
	for req := range l.lookups {
		v, ok := l.data[req.key]
		if !ok {
			req.reply <- lookupResult{err: errMissing}
		}
		req.reply <- lookupResult{val: v}
	}
}

func (l *Ledger) Lookup(key string) (string, error) {
	req := &roomyLookup{key: key, reply: make(chan lookupResult, 1)}
	l.lookups <- req
	r := <-req.reply
	return r.val, r.err
}

// ok: the error path goes on to the next request by a test of its own
// between the two sends (the same condition, tested again).
type Catalog struct {
	lookups chan *catalogLookup
	data    map[string]string
}

type catalogLookup struct {
	key   string
	reply chan lookupResult
}

func (c *Catalog) serve() {
	for req := range c.lookups {
		v, ok := c.data[req.key]
		if !ok {
			req.reply <- lookupResult{err: errMissing}
		}
		if !ok {
			continue
		}
		req.reply <- lookupResult{val: v}
	}
}

func (c *Catalog) Lookup(key string) (string, error) {
	req := &catalogLookup{key: key, reply: make(chan lookupResult)}
	c.lookups <- req
	r := <-req.reply
	return r.val, r.err
}
