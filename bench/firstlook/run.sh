#!/usr/bin/env bash
# bench/firstlook/run.sh runs admitlint on modules as a new user would:
# each module's own source, at a pinned version, with its own go.mod,
# tests included (`admitlint -json ./...` in a writable copy), and records
# per module the findings, the wall time, the peak memory, the exit code
# and any package error.
#
#	bash bench/firstlook/run.sh [--bin PATH] [--out DIR] [--flags "FLAGS"] [--count-only] LIST
#
# bench/firstlook/TRIAGE.md says how each report is then triaged.
#
# LIST names one module a line, "module version", # for comments; a
# line "deb:PKG VERSION" names Debian's Go source package PKG instead
# (see debian_module), and "deb:PKG VERSION SUITE" one from a later
# Debian suite, fetched without installing (see debian_download), and
# "debsrc:SRC VERSION SUITE" a Debian source package of a Go program
# (see debian_source):
# bench/firstlook/validation-*.txt are the validation sets (run once, at
# the end of a round: see docs/findings.md), develop.txt the modules
# rules are developed on. --count-only counts each module's packages and
# does not run admitlint (for choosing a validation set without looking).
# --flags passes more admitlint flags (the opt-in ones, to measure what
# they add on the same first look).
#
# Output under DIR (default bench/out/firstlook-<list>-<time>):
# findings/<module>.json, <module>.err, and summary.tsv (module, version,
# packages, exit code, wall seconds, peak RSS MiB, package errors).
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD

bin="" out="" flags="" count_only=0
while (($#)); do
	case $1 in
	--bin) bin=$2; shift 2 ;;
	--out) out=$2; shift 2 ;;
	--flags) flags=$2; shift 2 ;;
	--count-only) count_only=1; shift ;;
	-h|--help) sed -n '2,22p' "$0"; exit 0 ;;
	*) break ;;
	esac
