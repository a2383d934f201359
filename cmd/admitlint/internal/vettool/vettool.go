// Package vettool is the side of the admitlint command that go vet runs:
// the unitchecker protocol (-V=full, -flags, one package per *.cfg file).
// The admitlint command itself drives go vet this way, so every package is
// analysed in its own process, with facts passed through files and results
// cached by the go command.
package vettool

import (
	"encoding/json"
	"flag"
	"os"
	"runtime/debug"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/unitchecker"
)

// Invoked reports whether args (without the program name) are go vet's
// protocol rather than a user's command line: a version or flags query,
// or a trailing *.cfg unit description.
func Invoked(args []string) bool {
	for _, arg := range args {
		if arg == "-V=full" || arg == "-flags" {
			return true
		}
	}
	return len(args) > 0 && strings.HasSuffix(args[len(args)-1], ".cfg")
}

// CacheScopeFlag names a flag the vet tool accepts and ignores. Go 1.26's
// go vet caches a package's result under the same key whether it analysed
// the package for its own diagnostics or only for facts, as a dependency
// of the packages named; a later run naming the package then replays the
// facts-only run's empty output and misses its findings (Go 1.27 adds the
// mode to the key). go vet hashes the tool's flags into the key, so the
// admitlint command passes a value derived from what it was asked to
// analyse: runs naming the same packages share cached results, and a
// package analysed only for facts is never replayed as a named one.
const CacheScopeFlag = "cache-scope"

// Main runs the analyzers as a vet tool and does not return.
//
// When go vet asks only for facts (a dependency of the packages named on
// the command line), the reporting passes are replaced by stand-ins that
// keep their names and flags but do nothing: their diagnostics would be
// discarded anyway. unitchecker would otherwise run them on every
// dependency, because it keeps any analyzer that requires a fact-producing
// one (see the TODO about it in unitchecker's run).
func Main(analyzers []*analysis.Analyzer) {
	tuneGC()
	flag.String(CacheScopeFlag, "", "ignored by the analysis: the admitlint command sets it to key go vet's cached results by the packages it names (see CacheScopeFlag)")
	if cfg := os.Args[len(os.Args)-1]; strings.HasSuffix(cfg, ".cfg") && factsOnly(cfg) {
		analyzers = standIns(analyzers)
	}
	unitchecker.Main(analyzers...)
}

// gcPercent is the garbage collector's target for a vet tool process. A
// vet process lives for one package and its heap is mostly the package's
// syntax, types and SSA, all live until it exits: collecting at 100%
// growth spends CPU reclaiming almost nothing. Four times the live heap
// cut the standard library's cold run by an eighth on two cores, for a
// peak a fifth higher (still a quarter of staticcheck's).
const gcPercent = 400

// tuneGC sets gcPercent unless the user chose GOGC.
func tuneGC() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(gcPercent)
	}
}

// factsOnly reports whether the unit description asks for facts only. An
// unreadable file reports false: unitchecker will then say what is wrong.
func factsOnly(cfgFile string) bool {
	data, err := os.ReadFile(cfgFile)
	if err != nil {
		return false
	}
	var cfg struct{ VetxOnly bool }
	return json.Unmarshal(data, &cfg) == nil && cfg.VetxOnly
}

// standIns returns the analyzers with each one that exports no facts
// replaced by a copy whose Run does nothing and which requires only the
// analyzers that contribute facts.
func standIns(analyzers []*analysis.Analyzer) []*analysis.Analyzer {
	out := make([]*analysis.Analyzer, len(analyzers))
	for i, a := range analyzers {
		if len(a.FactTypes) > 0 {
			out[i] = a
			continue
		}
		stand := *a
		stand.Run = func(*analysis.Pass) (any, error) { return nil, nil }
		stand.ResultType = nil
		stand.Requires = nil
		for _, req := range a.Requires {
			if usesFacts(req) {
				stand.Requires = append(stand.Requires, req)
			}
		}
		out[i] = &stand
	}
	return out
}

// usesFacts reports whether a or anything it requires exports facts.
func usesFacts(a *analysis.Analyzer) bool {
	if len(a.FactTypes) > 0 {
		return true
	}
	for _, req := range a.Requires {
		if usesFacts(req) {
			return true
		}
	}
	return false
}
