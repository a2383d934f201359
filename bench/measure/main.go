//go:build linux

// Command measure runs one benchmark command under a watchdog and records
// what /usr/bin/time cannot: the peak resident memory of the whole process
// tree. bench/run.sh runs
//
//	measure -o result.txt -timeout 30m -max-rss-mb 8000 -- /usr/bin/time -v -o time.txt go vet std
//
// /usr/bin/time reports the largest single process's peak (the go command,
// or one vet tool process); the go vet route runs several vet processes at
// once, so the sum over the tree is the memory the machine must have.
// measure samples it from /proc every -interval.
//
// The command runs in its own process group. When it outlives -timeout, or
// the tree's resident memory exceeds -max-rss-mb, the whole group is
// killed: a benchmark that would swap the machine is recorded as not run,
// not waited for. The result file holds key=value lines:
//
//	status=ok|timeout|rss-cap|error
//	exit=<the command's exit code, or -1>
//	tree_peak_kb=<peak sum of RSS over the tree>
//	wall_s=<wall seconds, as measure saw it>
//
// measure exits with the command's exit code, 124 on timeout, 137 when the
// memory cap was hit and 125 when the command could not be started.
package main

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"syscall"
	"time"
)

func main() {
	out := flag.String("o", "", "write the result to `file` (required)")
	timeout := flag.Duration("timeout", 30*time.Minute, "kill the command after this long")
	maxRSS := flag.Int64("max-rss-mb", 0, "kill the command when its process tree's RSS exceeds this many MiB (0: no cap)")
	interval := flag.Duration("interval", 100*time.Millisecond, "how often to sample the process tree")
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: measure -o file [-timeout d] [-max-rss-mb n] [-interval d] -- command [args…]")
		flag.PrintDefaults()
	}
	flag.Parse()
	if *out == "" || flag.NArg() == 0 {
		flag.Usage()
		os.Exit(2)
	}
	res := run(flag.Args(), *timeout, *maxRSS*1024, *interval)
	if err := os.WriteFile(*out, []byte(res.String()), 0o666); err != nil {
		fmt.Fprintf(os.Stderr, "measure: %v\n", err)
		os.Exit(125)
	}
	os.Exit(res.code())
}

// result is what one run recorded.
type result struct {
	status     string // ok, timeout, rss-cap or error
	exit       int    // the command's exit code; -1 if it did not exit by itself
	treePeakKB int64
	wall       time.Duration
	err        error // why the command could not be started (status error)
}

func (r result) String() string {
	s := fmt.Sprintf("status=%s\nexit=%d\ntree_peak_kb=%d\nwall_s=%.2f\n",
		r.status, r.exit, r.treePeakKB, r.wall.Seconds())
	if r.err != nil {
		s += fmt.Sprintf("error=%v\n", r.err)
	}
	return s
}

// code is measure's own exit code for the result.
func (r result) code() int {
	switch r.status {
	case "timeout":
		return 124
	case "rss-cap":
		return 137
	case "error":
		return 125
	}
	return r.exit
}

// run starts args in a process group of its own and watches it until it
// exits, is killed for outliving timeout or for exceeding capKB (0: no
// cap), or measure itself is interrupted.
func run(args []string, timeout time.Duration, capKB int64, interval time.Duration) result {
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return result{status: "error", exit: -1, err: err}
	}
	pid := cmd.Process.Pid
	kill := func() { syscall.Kill(-pid, syscall.SIGKILL) } // the whole group

	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	defer signal.Stop(sigs)

	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()

	res := result{status: "ok", exit: -1}
	deadline := time.After(timeout)
	tick := time.NewTicker(interval)
	defer tick.Stop()
	for {
		select {
		case err := <-done:
			res.wall = time.Since(start)
			var exit *exec.ExitError
			switch {
			case err == nil:
				res.exit = 0
			case errors.As(err, &exit) && res.status == "ok":
				res.exit = exit.ExitCode()
			}
			kill() // stray background children, if any
			return res
		case <-tick.C:
			kb := treeRSSKB(pid)
			res.treePeakKB = max(res.treePeakKB, kb)
			if capKB > 0 && kb > capKB && res.status == "ok" {
				res.status = "rss-cap"
				kill()
			}
		case <-deadline:
			if res.status == "ok" {
				res.status = "timeout"
				kill()
			}
		case sig := <-sigs:
			kill()
			fmt.Fprintf(os.Stderr, "measure: %v: killed the command\n", sig)
			os.Exit(130)
		}
	}
}
