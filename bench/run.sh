#!/usr/bin/env bash
# bench/run.sh measures admitlint against go vet, staticcheck and the SSA
# floor on the standard library and the pinned corpus (bench/corpus), and
# writes docs/bench.md. From a clone of the repository:
#
#	bash bench/run.sh                  # every corpus (hours on 2 cores)
#	bash bench/run.sh std grpc         # only these corpora
#	bash bench/run.sh --quick          # smoke test: sync/... and one grpc package
#
# Corpora: std grpc nats-server etcd caddy prometheus. Run with --help for
# the flags. It needs Go, the Go module proxy (or a module cache that holds
# the corpus), /usr/bin/time (GNU time) and Linux (/proc).
#
# What it does, per corpus:
#  1. Warms a template build cache by compiling every package the corpus
#     and its tests need (go list -export, as go vet and go/packages ask
#     for it). No tool's analysis results are in it.
#  2. For each tool, in an order that rotates between repetitions: copies
#     the template to a fresh GOCACHE (and a fresh XDG_CACHE_HOME, where
#     staticcheck keeps its own cache), runs the tool once (cold: compiled
#     packages cached, no analysis cached), then the same command again
#     (warm: nothing changed), under /usr/bin/time -v and bench/measure,
#     and deletes that cache.
#  3. Records admitlint's findings (admitlint -json) under the output dir.
# Then it writes the tables, ratios and target checks.
#
# Everything it creates lives in the output dir (default
# bench/out/run-<time>); the build caches there are deleted on exit. The
# only state outside it is the Go module cache (GOMODCACHE), whose contents
# go.sum verifies. The machine should be otherwise idle for a real
# measurement: the script warns when it is not.
set -euo pipefail

readonly STATICCHECK=honnef.co/go/tools/cmd/staticcheck@v0.8.2
readonly ALL_CORPORA=(std grpc nats-server etcd caddy prometheus)
readonly ALL_TOOLS=(govet staticcheck floor-vet floor admitlint admitlint-vet facts-vet)

usage() {
	cat <<EOF
usage: bash bench/run.sh [flags] [corpus…]

corpora: ${ALL_CORPORA[*]} (default: all; with --quick: std grpc)

flags:
  --quick            small packages per corpus (sync/..., one grpc package…), 1 cold run
  --reps N           cold runs per tool and corpus, median reported (default 1)
  --warm-reps N      warm re-runs after each cold run, median reported (default 3)
  --timeout D        kill a run after D, recorded as not run (default 45m; --quick 10m)
  --max-rss-mb N     kill a run whose process tree exceeds N MiB, recorded as not run
                     (default: 60% of available memory at start, at most 16384)
  --tools LIST       comma-separated subset of: ${ALL_TOOLS[*]// /,}
  --out DIR          output directory (default bench/out/run-<UTC time>)
  --doc FILE         where to write the report (default docs/bench.md; --quick: DIR/bench.md)
  -h, --help         this help

tools:
  govet          go vet (default analyzers)
  staticcheck    staticcheck ${STATICCHECK#*@}
  floor-vet      go vet -vettool=ssafloor (bench/ssafloor: builds SSA, reports nothing)
  floor          ssafloor standalone (x/tools checker: whole program in one process)
  admitlint      admitlint standalone
  admitlint-vet  go vet -vettool=admitlint
  facts-vet      go vet -vettool=factsonly (bench/factsonly: only the analyzers that export facts)
EOF
}

die() {
	printf 'bench: %s\n' "$*" >&2
	exit 1
}
log() { printf '[%s] %s\n' "$(date -u +%H:%M:%S)" "$*"; }

# patterns prints the package patterns of corpus $1 (--quick: a small
# subset that still has tests and concurrency).
patterns() {
	if ((quick)); then
		case $1 in
		std) echo 'sync/...' ;;
		grpc) echo 'google.golang.org/grpc/internal/grpcsync' ;;
		nats-server) echo 'github.com/nats-io/nats-server/v2/server/avl' ;;
		etcd) echo 'go.etcd.io/etcd/server/v3/etcdserver/api/v3lock' ;;
		caddy) echo 'github.com/caddyserver/caddy/v2/internal/filesystems' ;;
		prometheus) echo 'github.com/prometheus/prometheus/tsdb/chunkenc' ;;
		esac
		return
	fi
	case $1 in
	std) echo 'std' ;;
	grpc) echo 'google.golang.org/grpc/...' ;;
	nats-server) echo 'github.com/nats-io/nats-server/v2/...' ;;
	etcd) echo 'go.etcd.io/etcd/server/v3/...' ;;
	caddy) echo 'github.com/caddyserver/caddy/v2/...' ;;
	prometheus) echo 'github.com/prometheus/prometheus/tsdb/... github.com/prometheus/prometheus/scrape/... github.com/prometheus/prometheus/storage/...' ;;
	esac
}

