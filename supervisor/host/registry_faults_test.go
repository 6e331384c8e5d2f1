package host

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"clowder/persist"
	"clowder/supervisor/proto"
)

// Issue 10 §5, "the registry": whatever agents.json holds, the host
// starts and serves. A file it cannot read as a registry is moved aside
// whole (its bytes kept) and replaced by a good one at the first save; a
// file from a newer clowder is left byte for byte, and never written.
func TestHostStartsAndServesOnAnyAgentsJSON(t *testing.T) {
	good := `{"schema_version": 1, "panes": [{"id": "p1", "name": "a", "kind": "run", "argv": ["true"], "cwd": "/", "created": "2026-01-01T00:00:00Z", "state": "exited", "size": {"cols": 80, "rows": 24}, "restart": "never", "timeouts": {}}]}`
	cases := []struct {
		name, content string
		newer         bool
	}{
		{"empty", "", false},
		{"truncated", good[:len(good)/2], false},
		{"garbage", "\x00\xff\x13garbage\n{{{", false},
		{"a list", "[]", false},
		{"no version", `{"panes": []}`, false},
		{"future schema", strings.Replace(good, `"schema_version": 1`, `"schema_version": 99`, 1), true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			th := newTestHost(t)
			path := th.paths.AgentsFile()
			if err := os.WriteFile(path, []byte(tc.content), 0o600); err != nil {
				t.Fatal(err)
			}
			th.serve(persist.DefaultConfig())
			c := th.dial()
			p := th.spawnFake(c, "sleep")
			if l := c.call(&proto.ListReq{}).(*proto.PaneListReply); len(l.Panes) != 1 || l.Panes[0].ID != p.ID {
				t.Fatalf("the host lists %s; want the new pane alone", ids(l.Panes))
			}
			st := c.call(&proto.HostStatusReq{}).(*proto.HostInfoReply)
			if !strings.Contains(st.Registry, path) {
				t.Errorf("host status registry %q; want the file named", st.Registry)
			}
			if tc.newer {
				assertBytes(t, path, tc.content)
				return
			}
			if recs := th.registry().Panes; len(recs) != 1 || recs[0].ID != p.ID {
				t.Fatalf("agents.json after a spawn: %+v; want the new pane", recs)
			}
			moved, _ := filepath.Glob(path + ".corrupt-*")
			if len(moved) != 1 {
				t.Fatalf("moved aside: %v; want one file", moved)
			}
			assertBytes(t, moved[0], tc.content)
		})
	}
}

// assertBytes fails unless path holds exactly want.
func assertBytes(t *testing.T, path, want string) {
	t.Helper()
	if got, err := os.ReadFile(path); err != nil || string(got) != want {
		t.Fatalf("%s = %q, %v; want %q", path, got, err, want)
	}
}

// Issue 10 §5, "the registry": a full disk during the host's writes
// leaves agents.json as it was, the host serves on and says so in host
// status, and its next save after space comes back writes every pane.
func TestHostOnAFullDiskKeepsAgentsJSONAndServes(t *testing.T) {
	th := newTestHost(t)
	th.paths.StateDir = mountTmpfs(t, "256k")
	th.serve(persist.DefaultConfig())
	c := th.dial()
	first := th.spawnFake(c, "sleep")
	before := readOrEmpty(th.paths.AgentsFile())
	filler := fillDisk(t, th.paths.StateDir)
	for range 3 {
		th.spawnFake(c, "sleep")
	}
	if got := readOrEmpty(th.paths.AgentsFile()); got != before {
		t.Fatalf("agents.json changed on a full disk:\n%s\nwas:\n%s", got, before)
	}
	st := c.call(&proto.HostStatusReq{}).(*proto.HostInfoReply)
	if !strings.Contains(st.Registry, "no space left on device") {
		t.Fatalf("host status registry %q; want the full disk reported", st.Registry)
	}
	if err := os.Remove(filler); err != nil {
		t.Fatal(err)
	}
	c.call(&proto.RenameReq{Pane: first.ID, Name: "after-space"})
	if recs := th.registry().Panes; len(recs) != 4 {
		t.Fatalf("agents.json after space came back holds %d panes, want 4", len(recs))
	}
	if st := c.call(&proto.HostStatusReq{}).(*proto.HostInfoReply); st.Registry != "" {
		t.Fatalf("host status registry %q after a good save; want it clear", st.Registry)
	}
}

// fillDisk writes a filler file into dir until the filesystem is full and
// returns its path.
func fillDisk(t *testing.T, dir string) string {
	t.Helper()
	path := filepath.Join(dir, "filler")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = f.Close() }()
	chunk := make([]byte, 4096)
	for i := 0; ; i++ {
		if _, err := f.Write(chunk); err != nil {
			if !errors.Is(err, syscall.ENOSPC) {
				t.Fatalf("fill %s: %v, want ENOSPC", dir, err)
			}
			return path
		}
		if i > 1<<16 {
			t.Fatalf("fill %s: still not full after 256 MiB; is it really a small tmpfs?", dir)
		}
	}
}
