package main

import (
	"strings"
	"testing"

	"clowder/supervisor/proto"
)

// countingWriter counts the writes that reach it, as the write syscalls
// a command makes on its standard output.
type countingWriter struct {
	writes int
	strings.Builder
}

func (w *countingWriter) Write(p []byte) (int, error) {
	w.writes++
	return w.Builder.Write(p)
}

// TestCLILsPrintsItsTableInOneWrite pins issue 12 (CLI cost): ls wrote its
// table cell by cell, two write syscalls per column of every pane (20 per
// row), straight from tabwriter to the unbuffered stdout.
func TestCLILsPrintsItsTableInOneWrite(t *testing.T) {
	a, _, _ := unitApp(t)
	w := &countingWriter{}
	a.stdout = w
	var list []proto.PaneInfo
	for _, id := range []string{"p1", "p2", "p3"} {
		list = append(list, proto.PaneInfo{ID: id, Name: "sh", Kind: "shell", State: "running", Attention: "idle", Cwd: "/tmp", Argv: []string{"sh"}})
	}
	if err := printTable(a, list); err != nil {
		t.Fatal(err)
	}
	if w.writes != 1 || strings.Count(w.String(), "\n") != 4 {
		t.Fatalf("ls made %d writes for %q; want the whole table in one", w.writes, w.String())
	}
}

// TestCLIOneShotCommandsRunOnOneProcessor pins issue 12 (CLI cost): a
// command that sends a request or two and exits paid for a second
// processor it never used (more threads, wake-ups and context switches:
// 26% of an ls's CPU). The UI, attach and the host itself keep every
// processor.
func TestCLIOneShotCommandsRunOnOneProcessor(t *testing.T) {
	for _, args := range [][]string{{"ls"}, {"capture", "p1", "--scrollback", "10000"}, {"new", "--", "true"},
		{"wait", "p1", "--exit"}, {"send-keys", "p1", "Enter"}, {"hook", "claude"}, {"host", "status"}, {"host", "stop", "--force"}} {
		if !oneShot(args) {
			t.Errorf("clowder %s runs on every processor; want one", strings.Join(args, " "))
		}
	}
	for _, args := range [][]string{nil, {"--version"}, {"attach", "p1"}, {"host"}, {"host", "--foreground"}, {"demo"}} {
		if oneShot(args) {
			t.Errorf("clowder %s runs on one processor; it needs them all", strings.Join(args, " "))
		}
	}
}
