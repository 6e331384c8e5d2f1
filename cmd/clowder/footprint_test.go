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
