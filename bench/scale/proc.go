package scale

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"strconv"
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
	w0, err := procstat.Wakeups(pid)
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
	w1, err := procstat.Wakeups(pid)
	return Idle{CPU: c1 - c0, Wakeups: w1 - w0, Over: d}, err
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
