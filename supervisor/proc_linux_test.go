package supervisor

import (
	"fmt"
	"os/exec"
	"sync"
	"testing"
)

func TestParseStatReadsAfterLastParen(t *testing.T) {
	line := "4242 (evil) (name) S 1 4242 4242 0 -1 4194560 1 2 3 4 5 6 7 8 20 0 1 0 987654 1 2 3\n"
	p, err := parseStat([]byte(line), "boot")
	if err != nil {
		t.Fatal(err)
	}
	want := procInfo{ID: Identity{PID: 4242, Start: 987654, BootID: "boot"}, State: 'S', PPID: 1, PGID: 4242, Session: 4242}
	if p != want {
		t.Fatalf("parseStat = %+v, want %+v", p, want)
	}
	for _, bad := range []string{"", "1 (x", "1 (x) S 1 2", "x (y) S 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20"} {
		if _, err := parseStat([]byte(bad), "b"); err == nil {
			t.Errorf("parseStat(%q) accepted", bad)
		}
	}
}

// TestConcurrentProcessScansAreFresh: callers that share a scan of /proc
// (kill ladders of many panes at once) each get a table from a scan that
// began after they asked, so a process started just before a call is in
// its table.
func TestConcurrentProcessScansAreFresh(t *testing.T) {
	o := newOracle(t)
	var wg sync.WaitGroup
	errs := make(chan error, 20)
	for i := 0; i < 20; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			cmd := exec.Command("sleep", "60")
			cmd.Env = o.Env()
			if err := cmd.Start(); err != nil {
				errs <- err
				return
			}
			defer func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }()
			table, err := listProcs()
			if _, ok := table[cmd.Process.Pid]; err != nil || !ok {
				errs <- fmt.Errorf("pid %d started before the scan is not in it (%v)", cmd.Process.Pid, err)
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}
