//go:build linux

package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestE2ETUIWithoutATerminalStartsNoHost pins a trial-4 fault: `clowder`
// with no terminal (a script, cron, an agent's tool call) started a host,
// which then stayed with nothing attached, and only after that failed
// with "the TUI needs a terminal: inappropriate ioctl for device", which
// did not say what to do.
func TestE2ETUIWithoutATerminalStartsNoHost(t *testing.T) {
	e := newE2E(t)
	_, errOut, code := e.run()
	if code != 1 || strings.Count(errOut, "\n") != 1 || !strings.Contains(errOut, "terminal") || !strings.Contains(errOut, "clowder --help") {
		t.Errorf("clowder without a terminal: exit %d, %q; want 1 and one line saying it needs a terminal and what scripts use", code, errOut)
	}
	if _, err := os.Stat(filepath.Join(e.dir, "run", "host.sock")); err == nil {
		t.Errorf("clowder without a terminal started a host")
	}
}

// TestE2ECommandThatCannotStartSaysWhatToDo pins a trial-4 fault: a
// command that is not on PATH, missing or not executable was refused with
// only the system's words ("file does not exist", "fork/exec /etc:
// permission denied"), not what to do.
func TestE2ECommandThatCannotStartSaysWhatToDo(t *testing.T) {
	e := newE2E(t)
	for _, argv := range [][]string{{"no-such-command-t4"}, {"/nonexistent/t4"}, {"/etc"}} {
		_, errOut, code := e.run(append([]string{"new", "--"}, argv...)...)
		if code != 1 || strings.Count(errOut, "\n") != 1 || !strings.Contains(errOut, "full path") {
			t.Errorf("new -- %s: exit %d, %q; want 1 and one line saying to give the program's full path", argv[0], code, errOut)
		}
	}
}

// TestE2EChangeOfAPaneNoRecordNamesWithNoHost pins a trial-4 fault: with
// no host running, `clowder rename nosuch x` (or rm, land, discard) of a
// pane agents.json does not record said to start a host and run it
// again, which could only end in "no pane": it says there is none.
func TestE2EChangeOfAPaneNoRecordNamesWithNoHost(t *testing.T) {
	e := newE2E(t)
	e.must("new", "--name", "kept", "--", "true")
	e.must("host", "stop", "--force")
	for _, args := range [][]string{{"rename", "nosuch", "x"}, {"rm", "nosuch"}} {
		_, errOut, code := e.run(args...)
		if code != 1 || strings.Count(errOut, "\n") != 1 || !strings.Contains(errOut, `no pane "nosuch"`) || strings.Contains(errOut, "run this again") {
			t.Errorf("%v with no host: exit %d, %q; want 1 and one line saying there is no such pane", args, code, errOut)
		}
	}
	if _, err := os.Stat(filepath.Join(e.dir, "run", "host.sock")); err == nil {
		t.Errorf("a change of a pane nothing records started a host")
	}
}