done
(($# == 1)) || { echo "usage: bash bench/firstlook/run.sh [--bin PATH] [--out DIR] [--flags FLAGS] [--count-only] LIST" >&2; exit 2; }
list=$1
[[ -n $out ]] || out=$root/bench/out/firstlook-$(basename "$list" .txt)-$(date -u +%Y%m%dT%H%M%S)
mkdir -p "$out/findings" "$out/src"
if ((!count_only)); then
	if [[ -z $bin ]]; then
		bin=$out/admitlint
		go build -o "$bin" ./cmd/admitlint
	fi
	bin=$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")
fi
export GOWORK=off GOFLAGS=-mod=mod GOTOOLCHAIN=local

# hidden DIR BROKEN counts the packages of the module in DIR that are
# among the packages BROKEN (one per line) or import one of them, and
# the external test packages (pkg_test) among BROKEN, which go list
# ./... does not name (validation set 27: hazelcast's nearcache_test),
# and a package whose tests import a broken one directly (set 39:
# fdroidcl's main test imports a testscript that Go 1.26 cannot build).
hidden() {
	[[ -n $2 ]] || { echo 0; return; }
	(cd "$1" && go list -e -f '{{.ImportPath}} {{join .Deps " "}} {{join .TestImports " "}} {{join .XTestImports " "}}' ./... 2>/dev/null) |
		awk -v broken="$2" 'BEGIN { n = split(broken, b, "\n"); for (i = 1; i <= n; i++) { bad[b[i]] = 1; if (b[i] ~ /_test$/) hit++ } }
			{ for (i = 1; i <= NF; i++) if ($i in bad) { hit++; break } } END { print hit + 0 }'
}

# own_apt KIND NAME SUITE sets apt_opts to an apt state of run.sh's own
# under $out/apt (its sources list NAME.list, one line "KIND … SUITE
# main", its lists and cache), updating it the first time: the machine's
# apt state stays bookworm's (installing from a later suite could upgrade
# system packages, validation set 40).
own_apt() {
	local a=$out/apt
	mkdir -p "$a/lists/partial" "$a/cache/archives/partial"
	apt_opts=(-o "Dir::Etc::SourceList=$a/$2.list" -o Dir::Etc::SourceParts=/dev/null
		-o "Dir::State::Lists=$a/lists/$2" -o "Dir::Cache=$a/cache")
	if [[ ! -f $a/$2.list ]]; then
		mkdir -p "$a/lists/$2/partial"
		echo "$1 [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian $3 main" > "$a/$2.list"
		apt-get "${apt_opts[@]}" update -q >&2 || { rm -f "$a/$2.list"; return 1; }
	fi
}

# shallowest reads go.mod paths and prints the directory of the one
# nearest the root.
shallowest() {
	awk '{ print gsub("/", "/"), $0 }' | sort -n | head -1 | cut -d' ' -f2- | xargs -r dirname
}

# debian_module PKG VERSION installs Debian's Go source package PKG at
# VERSION (golang-…-dev, source under /usr/share/gocode/src) and prints
# the root of the module it ships: the directory of its shallowest
# go.mod, with symbolic links resolved (Debian links gopkg.in paths to
# their GitHub trees). The module is then run like one from the proxy,
# in a writable copy with its own go.mod, dependencies from the proxy. Debian is a
# second pool of code never run: the proxy here serves few modules that
# no set has taken (validation set 38).
debian_module() {
	if [[ $(dpkg-query -W -f='${Version}' "$1" 2>/dev/null) != "$2" ]]; then
		DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "$1=$2" >&2 || return 1
	fi
	dpkg -L "$1" | grep '^/usr/share/gocode/src/.*/go\.mod$' | shallowest | xargs -r readlink -f
}

# debian_download PKG VERSION SUITE fetches Debian's Go source package
# PKG at VERSION from SUITE (trixie, sid) without installing it, extracts
# it under $out/apt (with run.sh's own apt state, own_apt) and prints
# its module root as debian_module does.
debian_download() {
	local a=$out/apt x
	own_apt deb "$3" "$3" || return 1
	x=$a/x/$1
	rm -rf "$x" "$a/debs/$1"; mkdir -p "$x" "$a/debs/$1"
	(cd "$a/debs/$1" && apt-get "${apt_opts[@]}" download -q "$1=$2" >&2) || return 1
	dpkg-deb -x "$a/debs/$1"/*.deb "$x" || return 1
	find "$x/usr/share/gocode/src" -name go.mod | shallowest | while read -r d; do
		# A link to /usr/share/gocode/... points into the package, not
		# into the machine's tree (which may hold bookworm's copy).
		local r
		r=$(readlink -m "$d")
		[[ $r == "$x"/* ]] || r=$(readlink -m "$x$r")
		echo "$r"
	done
}

# debian_source SRC VERSION SUITE fetches the Debian source package SRC
# at VERSION from SUITE (a Go program packaged for Debian: acmetool,
# restic, …), extracts its upstream tarball (the .orig.tar.*, or the
# only tarball of a native package; Debian's patches are not applied:
# the code is upstream's, as its users build it) under $out/apt and
# prints its module root: the directory of its shallowest go.mod outside
# vendor/. Debian's Go programs are a third pool of code never run: the
# golang-*-dev libraries were all scanned by set 40 (validation set 42).
debian_source() {
	local a=$out/apt x s
	own_apt deb-src "src-$3" "$3" || return 1
	x=$a/x/$1 s=$a/srcs/$1
	rm -rf "$x" "$s"; mkdir -p "$x" "$s"
	(cd "$s" && apt-get "${apt_opts[@]}" source --download-only -q "$1=$2" >&2) || return 1
	local tarball
	tarball=$(ls "$s"/*.orig.tar.* 2>/dev/null | grep -v -e '\.asc$' -e '\.orig-' | head -1)
	[[ -n $tarball ]] || tarball=$(ls "$s"/*.tar.* | grep -v -e '\.asc$' -e '\.debian\.tar' | head -1)
	[[ -n $tarball ]] || return 1
	tar -xf "$tarball" -C "$x" || return 1
	find "$x" -name go.mod -not -path '*/vendor/*' | shallowest
}

# compile_failed ERR prints the packages whose "# pkg" block on go vet's
# stderr ERR holds an error: a line with a position that is not a C
# compiler's warning or note, or a line saying an error without a
# position (cgo: C compiler not found). A block of warnings only (cgo
# compiling sqlite) is a package that compiled, and the source lines a C
# compiler quotes under a warning are not messages (validation set 33:
# go-nvml's deprecation warnings quote declarations naming errors).
compile_failed() {
	awk '
		/^# \[?[^] ]+\]?$/ { pkg = $2; gsub(/[][]/, "", pkg); next }
		/^# [^ []+ \[[^] ]+\]$/ { pkg = $2; next } # a test variant: # pkg [pkg.test] (set 42: tink-go-hcvault)
		/^# / { next } # a command echoed (# [pkg-config --cflags …]), not a package
		pkg == "" { next }
		/^ *[0-9]* *\| / { next } # a C compiler quoting source under a warning (nvml: "errorType")
		/:[0-9]+(:[0-9]+)?: / && !/: (warning|note):/ { bad[pkg] = 1; next }
		/error|not found|not allowed|exit status|cannot/ && !/warning/ { bad[pkg] = 1 }
		END { for (p in bad) print p }
	' "$1" | sort -u
}

# drop_local_replaces DIR drops from DIR/go.mod each replace directive
# whose target is a directory with no go.mod in the copy's place
# (../sibling, or ../ the parent module: a module of a multi-module
# repository, whose zip holds only its own tree; the copy's parent
# directories exist but are run.sh's own), so the
# dependency resolves to the version its require line names, as it does
# for every user of the module (the go command ignores a dependency's
# replace directives). Before, such modules did not load and were left
# out of every set (the OpenTelemetry collector and collector-contrib
# families, validation sets 14, 18 and 21).
drop_local_replaces() {
	(cd "$1" && go mod edit -json 2>/dev/null) | python3 -c '
import json, os, sys
for r in json.load(sys.stdin).get("Replace") or []:
    new = r["New"]
    if "Version" not in new and not os.path.isfile(os.path.join(sys.argv[1], new["Path"], "go.mod")):
        old = r["Old"]
        print(old["Path"] + ("@" + old["Version"] if old.get("Version") else ""))
' "$1" | while read -r old; do
		(cd "$1" && go mod edit -dropreplace="$old")
	done
}

printf 'module\tversion\tpackages\texit\twall_s\tpeak_rss_mib\tpackage_errors\n' > "$out/summary.tsv"
grep -v '^\s*#' "$list" | while read -r mod version suite; do
	[[ -n ${mod:-} ]] || continue
	name=${mod//\//_}
	if [[ $mod == debsrc:* ]]; then
		dir=$(debian_source "${mod#debsrc:}" "$version" "$suite") || true
	elif [[ $mod == deb:* && -n ${suite:-} ]]; then
		dir=$(debian_download "${mod#deb:}" "$version" "$suite") || true
	elif [[ $mod == deb:* ]]; then
		dir=$(debian_module "${mod#deb:}" "$version") || true
	else
		dir=$(go mod download -json "$mod@$version" | sed -n 's/^\s*"Dir": "\(.*\)",$/\1/p') || true
	fi
	[[ -d $dir ]] || { echo "$mod@$version: not downloaded (go mod download -json $mod@$version, or apt-get, says why)" >&2; continue; }
	src=$out/src/$name
	rm -rf "$src"; cp -r "$dir" "$src"; chmod -R u+w "$src"
	drop_local_replaces "$src"
	pkgs=$(cd "$src" && { go list -e ./... 2>/dev/null || true; } | wc -l)
	if ((count_only)); then
		printf '%s\t%s\t%s\t-\t-\t-\t-\n' "$mod" "$version" "$pkgs" >> "$out/summary.tsv"
		echo "$mod $version: $pkgs packages"
		continue
	fi
	(cd "$src" && go mod download >/dev/null 2>&1 || true)
	start=$(date +%s.%N)
	set +e
	(cd "$src" && /usr/bin/time -f '%M' -o "$out/$name.rss" "$bin" -json $flags ./... > "$out/findings/$name.json" 2> "$out/$name.err")
	rc=$?
	set -e
	wall=$(echo "$(date +%s.%N) - $start" | bc)
	rss=$(( $(tail -1 "$out/$name.rss") / 1024 ))
	# Package errors: those inside the JSON, the packages that do not load
	# (admitlint names them on stderr and analyses the rest), and those go
	# vet could not type-check or compile (a "# pkg" header on stderr, once
	# per package however many variants).
	# A package that does not compile (a dependency needing another Go,
	# cgo headers the machine lacks) hides the module's packages that
	# import it, directly or not: go vet skips them without a word. They
	# are counted too.
	broken=$(compile_failed "$out/$name.err")
	errs=$(( $(grep -c '"error"' "$out/findings/$name.json" || true) +
		$(sed -n 's/^admitlint: \([0-9]*\) of [0-9]* packages do not load.*/\1/p' "$out/$name.err" | head -1 | grep . || echo 0) +
		$(hidden "$src" "$broken") ))
	printf '%s\t%s\t%s\t%s\t%.0f\t%s\t%s\n' "$mod" "$version" "$pkgs" "$rc" "$wall" "$rss" "$errs" >> "$out/summary.tsv"
	echo "$mod $version: exit $rc, ${wall%.*}s, ${rss} MiB, $pkgs packages, $errs package errors"
done
echo "results in $out"
