//go:build linux

package main

import (
	"bytes"
	"os"
	"strconv"
)

// pageKB is the size of a memory page in KiB.
var pageKB = int64(os.Getpagesize() / 1024)

// proc is what treeRSSKB needs from /proc/<pid>/stat.
type proc struct {
	pid, ppid int
	rssKB     int64
}

// treeRSSKB returns the sum of the resident set sizes of root and all its
// descendants, read from /proc. Processes that exit while it reads are
// skipped. Pages shared between processes (the same executable mapped by
// several vet tool processes) are counted once per process, as RSS does.
func treeRSSKB(root int) int64 {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return 0
	}
	procs := make([]proc, 0, len(entries))
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		data, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue // exited meanwhile
		}
		if p, ok := parseStat(data); ok && p.pid == pid {
			procs = append(procs, p)
		}
	}
	return sumTree(procs, root)
}

// sumTree returns the sum of rssKB over root and its descendants in procs.
func sumTree(procs []proc, root int) int64 {
	children := make(map[int][]int, len(procs))
	rss := make(map[int]int64, len(procs))
	for _, p := range procs {
		children[p.ppid] = append(children[p.ppid], p.pid)
		rss[p.pid] = p.rssKB
	}
	var sum int64
	queue := []int{root}
	seen := map[int]bool{root: true}
	for len(queue) > 0 {
		pid := queue[0]
		queue = queue[1:]
		sum += rss[pid]
		for _, c := range children[pid] {
			if !seen[c] {
				seen[c] = true
				queue = append(queue, c)
			}
		}
	}
	return sum
}

// parseStat parses the pid, parent pid and resident set size (field 24,
// in pages) out of a /proc/<pid>/stat line. The command name (field 2) is
// in parentheses and may itself contain spaces and parentheses, so the
// fields after it are counted from the last ')'.
func parseStat(data []byte) (proc, bool) {
	open := bytes.IndexByte(data, '(')
	end := bytes.LastIndexByte(data, ')')
	if open < 1 || end < open {
		return proc{}, false
	}
	pid, err := strconv.Atoi(string(bytes.TrimSpace(data[:open])))
	if err != nil {
		return proc{}, false
	}
	// After ')': state(3) ppid(4) … rss(24): ppid is rest[1], rss rest[21].
	rest := bytes.Fields(data[end+1:])
	if len(rest) < 22 {
		return proc{}, false
	}
	ppid, err1 := strconv.Atoi(string(rest[1]))
	pages, err2 := strconv.ParseInt(string(rest[21]), 10, 64)
	if err1 != nil || err2 != nil {
		return proc{}, false
	}
	return proc{pid: pid, ppid: ppid, rssKB: pages * pageKB}, true
}
