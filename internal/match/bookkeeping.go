package match

import (
	"go/types"
	"strings"
)

// IsBookkeeping reports whether fn is a function or method that neither
// waits for another goroutine nor does the caller's real work: context
// derivation, logging, tracing, metrics, clocks, atomics, formatting and
// the like. A goroutine that has called only such functions has not
// started its work yet; one that has called anything else (an unknown
// function, I/O, a wait) has.
//
// The list is deliberately short and by package: a function of the
// standard library's pure or bookkeeping packages, minus the few of them
// that wait or run a callback, and the common logging, tracing and
// metrics libraries.
func IsBookkeeping(fn *types.Func) bool {
	if fn == nil || fn.Pkg() == nil {
		return false
	}
	path := fn.Pkg().Path()
	if waits(path, fn) {
		return false
	}
	if _, ok := bookkeepingPkgs[path]; ok {
		return true
	}
	for _, prefix := range bookkeepingPrefixes {
		if strings.HasPrefix(path, prefix) {
			return true
		}
	}
	return false
}

// waits reports whether fn, of the package path, is one of the waits or
// callback runners of an otherwise bookkeeping package.
func waits(path string, fn *types.Func) bool {
	switch path {
	case "time":
		return fn.Name() == "Sleep"
	case "sync":
		switch fn.Name() {
		case "Wait", "Do", "Lock", "RLock": // WaitGroup.Wait, Cond.Wait, Once.Do, a mutex held by another goroutine
			return true
		}
	case "runtime/pprof":
		return fn.Name() == "Do"
	case "runtime/trace":
		return fn.Name() == "WithRegion"
	case "context":
		return fn.Name() == "AfterFunc"
	case "fmt":
		return strings.HasPrefix(fn.Name(), "Scan") || strings.HasPrefix(fn.Name(), "Fscan") || strings.HasPrefix(fn.Name(), "Sscan")
	}
	return false
}

var bookkeepingPkgs = map[string]struct{}{
	"bytes": {}, "context": {}, "errors": {}, "fmt": {}, "log": {}, "log/slog": {},
	"maps": {}, "math": {}, "math/bits": {}, "math/rand": {}, "math/rand/v2": {},
	"path": {}, "runtime": {}, "runtime/debug": {}, "runtime/pprof": {},
	"runtime/trace": {}, "slices": {}, "sort": {}, "strconv": {}, "strings": {},
	"sync": {}, "sync/atomic": {}, "time": {}, "unicode": {}, "unicode/utf8": {},
}

// bookkeepingPrefixes are logging, tracing and metrics libraries, by
// import path prefix.
var bookkeepingPrefixes = []string{
	"go.uber.org/zap",
	"github.com/sirupsen/logrus",
	"k8s.io/klog",
	"github.com/go-kit/log",
	"github.com/go-kit/kit/log",
	"github.com/go-logr/logr",
	"github.com/rs/zerolog",
	"go.opentelemetry.io/otel",
	"github.com/prometheus/client_golang/prometheus",
}
