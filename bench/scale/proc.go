package scale

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"clowder/bench/procstat"
)

// idleOver measures pid's CPU and wake-ups over d, which it waits out.
func idleOver(ctx context.Context, pid int, d time.Duration) (Idle, error) {
	c0, err := procstat.CPU(pid)
	if err != nil {
		return Idle{}, err
	}
	w0, err := wakeups(pid)
	if err != nil {
		return Idle{}, err
	}
	select {
	case <-ctx.Done():
		return Idle{}, fmt.Errorf("idle period of pid %d: %w", pid, ctx.Err())
	case <-time.After(d): // the measured period itself
	}
	c1, err := procstat.CPU(pid)
	if err != nil {
		return Idle{}, err
	}
	w1, err := wakeups(pid)
	return Idle{CPU: c1 - c0, Wakeups: w1 - w0, Over: d}, err
}

// wakeups is how often pid's threads have gone to sleep and been woken:
// voluntary_ctxt_switches summed over /proc/PID/task/*/status (the
// process's own status counts its main thread only, and a Go program
// sleeps in many). A thread that exits meanwhile takes its count along.
func wakeups(pid int) (int64, error) {
	tasks, err := filepath.Glob("/proc/" + strconv.Itoa(pid) + "/task/*/status")
	if err != nil || len(tasks) == 0 {
		return 0, fmt.Errorf("no threads of pid %d", pid)
	}
	var n int64
	for _, t := range tasks {
		if v, err := statusField(t, "voluntary_ctxt_switches:"); err == nil {
			n += v
		} // else the thread exited meanwhile
	}
	return n, nil
}

// statusField reads a number field of a /proc status file ("VmRSS:  10 kB").
func statusField(file, key string) (int64, error) {
	f, err := os.Open(file)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), key); ok {
			return strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
		}
	}
	return 0, fmt.Errorf("no %s in %s", key, file)
}

// alive reports whether pid is a process that has not exited (a zombie has).
func alive(pid int) bool {
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	i := bytes.LastIndexByte(stat, ')')
	return i < 0 || i+2 >= len(stat) || stat[i+2] != 'Z'
}

// closeTimeout bounds stopping a server, whatever the run's context has
// left: a run that timed out still cleans up. A host stops its panes one
// kill ladder at a time: 100 took 6 s on a busy machine.
const closeTimeout = 2 * time.Minute

// reap waits until none of pids is alive; those still alive after within
// are killed (a benchmark leaves nothing behind) and named in the error.
func reap(pids []int, within time.Duration) error {
	left := awaitGone(pids, within)
	for _, p := range left {
		_ = syscall.Kill(p, syscall.SIGKILL) // best effort: it is reported below
	}
	if len(left) > 0 {
		return fmt.Errorf("processes %v still ran %s after their server was stopped; killed", left, within)
	}
	return nil
}

// awaitGone waits until none of pids is alive and returns those that are
// still alive after within.
func awaitGone(pids []int, within time.Duration) []int {
	deadline := time.Now().Add(within)
	for step := time.Millisecond; ; step = min(2*step, 100*time.Millisecond) {
		var left []int
		for _, p := range pids {
			if alive(p) {
				left = append(left, p)
			}
		}
		if len(left) == 0 || time.Now().After(deadline) {
			return left
		}
		time.Sleep(step) // polling /proc for exits: there is no other way to wait for a non-child
	}
}
