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

// FirstLine keeps a 1 MiB buffer alive through its first line (retainslice).
func FirstLine(r io.Reader) ([]byte, error) {
	buf := make([]byte, 1<<20)
	n, err := io.ReadFull(r, buf)
	if err != nil && err != io.ErrUnexpectedEOF {
		return nil, err
	}
	line, _, _ := bytes.Cut(buf[:n], []byte("\n"))
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
