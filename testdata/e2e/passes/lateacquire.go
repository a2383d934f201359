package passes

import "net/http"

// sem bounds how many requests are processed at once.
var sem = make(chan struct{}, 8)

// Handle spawns a goroutine per request that waits for sem inside the
// goroutine: a burst parks one goroutine per request.
func Handle(w http.ResponseWriter, r *http.Request) {
	go func() {
		sem <- struct{}{}
		defer func() { <-sem }()
		process(r)
	}()
}

func process(*http.Request) {}
