package scale

import (
	"context"
	"fmt"
	"time"

	"clowder/bench/hostbench"
	"clowder/bench/latency"
	"clowder/bench/procstat"
)

// Config says how big a run is.
type Config struct {
	Panes  int           // idle shells at the end (at least 2)
	LsRuns int           // whole-process `ls` runs timed with one pane and with Panes
	Idle   time.Duration // how long CPU and wake-ups are measured, at each size
}

// check refuses a run with no per-pane figures, before anything starts.
func (c Config) check() error {
	if c.Panes < 2 {
		return fmt.Errorf("scale: %d panes; the per-pane figures need at least 2", c.Panes)
	}
	return nil
}

// Default is what make bench runs.
var Default = Config{Panes: 100, LsRuns: 20, Idle: 10 * time.Second}

// Result is one server's figures.
type Result struct {
	Panes int
	// Spawn holds each spawn of panes 2..Panes, whole process, in order;
	// SpawnAll is their wall time together (the first pane is the server's
	// cold start, timed elsewhere).
	Spawn    latency.Samples
	SpawnAll time.Duration
	// SpawnCPU is the server's CPU time over those spawns (clock ticks of
	// 10 ms: a sum, read as a mean per pane).
	SpawnCPU time.Duration
	// RSS1 and RSSN are the server's resident memory with one pane and
	// with Panes, each shell at its prompt; Anon1 and AnonN the anonymous
	// part of it (heap and stacks: not the binary's code pages, which the
	// spawns page in once, whatever their number).
	RSS1, RSSN   int64
	Anon1, AnonN int64
	// Ls1 and LsN are whole-process listings with one pane and with Panes.
	Ls1, LsN latency.Samples
	// Ls1CPU and LsNCPU are the server's CPU time over each set of runs.
	Ls1CPU, LsNCPU time.Duration
	// Idle1 and IdleN are the server's CPU and wake-ups with one pane and
	// with Panes, every shell at its prompt and no client connected.
	Idle1, IdleN Idle
	// Stop is how long stopping the server took with every pane open
	// (`clowder host stop --force`, `tmux kill-server`), until the server
	// and every shell were gone.
	Stop time.Duration
}

// RSSPerPane is the anonymous memory each pane after the first added.
func (r Result) RSSPerPane() int64 { return (r.AnonN - r.Anon1) / int64(r.Panes-1) }

// SpawnPerPane is SpawnAll over the panes it spawned.
func (r Result) SpawnPerPane() time.Duration { return r.SpawnAll / time.Duration(r.Panes-1) }

// SpawnCPUPerPane is the server's CPU time per spawn.
func (r Result) SpawnCPUPerPane() time.Duration { return r.SpawnCPU / time.Duration(r.Panes-1) }

// LsCPU is the server's CPU time per `ls` with one pane and with Panes.
func (r Result) LsCPU() (one, all time.Duration) {
	return r.Ls1CPU / time.Duration(max(len(r.Ls1), 1)), r.LsNCPU / time.Duration(max(len(r.LsN), 1))
}

// SpawnFirstLast is the median spawn time of the first and of the last ten
// timed spawns (fewer in a short run): a rise means each pane costs more
// to add than the one before.
func (r Result) SpawnFirstLast() (first, last time.Duration) {
	k := min(10, len(r.Spawn))
	return r.Spawn[:k].Median(), r.Spawn[len(r.Spawn)-k:].Median()
}

// Idle is a server's CPU and wake-ups (voluntary context switches over all
// its threads) over Over.
type Idle struct {
	CPU     time.Duration
	Wakeups int64
	Over    time.Duration
}

// PerSecond is the wake-ups as a rate.
func (i Idle) PerSecond() float64 { return float64(i.Wakeups) / i.Over.Seconds() }

// server is one side, driven the way its users drive it.
type server interface {
	// spawn opens one more idle shell, whole process.
	spawn(ctx context.Context) error
	// waitPrompts returns once every shell shows its prompt.
	waitPrompts(ctx context.Context) error
	// ls lists every pane, whole process.
	ls(ctx context.Context) error
	// pid is the server's process.
	pid() int
	// processes are the server's and every pane's pids, for the leak check.
	processes(ctx context.Context) ([]int, error)
}

// measure runs the figures on s, which holds one pane: one pane's, then
// spawns the rest and measures again.
func measure(ctx context.Context, s server, cfg Config) (Result, error) {
	r := Result{Panes: cfg.Panes}
	var err error
	if r.RSS1, r.Anon1, r.Idle1, r.Ls1, r.Ls1CPU, err = settled(ctx, s, cfg); err != nil {
		return r, err
	}
	start := time.Now()
	r.SpawnCPU, err = cpuOver(s.pid(), func() error {
		r.Spawn, err = latency.TimeN(cfg.Panes-1, func() error { return s.spawn(ctx) })
		return err
	})
	if err != nil {
		return r, err
	}
	r.SpawnAll = time.Since(start)
	r.RSSN, r.AnonN, r.IdleN, r.LsN, r.LsNCPU, err = settled(ctx, s, cfg)
	return r, err
}

// settled waits for every prompt, then reads the server's memory (all of
// it, and the anonymous part), its idle
// CPU and wake-ups, and times ls (and the server's CPU for it), in that
// order (ls wakes the server).
func settled(ctx context.Context, s server, cfg Config) (rss, anon int64, idle Idle, ls latency.Samples, lsCPU time.Duration, err error) {
	if err = s.waitPrompts(ctx); err != nil {
		return
	}
	time.Sleep(hostbench.Quiet) // idle: a clowder host has done its start-up work
	if rss, err = procstat.RSS(s.pid()); err != nil {
		return
	}
	if anon, err = procstat.AnonRSS(s.pid()); err != nil {
		return
	}
	if idle, err = idleOver(ctx, s.pid(), cfg.Idle); err != nil {
		return
	}
	lsCPU, err = cpuOver(s.pid(), func() error {
		ls, err = latency.TimeN(cfg.LsRuns, func() error { return s.ls(ctx) })
		return err
	})
	return
}

// cpuOver runs f and returns the CPU time pid used meanwhile.
func cpuOver(pid int, f func() error) (time.Duration, error) {
	before, err := procstat.CPU(pid)
	if err != nil {
		return 0, err
	}
	if err := f(); err != nil {
		return 0, err
	}
	after, err := procstat.CPU(pid)
	return after - before, err
}
