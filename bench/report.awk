# bench/report.awk turns bench/run.sh's results.tsv (and meta.txt, given
# as -v metafile=…) into docs/bench.md: the machine, one table per corpus,
# the ratios and the targets of issue 7. Each number is the median over
# the runs that completed; a tool with no completed run shows why.
#
#	awk -F'\t' -v metafile=out/meta.txt -f bench/report.awk out/results.tsv
function median(list,    n, v, i, j, t) {
	n = split(list, v, " ")
	for (i = 2; i <= n; i++) for (j = i; j > 1 && v[j-1] + 0 > v[j] + 0; j--) { t = v[j]; v[j] = v[j-1]; v[j-1] = t }
	if (n == 0) return ""
	return n % 2 ? v[(n+1)/2] : (v[n/2] + v[n/2+1]) / 2
}
function secs(x) { return x == "" ? "—" : (x < 10 ? sprintf("%.2f s", x) : sprintf("%.1f s", x)) }
function mib(kb) { return kb == "" ? "—" : sprintf("%d MiB", kb / 1024 + 0.5) }
function ratio(a, b) { return (a == "" || b == "" || b == 0) ? "—" : sprintf("%.2f×", a / b) }
function val(c, t, p, m) { return med[c, t, p, m] }
function cell(c, t, p, m, fmt) {
	if ((c, t, p) in why) return m == "wall" ? "not run: " why[c, t, p] : "—"
	if (val(c, t, p, m) == "") return "—"
	return fmt == "s" ? secs(val(c, t, p, m)) : mib(val(c, t, p, m))
}
# check prints one target line and records it for the summary.
function check(c, k, name, a, b, factor, detail,    ok) {
	if (a == "" || b == "") { verdict[c, k] = "not measured"; printf "- **not measured**: %s (%s)\n", name, detail; return }
	ok = a <= factor * b
	verdict[c, k] = ok ? "met" : "**not met**"
	printf "- %s: %s (%s)\n", ok ? "met" : "**NOT MET**", name, detail
}
BEGIN {
	while ((getline line < metafile) > 0) { i = index(line, "="); meta[substr(line, 1, i-1)] = substr(line, i+1) }
	ntools = split(meta["tools"], tools, " ")
	label["govet"] = "go vet"
	label["staticcheck"] = "staticcheck"
	label["floor-vet"] = "SSA floor, vet tool"
	label["floor"] = "SSA floor, standalone"
	label["admitlint"] = "admitlint"
	label["admitlint-vet"] = "admitlint, vet tool"
	label["facts-vet"] = "facts only, vet tool"
	ncorpora = split("std grpc nats-server etcd caddy prometheus", corpora, " ")
}
NR == 1 { next }
{
	c = $1; t = $2; p = $3; seen[c] = 1
	if ($5 != "ok") { if (!((c, t, p, "ok") in any)) why[c, t, p] = ($5 == "rss-cap" ? "over " meta["max_rss_mb"] " MiB" : $5 == "timeout" ? "timeout " meta["timeout"] : $5); next }
	any[c, t, p, "ok"] = 1; delete why[c, t, p]
	vals[c, t, p, "wall"] = vals[c, t, p, "wall"] " " $7
	vals[c, t, p, "cpu"] = vals[c, t, p, "cpu"] " " $8
	vals[c, t, p, "rss"] = vals[c, t, p, "rss"] " " $9
	vals[c, t, p, "tree"] = vals[c, t, p, "tree"] " " $10
	if (p == "cold") exits[c, t] = exits[c, t] (exits[c, t] == "" ? "" : ",") $6
	n[c, t, p]++
}
END {
	for (k in vals) { split(k, kk, SUBSEP); med[kk[1], kk[2], kk[3], kk[4]] = median(vals[k]) }
	print "# Benchmark"
	print ""
	print "Written by `" meta["command"] "` on " meta["date"] "; re-run it rather than editing this file."
	if (meta["quick"] == 1) { print ""; print "**Smoke test (--quick): small packages only, numbers not representative.**" }
	print ""
	print "## Machine"
	print ""
	print "| | |"
	print "|---|---|"
	print "| CPU | " meta["cpu"] ", " meta["nproc"] " CPUs (nproc) |"
	print "| memory | " meta["mem"] " |"
	print "| OS | " meta["kernel"] " |"
	print "| load average at start | " meta["load"] " |"
	print "| Go | " meta["go"] " |"
	print "| admitlint | " meta["admitlint"] " |"
	print "| staticcheck | " meta["staticcheck"] " |"
	print "| SSA floor | bench/ssafloor, " meta["xtools"] " buildssa |"
	for (i = 1; i <= ncorpora; i++) if ((c = corpora[i]) in seen)
		print "| " c " | " meta["corpus." c ".version"] " |"
	print "| runs | " meta["reps"] " cold run(s) per tool, " meta["warm_reps"] " warm re-run(s) after each; medians; timeout " meta["timeout"] " and memory cap " meta["max_rss_mb"] " MiB per run |"
	print ""
	print "## How to read it"
	print ""
	print "- **cold**: a fresh build cache copied from a template that holds every compiled package the corpus and its tests need, and nothing any tool analysed; staticcheck also gets a fresh cache directory of its own (XDG_CACHE_HOME). Every tool pays the same compile work (none) and its own full analysis."
	print "- **warm**: the same command again in that cache, nothing changed: what a developer pays on every save and CI on every push with a restored cache. The standalone SSA floor caches nothing, so its warm run would equal its cold run and is not repeated."
	print "- **wall**, **CPU** (user + system), **peak RSS** (the largest single process, as `/usr/bin/time -v` reports it) and **tree RSS** (the largest sum of the resident memory of all processes of the run at once, sampled every 100 ms by bench/measure; the go vet route runs several vet processes in parallel, so this is what the machine must have)."
	print "- **exit**: the tools exit non-zero on findings (go vet and staticcheck 1, admitlint 3); admitlint 1 means a package failed (its stderr is in the run logs)."
	print "- Commands, run in bench/corpus with `GOFLAGS=-mod=readonly GOPROXY=off`: `go vet <patterns>`; `staticcheck <patterns>`; `go vet -vettool=ssafloor <patterns>`; `ssafloor <patterns>`; `admitlint <patterns>`; `go vet -vettool=admitlint <patterns>`; `go vet -vettool=factsonly <patterns>`. The SSA floor (bench/ssafloor) is an analyzer that requires buildssa and reports nothing; factsonly (bench/factsonly) runs only the analyzers among admitlint's requirements that export facts (and what they require: lazy SSA, ctrlflow), with x/tools' stock multichecker: its row beside admitlint's, as a vet tool, is what computing the facts costs on its own. It is not a share that adds up: admitlint's own passes add little to the same SSA and facts, so the two rows are close."
	print "- The go vet route (go vet, the vet-tool rows and admitlint, which runs go vet underneath) caches each package's result, findings included, in the build cache, keyed by the tool's content hash and the package's inputs; staticcheck keeps its own cache. A warm run re-analyses nothing."
	for (i = 1; i <= ncorpora; i++) {
		if (!((c = corpora[i]) in seen)) continue
		print ""
		print "## " c
		print ""
		print "`" meta["corpus." c ".patterns"] "`: " meta["corpus." c ".packages"] (meta["corpus." c ".packages"] == 1 ? " package" : " packages") ", tests included; compile-cache template " meta["corpus." c ".template_mb"] " MiB; measured in " meta["corpus." c ".minutes"] " min" (meta["corpus." c ".loaderrors"] > 0 ? "; **" meta["corpus." c ".loaderrors"] " packages do not load**" : "") "."
		print ""
		print "| tool | cold wall | cold CPU | cold peak RSS | cold tree RSS | exit | warm wall | warm CPU | warm peak RSS |"
		print "|---|--:|--:|--:|--:|--:|--:|--:|--:|"
		for (j = 1; j <= ntools; j++) {
			t = tools[j]
			warm = t == "floor" ? "no cache | | " : cell(c, t, "warm", "wall", "s") " | " cell(c, t, "warm", "cpu", "s") " | " cell(c, t, "warm", "rss", "m")
			print "| " label[t] " | " cell(c, t, "cold", "wall", "s") " | " cell(c, t, "cold", "cpu", "s") " | " cell(c, t, "cold", "rss", "m") " | " cell(c, t, "cold", "tree", "m") " | " ((c, t) in exits ? exits[c, t] : "—") " | " warm " |"
		}
		print ""
		print "| ratio | cold wall | cold CPU | cold peak RSS | cold tree RSS | warm wall |"
		print "|---|--:|--:|--:|--:|--:|"
		split("admitlint govet admitlint staticcheck admitlint-vet floor-vet facts-vet admitlint-vet", pair, " ")
		for (j = 1; j <= 7; j += 2) {
			if (!((c, pair[j], "cold", "wall") in vals) && pair[j] == "facts-vet") continue
			a = pair[j]; b = pair[j+1]
			printf "| %s / %s | %s | %s | %s | %s | %s |\n", label[a], label[b], ratio(val(c, a, "cold", "wall"), val(c, b, "cold", "wall")), ratio(val(c, a, "cold", "cpu"), val(c, b, "cold", "cpu")), ratio(val(c, a, "cold", "rss"), val(c, b, "cold", "rss")), ratio(val(c, a, "cold", "tree"), val(c, b, "cold", "tree")), ratio(val(c, a, "warm", "wall"), val(c, b, "warm", "wall"))
		}
		print ""
		print "Targets (issue 7):"
		print ""
		check(c, 1, "cold wall at or below staticcheck's", val(c, "admitlint", "cold", "wall"), val(c, "staticcheck", "cold", "wall"), 1, secs(val(c, "admitlint", "cold", "wall")) " vs " secs(val(c, "staticcheck", "cold", "wall")))
		check(c, 2, "cold peak RSS at or below staticcheck's", val(c, "admitlint", "cold", "rss"), val(c, "staticcheck", "cold", "rss"), 1, mib(val(c, "admitlint", "cold", "rss")) " vs " mib(val(c, "staticcheck", "cold", "rss")) "; process tree " mib(val(c, "admitlint", "cold", "tree")) " vs " mib(val(c, "staticcheck", "cold", "tree")))
		check(c, 3, "warm re-run within 1.5× of go vet's", val(c, "admitlint", "warm", "wall"), val(c, "govet", "warm", "wall"), 1.5, secs(val(c, "admitlint", "warm", "wall")) " vs " secs(val(c, "govet", "warm", "wall")) " × 1.5")
		check(c, 4, "as a vet tool, cold wall within 1.3× of the SSA floor's", val(c, "admitlint-vet", "cold", "wall"), val(c, "floor-vet", "cold", "wall"), 1.3, secs(val(c, "admitlint-vet", "cold", "wall")) " vs " secs(val(c, "floor-vet", "cold", "wall")) " × 1.3")
	}
	print ""
	print "## Targets on every corpus"
	print ""
	print "| corpus | cold wall ≤ staticcheck | cold peak RSS ≤ staticcheck | warm ≤ 1.5× go vet | vet tool ≤ 1.3× SSA floor |"
	print "|---|---|---|---|---|"
	for (i = 1; i <= ncorpora; i++) if ((c = corpora[i]) in seen)
		print "| " c " | " verdict[c, 1] " | " verdict[c, 2] " | " verdict[c, 3] " | " verdict[c, 4] " |"
}
