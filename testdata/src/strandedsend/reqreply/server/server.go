// Package server runs the worker for package api's requests: its sends
// on the reply fields are judged by what api's callers do with them.
package server

import "strandedsend/reqreply/api"

type Server struct {
	data map[string]string
}

func (s *Server) Serve(queue <-chan *api.Request, tickets <-chan api.Ticket, probes <-chan api.Probe, jobs <-chan *api.Job) {
	for {
		select {
		case req := <-queue:
			req.Reply <- s.data[req.Key] // want `send on unbuffered req.Reply blocks forever once the receiver leaves \(case <-ctx.Done\(\) at api.go:53 in package api\); the goroutine leaks — make Reply buffered in api.Lookup \(api.go:48\)`
		case t := <-tickets:
			t.Done <- nil // ok: Submit gives Done room for the answer
		case p := <-probes:
			p.Ack <- struct{}{} // ok: Ping always waits for it
		case j := <-jobs:
			j.Result <- j.N * 2 // want `send on unbuffered j.Result blocks forever once the receiver leaves \(case <-time.After\(d\) at api.go:30 in package api\); the goroutine leaks — make Result buffered in api.Run \(api.go:25\)`
		}
	}
}
