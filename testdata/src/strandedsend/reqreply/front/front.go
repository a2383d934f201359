// Package front starts package server's worker for its callers, which
// need not import server: the worker is their dependency one step away.
package front

import (
	"strandedsend/reqreply/api"
	"strandedsend/reqreply/server"
)

// Start runs a worker taking jobs from jobs.
func Start(jobs <-chan *api.Job) {
	go new(server.Server).Serve(nil, nil, nil, jobs)
}
