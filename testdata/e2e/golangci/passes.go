package golangci

import (
	"bytes"
	"context"
	"io"
	"net/http"
)

var sem = make(chan struct{}, 8)

// Handle parks one goroutine per request on sem (lateacquire).
func Handle(w http.ResponseWriter, r *http.Request) {
	go func() {
		sem <- struct{}{}
		defer func() { <-sem }()
		_ = r
	}()
}

// Fetch strands its sender once ctx wins (strandedsend).
func Fetch(ctx context.Context, get func() string) (string, error) {
	reply := make(chan string)
	go func() {
		reply <- get()
	}()
	select {
	case body := <-reply:
		return body, nil
	case <-ctx.Done():
		return "", ctx.Err()
	}
}

// FirstLine keeps the whole stream alive through its first line (retainslice).
func FirstLine(r io.Reader) ([]byte, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, err
	}
	line, _, _ := bytes.Cut(data, []byte("\n"))
	return line, nil
}

// Quieted has a lateacquire finding that golangci-lint's own directive
// silences.
func Quieted(w http.ResponseWriter, r *http.Request) {
	go func() {
		sem <- struct{}{} //nolint:admitlint // the fixture's nolint case
		defer func() { <-sem }()
		_ = r
	}()
}