# corpus_module prints the module a corpus comes from (empty for std).
corpus_module() {
	case $1 in
	grpc) echo google.golang.org/grpc ;;
	nats-server) echo github.com/nats-io/nats-server/v2 ;;
	etcd) echo go.etcd.io/etcd/server/v3 ;;
	caddy) echo github.com/caddyserver/caddy/v2 ;;
	prometheus) echo github.com/prometheus/prometheus ;;
	esac
}

# set_cmd sets the array cmd to tool $1's command line on patterns $2….
set_cmd() {
	local tool=$1
	shift
	case $tool in
	govet) cmd=(go vet "$@") ;;
	staticcheck) cmd=("$bin/staticcheck" "$@") ;;
	floor-vet) cmd=(go vet "-vettool=$bin/ssafloor" "$@") ;;
	floor) cmd=("$bin/ssafloor" "$@") ;;
	admitlint) cmd=("$bin/admitlint" "$@") ;;
	admitlint-vet) cmd=(go vet "-vettool=$bin/admitlint" "$@") ;;
	facts-vet) cmd=(go vet "-vettool=$bin/factsonly" "$@") ;;
	*) die "internal error: unknown tool $tool" ;;
	esac
}

# has_cache reports whether tool $1 has a cache of its own, so that a warm
# re-run differs from a cold one. The standalone floor caches nothing.
has_cache() { [[ $1 != floor ]]; }

# ---- arguments

quick=0 reps=1 warm_reps=3 timeout='' max_rss_mb='' out='' doc='' tools_arg=''
corpora=()
need() { (($# >= 2)) || die "$1 needs a value (see --help)"; }
while (($#)); do
	case $1 in
	--quick) quick=1 ;;
	--reps) need "$@"; reps=$2; shift ;;
	--reps=*) reps=${1#*=} ;;
	--warm-reps) need "$@"; warm_reps=$2; shift ;;
	--warm-reps=*) warm_reps=${1#*=} ;;
	--timeout) need "$@"; timeout=$2; shift ;;
	--timeout=*) timeout=${1#*=} ;;
	--max-rss-mb) need "$@"; max_rss_mb=$2; shift ;;
	--max-rss-mb=*) max_rss_mb=${1#*=} ;;
	--tools) need "$@"; tools_arg=$2; shift ;;
	--tools=*) tools_arg=${1#*=} ;;
	--out) need "$@"; out=$2; shift ;;
	--out=*) out=${1#*=} ;;
	--doc) need "$@"; doc=$2; shift ;;
	--doc=*) doc=${1#*=} ;;
	-h | --help) usage; exit 0 ;;
	-*) die "unknown flag $1 (see --help)" ;;
	*) corpora+=("$1") ;;
	esac
	shift
done

[[ $reps =~ ^[1-9][0-9]*$ ]] || die "--reps wants a positive integer, not '$reps'"
[[ $warm_reps =~ ^[1-9][0-9]*$ ]] || die "--warm-reps wants a positive integer, not '$warm_reps'"
[[ -z $max_rss_mb || $max_rss_mb =~ ^[1-9][0-9]*$ ]] || die "--max-rss-mb wants a positive integer, not '$max_rss_mb'"
if [[ -z $timeout ]]; then
	if ((quick)); then timeout=10m; else timeout=45m; fi
fi
[[ $timeout =~ ^[0-9]+(s|m|h)$ ]] || die "--timeout wants a duration like 90s, 45m or 2h, not '$timeout'"

