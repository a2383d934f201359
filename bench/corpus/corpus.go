// Package corpus pins the well-known modules admitlint is measured and
// triaged on. It is never built into admitlint: it exists so that
// go vet, staticcheck and admitlint see the same versions of the same
// packages.
package corpus

import (
	_ "github.com/caddyserver/caddy/v2"
	_ "github.com/nats-io/nats-server/v2/server"
	_ "github.com/prometheus/prometheus/tsdb"
	_ "go.etcd.io/etcd/server/v3/etcdserver"
	_ "google.golang.org/grpc"
)
