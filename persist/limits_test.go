package persist

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// assertTooLarge checks that err reports a file refused for its size,
// moved aside whole, with a one-line message naming it and the limit.
func assertTooLarge(t *testing.T, err error, path string, size int64, want ...string) {
	t.Helper()
	var ce *CorruptError
	if !errors.As(err, &ce) || !errors.Is(err, ErrTooLarge) {
		t.Fatalf("err = %v (%T), want a *CorruptError matching ErrTooLarge", err, err)
	}
	msg := err.Error()
	for _, w := range append(want, path, "too large", "moved it to "+ce.MovedTo) {
		if !strings.Contains(msg, w) {
			t.Errorf("message %q lacks %q", msg, w)
		}
	}
	if strings.Contains(msg, "\n") {
		t.Errorf("message %q is not one line", msg)
	}
	if fi, err := os.Stat(ce.MovedTo); err != nil || fi.Size() != size {
		t.Errorf("moved file %s: %v; want it whole (%d bytes)", ce.MovedTo, err, size)
	}
}

// Regression (issue 7 §4): a 200,000-record agents.json grew the host to
// 14.8 GB before it ever served. A file over the size cap is not read.
func TestHugeFileIsRefusedUnreadAndKept(t *testing.T) {
	for _, f := range docFiles() {
		t.Run(f.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), f.name)
			writeFile(t, path, `{"schema_version": 1, "panes": [], "layout": {}}`)
			const size = 1 << 30 // sparse: costs no disk, and would cost a GiB to read
			if err := os.Truncate(path, size); err != nil {
				t.Fatal(err)
			}
			assertTooLarge(t, f.load(path), path, size, "1.0 GiB", "MiB")
		})
	}
}

// minimalRecords is a registry of n small, valid records.
func minimalRecords(n int) string {
	var b strings.Builder
	b.WriteString(`{"schema_version":1,"panes":[`)
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"id":"p%d","kind":"run","state":"exited"}`, i)
	}
	b.WriteString("]}")
	return b.String()
}

func TestTooManyRecordsAreRefused(t *testing.T) {
	path := filepath.Join(t.TempDir(), AgentsFileName)
	if _, err := LoadRegistry(writeReg(t, path, minimalRecords(MaxRegistryRecords))); err != nil {
		t.Fatalf("%d records must load: %v", MaxRegistryRecords, err)
	}
	content := minimalRecords(MaxRegistryRecords + 1)
	_, err := LoadRegistry(writeReg(t, path, content))
	assertTooLarge(t, err, path, int64(len(content)), fmt.Sprint(MaxRegistryRecords))
}

func writeReg(t *testing.T, path, content string) string {
	t.Helper()
	writeFile(t, path, content)
	return path
}

func TestOverlongFieldsAreRefused(t *testing.T) {
	long := strings.Repeat("x", 5000)
	tests := []struct {
		name   string
		mutate func(*PaneRecord)
		want   string
	}{
		{"name", func(p *PaneRecord) { p.Name = long }, "name"},
		{"cwd", func(p *PaneRecord) { p.Cwd = "/" + long }, "cwd"},
		{"argv item", func(p *PaneRecord) { p.Argv = []string{strings.Repeat("a", 200<<10)} }, "argv"},
		{"argv count", func(p *PaneRecord) { p.Argv = make([]string, 70000) }, "argv"},
		{"env keys", func(p *PaneRecord) { p.EnvKeys = []string{long} }, "env"},
		{"worktree", func(p *PaneRecord) { p.Worktree = &Worktree{Repo: long} }, "worktree"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := sampleRegistry()
			tc.mutate(&r.Panes[0])
			path := filepath.Join(t.TempDir(), AgentsFileName)
			if err := r.Save(path); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Save = %v; want a refusal naming %s (the host must never write what it refuses to load)", err, tc.want)
			}
			content := mustMarshal(t, r)
			_, err := LoadRegistry(writeReg(t, path, content))
			assertTooLarge(t, err, path, int64(len(content)), tc.want)
		})
	}
}

func TestTrimExitedKeepsNewestAndNeverLivePanes(t *testing.T) {
	at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	rec := func(id string, s State, exitMin int) PaneRecord {
		p := PaneRecord{ID: id, Kind: KindRun, State: s}
		if exitMin >= 0 {
			p.Exit = &Exit{Reason: ExitCompleted, At: at.Add(time.Duration(exitMin) * time.Minute)}
		}
		return p
	}
	r := &Registry{Panes: []PaneRecord{
		rec("old-run", StateRunning, -1), rec("e5", StateExited, 5), rec("orph", StateOrphaned, -1),
		rec("e1", StateExited, 1), rec("lost3", StateLost, 3), rec("e9", StateExited, 9), rec("start", StateStarting, -1),
	}}
	removed := r.TrimExited(2)
	if got := strings.Join(removed, ","); got != "e1,lost3" {
		t.Errorf("removed %s, want the oldest exits e1,lost3", got)
	}
	var ids []string
	for _, p := range r.Panes {
		ids = append(ids, p.ID)
	}
	if got := strings.Join(ids, ","); got != "old-run,e5,orph,e9,start" {
		t.Errorf("kept %s; want live panes and the 2 newest exits, in creation order", got)
	}
	if removed := r.TrimExited(2); len(removed) != 0 {
		t.Errorf("a second trim removed %v", removed)
	}
}