# Corpora and tools run in a fixed order, whatever the order of the
# arguments, so that tables and logs always read the same way.
if ((${#corpora[@]} == 0)); then
	if ((quick)); then corpora=(std grpc); else corpora=("${ALL_CORPORA[@]}"); fi
fi
for c in "${corpora[@]}"; do
	[[ " ${ALL_CORPORA[*]} " == *" $c "* ]] || die "unknown corpus '$c'; the corpora are: ${ALL_CORPORA[*]}"
done
selected=()
for c in "${ALL_CORPORA[@]}"; do
	[[ " ${corpora[*]} " == *" $c "* ]] && selected+=("$c")
done
tools=()
if [[ -n $tools_arg ]]; then
	for t in ${tools_arg//,/ }; do
		[[ " ${ALL_TOOLS[*]} " == *" $t "* ]] || die "unknown tool '$t'; the tools are: ${ALL_TOOLS[*]}"
	done
	for t in "${ALL_TOOLS[@]}"; do
		[[ ",$tools_arg," == *",$t,"* ]] && tools+=("$t")
	done
else
	tools=("${ALL_TOOLS[@]}")
fi

# ---- prerequisites

[[ $(uname -s) == Linux ]] || die "needs Linux: bench/measure reads process memory from /proc"
[[ -x /usr/bin/time ]] || die "needs GNU time at /usr/bin/time (Debian: apt-get install time)"
[[ $(/usr/bin/time -v true 2>&1) == *'Maximum resident set size'* ]] ||
	die "/usr/bin/time is not GNU time (no -v): install GNU time"
command -v go >/dev/null || die "needs the go command on PATH"

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
corpus_dir=$repo/bench/corpus
[[ -f $repo/go.mod && -f $corpus_dir/go.mod ]] || die "run from a clone of admitlint: $repo/bench/corpus/go.mod not found"
stamp=$(date -u +%Y%m%dT%H%M%SZ)
out=${out:-$repo/bench/out/run-$stamp}
mkdir -p "$out"
out=$(cd "$out" && pwd)
if [[ -z $doc ]]; then
	if ((quick)); then doc=$out/bench.md; else doc=$repo/docs/bench.md; fi
fi
mkdir -p "$(dirname "$doc")"

if [[ -z $max_rss_mb ]]; then
	avail_kb=$(awk '/^MemAvailable:/ {print $2}' /proc/meminfo)
	max_rss_mb=$((avail_kb * 6 / 10 / 1024))
	((max_rss_mb <= 16384)) || max_rss_mb=16384
fi

bin=$out/bin
logs=$out/logs
findings=$out/findings
results=$out/results.tsv
meta=$out/meta.txt
cache_root=$(mktemp -d "$out/cache.XXXXXX")
mkdir -p "$bin" "$logs" "$findings"
cleanup() { rm -rf "$cache_root"; }
trap cleanup EXIT
trap 'exit 130' INT TERM

# The same environment for every build and run: the checkout's go.mod as
# committed, this machine's toolchain, no workspace.
export GOFLAGS=-mod=readonly GOTOOLCHAIN=local GOWORK=off

log "output: $out"
log "corpora: ${selected[*]}; tools: ${tools[*]}; cold runs: $reps; warm re-runs: $warm_reps; timeout $timeout; memory cap ${max_rss_mb} MiB"

load=$(cut -d' ' -f1 /proc/loadavg)
ncpu=$(nproc)
if awk -v l="$load" -v n="$ncpu" 'BEGIN { exit !(l > n / 2) }'; then
	log "warning: load average $load on $ncpu CPUs: the machine is busy and the numbers will be noisy"
fi

# ---- tools

# The tools are built with a build cache of their own, not the user's.
log "building admitlint, bench/ssafloor, bench/factsonly and bench/measure from $repo"
(
	cd "$repo"
	GOCACHE=$cache_root/tools go build -o "$bin/admitlint" ./cmd/admitlint
	GOCACHE=$cache_root/tools go build -o "$bin/ssafloor" ./bench/ssafloor
	GOCACHE=$cache_root/tools go build -o "$bin/factsonly" ./bench/factsonly
	GOCACHE=$cache_root/tools go build -o "$bin/measure" ./bench/measure
) || die "building from the checkout failed (see above)"
if [[ " ${tools[*]} " == *" staticcheck "* ]]; then
	log "installing $STATICCHECK"
	(
		cd "$cache_root" # outside any module: @version ignores go.mod anyway
		GOCACHE=$cache_root/tools GOBIN=$bin GOFLAGS='' go install "$STATICCHECK"
	) || die "go install $STATICCHECK failed: is the Go module proxy reachable? (go env GOPROXY)"
fi
rm -rf "$cache_root/tools"

# ---- machine and versions

# The command line that reproduces this run, for the report.
command='bash bench/run.sh'
((quick)) && command+=' --quick'
((reps == 1)) || command+=" --reps $reps"
((warm_reps == 3)) || command+=" --warm-reps $warm_reps"
[[ -z $tools_arg ]] || command+=" --tools $tools_arg"
command+=" ${selected[*]}"

git_rev=$(git -C "$repo" rev-parse --short HEAD 2>/dev/null || echo unknown)
if [[ -n $(git -C "$repo" status --porcelain --untracked-files=no 2>/dev/null) ]]; then
	git_rev="$git_rev (with uncommitted changes)"
fi
{
	echo "date=$(date -u '+%Y-%m-%d %H:%M UTC')"
	echo "command=$command"
	echo "cpu=$(awk -F': ' '/^model name/ {print $2; exit}' /proc/cpuinfo)"
	echo "nproc=$ncpu"
	echo "mem=$(awk '/^MemTotal:/ {printf "%.1f GiB", $2 / 1048576}' /proc/meminfo)"
	echo "kernel=$(uname -sr)"
	echo "load=$load"
	echo "go=$(go version)"
	echo "admitlint=$("$bin/admitlint" -version 2>&1 | head -n1) (commit $git_rev)"
	if [[ -x $bin/staticcheck ]]; then
		echo "staticcheck=$("$bin/staticcheck" -version 2>&1 | head -n1)"
	else
		echo "staticcheck=not measured"
	fi
	echo "xtools=$(cd "$repo" && go list -m -f '{{.Path}} {{.Version}}' golang.org/x/tools)"
	echo "reps=$reps"
	echo "warm_reps=$warm_reps"
	echo "timeout=$timeout"
	echo "max_rss_mb=$max_rss_mb"
	echo "quick=$quick"
	echo "tools=${tools[*]}"
} >"$meta"

printf 'corpus\ttool\tphase\trep\tstatus\texit\twall_s\tcpu_s\tmaxrss_kb\ttree_kb\n' >"$results"

# ---- measuring

# report writes the report from meta.txt and results.tsv. It runs after
# every corpus, so a run that fails later still leaves the tables of the
# corpora it finished.
report() {
	awk -F'\t' -v metafile="$meta" -f "$repo/bench/report.awk" "$results" >"$doc"
}

# run_one runs cmd for corpus $1, tool $2, phase $3 (cold or warm), rep $4
# and appends a line to results.tsv. A tool's exit code is recorded, not
# judged: go vet and staticcheck exit 1 and admitlint 3 on findings.
run_one() {
	local corpus=$1 tool=$2 phase=$3 rep=$4
	local tag=$corpus.$tool.$phase.$rep
	local rc=0
	"$bin/measure" -o "$logs/$tag.result" -timeout "$timeout" -max-rss-mb "$max_rss_mb" -- \
		/usr/bin/time -v -o "$logs/$tag.time" "${cmd[@]}" \
		>"$logs/$tag.stdout" 2>"$logs/$tag.stderr" </dev/null || rc=$?
	((rc != 130)) || exit 130 # interrupted: measure has killed the run
	((rc != 125)) || die "could not run ${cmd[*]}: $(sed -n 's/^error=//p' "$logs/$tag.result")"
	local status exit tree
	status=$(sed -n 's/^status=//p' "$logs/$tag.result")
	exit=$(sed -n 's/^exit=//p' "$logs/$tag.result")
	tree=$(sed -n 's/^tree_peak_kb=//p' "$logs/$tag.result")
	# GNU time -v: "User time (seconds): 1.23", "Elapsed (wall clock) time
	# (h:mm:ss or m:ss): 1:02.03", "Maximum resident set size (kbytes): 123".
	local line
	line=$(awk -F': ' '
		/User time \(seconds\)/ { u = $2 }
		/System time \(seconds\)/ { s = $2 }
		/Elapsed \(wall clock\) time/ {
			n = split($NF, p, ":"); w = 0
			for (i = 1; i <= n; i++) w = w * 60 + p[i]
		}
		/Maximum resident set size/ { m = $2 }
		END {
			if (m == "") print "-\t-\t-"
			else printf "%.2f\t%.2f\t%d\n", w, u + s, m
		}' "$logs/$tag.time" 2>/dev/null || printf -- '-\t-\t-')
	if [[ $status == ok && $line == -* ]]; then status=error; fi
	# Killed by something else than measure (the kernel's OOM killer, say).
	if [[ $status == ok ]] && grep -q '^Command terminated by signal' "$logs/$tag.time"; then status=killed; fi
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$corpus" "$tool" "$phase" "$rep" "$status" "$exit" "$line" "$tree" >>"$results"
	local wall cpu rss
	IFS=$'\t' read -r wall cpu rss <<<"$line"
	if [[ $status == ok ]]; then
		log "  $tool $phase: ${wall} s wall, ${cpu} s CPU, $((rss / 1024)) MiB (tree $((tree / 1024)) MiB), exit $exit"
	else
		log "  $tool $phase: NOT RUN ($status; see $logs/$tag.stderr)"
	fi
	[[ $status == ok ]]
}

for corpus in "${selected[@]}"; do
	corpus_start=$SECONDS
	read -r -a pats <<<"$(patterns "$corpus")"
	log "$corpus: ${pats[*]}"
	cd "$corpus_dir"

	# One template cache per corpus, warmed by compiling everything the
	# corpus and its tests need: export data as go vet's compile actions
	# produce it (-pgo default), and as go/packages asks for it (-pgo=off,
	# which staticcheck and the standalone floor use). No analysis runs.
	tmpl=$cache_root/template
	rm -rf "$tmpl"
	log "$corpus: warming the compile cache (go list -export -deps -test)"
	GOCACHE=$tmpl go list -e -export -compiled -deps -test "${pats[@]}" >/dev/null ||
		die "$corpus: go list failed while warming the cache; is the module proxy reachable?"
	GOCACHE=$tmpl go list -e -export -compiled -deps -test -pgo=off "${pats[@]}" >/dev/null ||
		die "$corpus: go list -pgo=off failed while warming the cache"
	npkgs=$(GOCACHE=$tmpl go list -e "${pats[@]}" | wc -l)
	errs=$(GOCACHE=$tmpl go list -e -deps -test -f '{{with .Error}}{{$.ImportPath}}: {{.}}{{end}}' "${pats[@]}" | grep -c . || true)
	((errs == 0)) || log "$corpus: warning: $errs packages do not load (go list -e -deps -test -f '{{.Error}}' …)"
	{
		echo "corpus.$corpus.patterns=${pats[*]}"
		echo "corpus.$corpus.packages=$npkgs"
		echo "corpus.$corpus.loaderrors=$errs"
		echo "corpus.$corpus.template_mb=$(du -sm "$tmpl" | cut -f1)"
		mod=$(corpus_module "$corpus")
		if [[ -n $mod ]]; then
			echo "corpus.$corpus.version=$(GOCACHE=$tmpl go list -m -f '{{.Path}} {{.Version}}' "$mod")"
		else
			echo "corpus.$corpus.version=standard library $(go env GOVERSION)"
		fi
	} >>"$meta"

	# After warming, nothing may touch the network: every tool sees the
	# same module cache.
	for ((rep = 1; rep <= reps; rep++)); do
		# Rotate the order, so no tool always runs first (or last).
		n=${#tools[@]}
		for ((i = 0; i < n; i++)); do
			tool=${tools[$(((i + rep - 1) % n))]}
			set_cmd "$tool" "${pats[@]}"
			run=$cache_root/run
			rm -rf "$run"
			mkdir -p "$run/xdg"
			cp -a "$tmpl" "$run/gocache"
			(
				export GOCACHE=$run/gocache XDG_CACHE_HOME=$run/xdg GOPROXY=off
				run_one "$corpus" "$tool" cold "$rep" || exit 0 # no warm run after a failed cold one
				if has_cache "$tool"; then
					for ((w = 1; w <= warm_reps; w++)); do
						run_one "$corpus" "$tool" warm "$rep.$w" || true
					done
				fi
				if [[ $tool == admitlint && $rep == 1 ]]; then
					# The findings, for triage: a warm run, so cheap.
					rc=0
					"$bin/admitlint" -json "${pats[@]}" >"$findings/$corpus.json" 2>"$findings/$corpus.stderr" || rc=$?
					log "  admitlint findings: $findings/$corpus.json (exit $rc)"
				fi
			)
			rm -rf "$run"
		done
	done
	rm -rf "$tmpl"
	echo "corpus.$corpus.minutes=$(((SECONDS - corpus_start + 59) / 60))" >>"$meta"
	report
done
cd "$repo"

log "report: $doc"
log "raw results: $results; findings: $findings/; logs: $logs/"
echo
sed -n '/^## Targets on every corpus/,$p' "$doc"
