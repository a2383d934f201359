// Package extra pins further well-known modules that admitlint's findings
// are triaged on (docs/findings.md), beyond the benchmark corpus. It is
// never built into admitlint.
package extra

import (
	_ "github.com/dgraph-io/badger/v4"
	_ "github.com/hashicorp/raft"
	_ "github.com/jackc/pgx/v5"
	_ "github.com/miekg/dns"
	_ "github.com/redis/go-redis/v9"
	_ "github.com/segmentio/kafka-go"
	_ "go.temporal.io/sdk/client"
	_ "golang.org/x/net/http2"
	_ "golang.org/x/tools/go/packages"
)
