//go:build linux

package main

import (
	"os"
	"os/exec"
	"testing"
	"time"
)

func TestParseStat(t *testing.T) {
	// A command name with a space and a ')' in it, as a process may choose.
	line := []byte("4242 (vet ) tool) S 4241 4200 8243 0 -1 4194304 100 0 0 0 0 0 0 0 20 0 1 0 183685 3133440 382 18446744073709551615 0 0\n")
	p, ok := parseStat(line)
	if !ok {
		t.Fatal("parseStat failed")
	}
	if want := (proc{pid: 4242, ppid: 4241, rssKB: 382 * pageKB}); p != want {
		t.Errorf("parseStat = %+v, want %+v", p, want)
	}
	for _, bad := range []string{"", "4242 (x", "x (y) S 1", "4242 (x) S 1 2"} {
		if _, ok := parseStat([]byte(bad)); ok {
			t.Errorf("parseStat(%q) succeeded", bad)
		}
	}
}

func TestSumTree(t *testing.T) {
	procs := []proc{
		{pid: 1, ppid: 0, rssKB: 1000}, // not under root
		{pid: 10, ppid: 1, rssKB: 5},   // root
		{pid: 11, ppid: 10, rssKB: 7},
		{pid: 12, ppid: 11, rssKB: 11},
		{pid: 13, ppid: 1, rssKB: 100}, // a sibling of root
	}
	if got := sumTree(procs, 10); got != 23 {
		t.Errorf("sumTree = %d, want 23", got)
	}
	if got := sumTree(procs, 99); got != 0 {
		t.Errorf("sumTree of a gone process = %d, want 0", got)
	}
}

func TestRun(t *testing.T) {
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh")
	}
	res := run([]string{"sh", "-c", "sleep 0.3; exit 3"}, time.Minute, 0, 20*time.Millisecond)
	if res.status != "ok" || res.exit != 3 || res.code() != 3 {
		t.Errorf("exit 3: got %+v", res)
	}
	if res.treePeakKB <= 0 {
		t.Errorf("tree peak not sampled: %+v", res)
	}

	// The child's own child must die with it: the group is killed.
	res = run([]string{"sh", "-c", "sleep 30 & wait"}, 200*time.Millisecond, 0, 20*time.Millisecond)
	if res.status != "timeout" || res.code() != 124 || res.wall > 10*time.Second {
		t.Errorf("timeout: got %+v", res)
	}

	res = run([]string{"sh", "-c", "sleep 30"}, time.Minute, 1, 20*time.Millisecond) // 1 KiB cap
	if res.status != "rss-cap" || res.code() != 137 {
		t.Errorf("memory cap: got %+v", res)
	}

	res = run([]string{os.DevNull}, time.Minute, 0, 20*time.Millisecond)
	if res.status != "error" || res.code() != 125 {
		t.Errorf("not executable: got %+v", res)
	}
}
