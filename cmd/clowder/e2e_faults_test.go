//go:build linux

package main

import (
	"context"
	"encoding/json"
	"os"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// faultRounds is how many times a fault-injection test repeats: fast in
// `make test`, full under `make faults` (CLOWDER_FAULTS=full).
func faultRounds(fast, full int) int {
	if os.Getenv("CLOWDER_FAULTS") == "full" {
		return full
	}
	return fast
}

// newResult is one `clowder new`'s outcome.
type newResult struct {
	id, stderr string
	code       int
}

// Regression (issue 10 §5, "SIGKILL at each step of spawn"): with the
// host SIGKILLed during 20 parallel `clowder new` calls, 22 spawns in 200
// were recorded twice (the retry ran again on the next host, whose nonce
// table was empty) and 18 of 19 `new` calls that exited 1 had started a
// pane anyway. Now every request makes at most one pane, and a `new` that
// fails has made none unless its error names the pane.
func TestE2EHostSIGKILLedDuringParallelNewMakesOnePanePerRequest(t *testing.T) {
	const parallel = 20
	e := newE2E(t)
	e.must("host")
	dups, silent, failed := 0, 0, 0
	rounds := faultRounds(2, 10)
	for round := range rounds {
		before := len(e.panes())
		results := e.newsWithHostKill(parallel, 3)
		made := len(e.panes()) - before
		ok, named := 0, 0
		for _, r := range results {
			switch {
			case r.code == 0:
				ok++
			case strings.Contains(r.stderr, "already made pane"):
				named++
			}
		}
		if made > ok+named {
			t.Logf("round %d: %d panes for %d requests (%d succeeded, %d failures named their pane); failures:\n%s",
				round, made, parallel, ok, named, failures(results))
		}
		failed += parallel - ok
		dups += max(0, made-parallel)
		silent += max(0, made-ok-named-max(0, made-parallel))
	}
	t.Logf("%d spawns, host SIGKILLed %d times: %d recorded twice, %d `new` failed (%d of them made a pane without saying so)",
		rounds*parallel, rounds, dups, failed, silent)
	if dups > 0 || silent > 0 {
		t.Fatalf("%d spawns recorded twice and %d panes made by a `new` that reported failure without naming it, in %d spawns",
			dups, silent, rounds*parallel)
	}
}

// newsWithHostKill runs n `clowder new` in parallel and SIGKILLs the host
// once the first `after` of them succeeded, then waits for all.
func (e *e2eEnv) newsWithHostKill(n, after int) []newResult {
	e.t.Helper()
	pid := e.hostPid()
	results := make([]newResult, n)
	done := make(chan int, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			results[i] = e.newSleep()
			done <- results[i].code
		}()
	}
	for succeeded := 0; succeeded < after; {
		if <-done == 0 {
			succeeded++
		}
	}
	_ = syscall.Kill(pid, syscall.SIGKILL)
	wg.Wait()
	e.must("host") // the next round needs one, if no retry started it
	return results
}

// newSleep runs one `clowder new -- sleep`.
func (e *e2eEnv) newSleep() newResult {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	var out, errb strings.Builder
	cmd := e.command(ctx, "new", "--", "sleep", "1000")
	cmd.Stdout, cmd.Stderr = &out, &errb
	_ = cmd.Run()
	return newResult{id: strings.TrimSpace(out.String()), stderr: errb.String(), code: cmd.ProcessState.ExitCode()}
}

// hostPid is the running host's pid.
func (e *e2eEnv) hostPid() int {
	e.t.Helper()
	var st struct {
		Pid int `json:"pid"`
	}
	if err := json.Unmarshal([]byte(e.must("host", "status", "--json")), &st); err != nil || st.Pid == 0 {
		e.t.Fatalf("host status: %v", err)
	}
	return st.Pid
}

// failures lists the failed calls' errors.
func failures(rs []newResult) string {
	var b strings.Builder
	for _, r := range rs {
		if r.code != 0 {
			b.WriteString("exit " + strconv.Itoa(r.code) + ": " + strings.TrimSpace(r.stderr) + "\n")
		}
	}
	return b.String()
}
