package persist

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

// sampleRegistry has one record with every field set and one minimal one.
func sampleRegistry() *Registry {
	at := time.Date(2026, 3, 1, 12, 30, 0, 0, time.UTC)
	return &Registry{Panes: []PaneRecord{
		{
			ID: "p1", Name: "fix-login", Kind: KindAgent, Adapter: "claude",
			Argv:       []string{"claude"},
			ResumeArgv: []string{"claude", "--resume", "0d9c"}, Resumable: true,
			Cwd:      "/src/app-wt/fix-login",
			Worktree: &Worktree{Repo: "/src/app", Path: "/src/app-wt/fix-login", Branch: "clowder/fix-login", Base: "main"},
			EnvKeys:  []string{"CLOWDER_PANE_ID", "ANTHROPIC_API_KEY"},
			Created:  at, PID: 4242, PIDStart: 987654321012, BootID: "6f1c-boot", PGID: 4242,
			Cgroup: "/sys/fs/cgroup/user.slice/clowder/p1", Token: "J5ZBHXW2Q3L6YKQNV4DPRMTA7E", Since: 987654320000, State: StateExited,
			Exit:     &Exit{Code: 0, Signal: 15, Reason: ExitKilled, At: at.Add(time.Hour)},
			Size:     Size{Cols: 120, Rows: 40},
			Restart:  RestartOnFailure,
			Timeouts: Timeouts{Overall: Duration(90 * time.Minute), Idle: Duration(30 * time.Second)},
		},
		{ID: "p2", Name: "shell", Kind: KindShell, Argv: []string{"bash"}, Cwd: "/src/app", Created: at, State: StateRunning},
	}}
}

func TestRegistrySaveLoadRoundTripsEveryField(t *testing.T) {
	path := filepath.Join(t.TempDir(), AgentsFileName)
	want := sampleRegistry()
	if err := want.Save(path); err != nil {
		t.Fatal(err)
	}
	got, err := LoadRegistry(path)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("round trip:\n got %+v\nwant %+v", got, want)
	}
}

func TestRegistryFileIsReadableJSON(t *testing.T) {
	path := filepath.Join(t.TempDir(), AgentsFileName)
	if err := sampleRegistry().Save(path); err != nil {
		t.Fatal(err)
	}
	text := readFile(t, path)
	for _, want := range []string{
		`"schema_version": 1`, `"kind": "agent"`, `"state": "exited"`, `"reason": "killed"`,
		`"restart": "on-failure"`, `"overall": "1h30m0s"`, `"pid_start": 987654321012`,
		`"env_keys": [`, `"branch": "clowder/fix-login"`, `"created": "2026-03-01T12:30:00Z"`,
	} {
		if !strings.Contains(text, want) {
			t.Errorf("agents.json lacks %s:\n%s", want, text)
		}
	}
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("agents.json mode %v, want 0600", fi.Mode().Perm())
	}
}

func TestEmptyRegistrySavesEmptyList(t *testing.T) {
	path := filepath.Join(t.TempDir(), AgentsFileName)
	if err := (&Registry{}).Save(path); err != nil {
		t.Fatal(err)
	}
	if got := readFile(t, path); !strings.Contains(got, `"panes": []`) {
		t.Errorf("empty registry written as %s", got)
	}
}

func TestRegistrySaveRefusesInvalidRecords(t *testing.T) {
	ok := PaneRecord{ID: "a", Kind: KindRun, State: StateRunning}
	tests := []struct {
		name    string
		mutate  func(*Registry)
		wantErr string
	}{
		{"empty id", func(r *Registry) { r.Panes[0].ID = "" }, "empty id"},
		{"duplicate id", func(r *Registry) { r.Panes = append(r.Panes, ok) }, `pane id "a" appears twice`},
		{"kind unset", func(r *Registry) { r.Panes[0].Kind = 0 }, "invalid kind 0"},
		{"state unset", func(r *Registry) { r.Panes[0].State = 0 }, "invalid state 0"},
		{"exit reason unset", func(r *Registry) { r.Panes[0].Exit = &Exit{Code: 1} }, "invalid exit reason 0"},
		{"restart out of range", func(r *Registry) { r.Panes[0].Restart = 9 }, "invalid restart policy 9"},
		{"negative size", func(r *Registry) { r.Panes[0].Size = Size{Cols: -1} }, "negative size"},
		{"env value instead of key", func(r *Registry) { r.Panes[0].EnvKeys = []string{"TOKEN=s3cret"} }, `env key "TOKEN=…"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, AgentsFileName)
			r := &Registry{Panes: []PaneRecord{ok}}
			tc.mutate(r)
			err := r.Save(path)
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) || !strings.Contains(err.Error(), "save registry "+path) {
				t.Fatalf("Save = %v, want an error naming %s with %q", err, path, tc.wantErr)
			}
			if strings.Contains(err.Error(), "s3cret") {
				t.Errorf("error %q repeats a secret value", err)
			}
			assertNames(t, dir)
		})
	}
}

func TestRegistryGetPutRemove(t *testing.T) {
	r := sampleRegistry()
	p1, ok := r.Get("p1")
	if !ok || p1.Name != "fix-login" {
		t.Fatalf("Get(p1) = %+v, %v", p1, ok)
	}
	p1.Name = "renamed"
	r.Put(p1)
	r.Put(PaneRecord{ID: "p3", Kind: KindRun, State: StateStarting})
	var ids []string
	for _, p := range r.Panes {
		ids = append(ids, p.ID+":"+p.Name)
	}
	if got := strings.Join(ids, ","); got != "p1:renamed,p2:shell,p3:" {
		t.Errorf("after Put: %s (order must be kept, replace in place)", got)
	}
	if !r.Remove("p2") || r.Remove("p2") {
		t.Error("Remove(p2) should report true once, then false")
	}
	if _, ok := r.Get("p2"); ok || len(r.Panes) != 2 {
		t.Errorf("p2 still there: %+v", r.Panes)
	}
}

func TestSaveAfterCorruptionStartsFreshWithoutTouchingMovedFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, AgentsFileName)
	writeFile(t, path, "{")
	_, err := LoadRegistry(path)
	var ce *CorruptError
	if !errors.As(err, &ce) {
		t.Fatalf("err = %v", err)
	}
	if err := sampleRegistry().Save(path); err != nil {
		t.Fatal(err)
	}
	if got := readFile(t, ce.MovedTo); got != "{" {
		t.Errorf("moved file now %q", got)
	}
	assertNames(t, dir, AgentsFileName, filepath.Base(ce.MovedTo))
}

func TestEnumsTextForms(t *testing.T) {
	type enum interface {
		String() string
		MarshalText() ([]byte, error)
	}
	tests := []struct {
		v    enum
		text string
	}{
		{KindAgent, "agent"}, {KindShell, "shell"}, {KindRun, "run"},
		{StateStarting, "starting"}, {StateRunning, "running"}, {StateExited, "exited"},
		{StateOrphaned, "orphaned"}, {StateLost, "lost"},
		{ExitCompleted, "completed"}, {ExitFailed, "failed"}, {ExitSignalled, "signalled"},
		{ExitKilled, "killed"}, {ExitTimeout, "timeout"}, {ExitIdleTimeout, "idle-timeout"}, {ExitLost, "lost"},
		{RestartNever, "never"}, {RestartOnFailure, "on-failure"}, {RestartAlways, "always"},
		{CgroupOff, "off"}, {CgroupAuto, "auto"}, {CgroupRequired, "required"},
	}
	for _, tc := range tests {
		t.Run(tc.text, func(t *testing.T) {
			b, err := tc.v.MarshalText()
			if err != nil || string(b) != tc.text || tc.v.String() != tc.text {
				t.Errorf("%#v: MarshalText = %q, %v; String = %q; want %q", tc.v, b, err, tc.v.String(), tc.text)
			}
			back := reflect.New(reflect.TypeOf(tc.v))
			if err := json.Unmarshal([]byte(`"`+tc.text+`"`), back.Interface()); err != nil {
				t.Fatal(err)
			}
			if back.Elem().Interface() != tc.v {
				t.Errorf("unmarshal %q = %v, want %v", tc.text, back.Elem(), tc.v)
			}
		})
	}
}

func TestEnumInvalidValues(t *testing.T) {
	if got := Kind(9).String(); got != "Kind(9)" {
		t.Errorf("Kind(9).String() = %q", got)
	}
	var s State
	err := s.UnmarshalText([]byte("zombie"))
	want := `unknown state "zombie" (want one of "starting", "running", "exited", "orphaned", "lost")`
	if err == nil || err.Error() != want {
		t.Errorf("UnmarshalText(zombie) = %v, want %s", err, want)
	}
}

func TestDurationTextForm(t *testing.T) {
	tests := []struct {
		name, in string
		want     time.Duration
		wantErr  bool
	}{
		{"seconds", "3s", 3 * time.Second, false},
		{"compound", "1m30s", 90 * time.Second, false},
		{"zero", "0s", 0, false},
		{"bare number", "3", 0, true},
		{"negative", "-1s", 0, true},
		{"garbage", "soon", 0, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var d Duration
			err := d.UnmarshalText([]byte(tc.in))
			if (err != nil) != tc.wantErr || d.Std() != tc.want {
				t.Errorf("UnmarshalText(%q) = %v, %v; want %v, error %v", tc.in, d, err, tc.want, tc.wantErr)
			}
		})
	}
	if b, _ := Duration(1500 * time.Millisecond).MarshalText(); string(b) != "1.5s" {
		t.Errorf("MarshalText(1.5s) = %q", b)
	}
}

// SavePreservingBackup replaces the file but never .bak, however often it
// runs (issue 7 §4: the last good copy must survive until restored).
func TestSavePreservingBackupLeavesBakAlone(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, AgentsFileName)
	writeFile(t, path+BackupSuffix, "last good copy")
	for i := range 3 {
		r := &Registry{Panes: sampleRegistry().Panes[:1]}
		r.Panes[0].Name = fmt.Sprintf("save-%d", i)
		if err := r.SavePreservingBackup(path); err != nil {
			t.Fatal(err)
		}
	}
	if got := readFile(t, path+BackupSuffix); got != "last good copy" {
		t.Fatalf(".bak = %q after saves; want it untouched", got)
	}
	if r, err := LoadRegistry(path); err != nil || r.Panes[0].Name != "save-2" {
		t.Fatalf("agents.json = %+v, %v; want the last save", r, err)
	}
	assertNames(t, dir, AgentsFileName, AgentsFileName+BackupSuffix)
}

// SaveVolatile replaces agents.json atomically, keeping .bak as Save (or,
// asked to, leaving it as SavePreservingBackup does), and skips the
// fsyncs (issue 12, cold start: the record of a pane about to start cost a
// spawn two of them before its process could start).
func TestSaveVolatileIsAtomicWithoutSyncing(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, AgentsFileName)
	for i, keepBak := range []bool{false, false, true} {
		r := &Registry{Panes: sampleRegistry().Panes[:1]}
		r.Panes[0].Name = fmt.Sprintf("save-%d", i)
		if err := r.SaveVolatile(path, keepBak); err != nil {
			t.Fatal(err)
		}
	}
	if r, err := LoadRegistry(path); err != nil || r.Panes[0].Name != "save-2" {
		t.Fatalf("agents.json = %+v, %v; want the last save", r, err)
	}
	if r, err := LoadRegistry(path + BackupSuffix); err != nil || r.Panes[0].Name != "save-0" {
		t.Fatalf(".bak = %+v, %v; want the save before the second (the third kept .bak)", r, err)
	}
	assertNames(t, dir, AgentsFileName, AgentsFileName+BackupSuffix)
	closed, err := os.Create(filepath.Join(dir, "closed"))
	if err != nil {
		t.Fatal(err)
	}
	_ = closed.Close()
	if systemOps().sync(closed) == nil || volatileOps().sync(closed) != nil {
		t.Fatal("volatileOps must not call fsync (a closed file's Sync fails)")
	}
}

// Issue 12: every save read agents.json back and parsed all of it to
// refuse a newer schema, a third of a save's CPU, and a spawn saves
// twice. A save whose target is still the file this process wrote last
// does not read it.
func TestSaveDoesNotReadBackTheFileItWroteLast(t *testing.T) {
	path := filepath.Join(t.TempDir(), AgentsFileName)
	r := registryOf(3)
	if err := r.Save(path); err != nil {
		t.Fatal(err)
	}
	before := refuseReads.Load()
	for range 3 {
		if err := r.Save(path); err != nil {
			t.Fatal(err)
		}
	}
	if n := refuseReads.Load() - before; n != 0 {
		t.Errorf("3 saves over the file this process wrote read it back %d times, want 0", n)
	}
}

// The other side of the test above: a file anyone else put there since
// our last write (a newer clowder's rename, even of the same size; an
// edit in place; a chmod) is read and checked as before.
func TestSaveChecksAFileChangedSinceItsOwnWrite(t *testing.T) {
	newerSameSize := func(t *testing.T, path string) string {
		t.Helper()
		old := readFile(t, path)
		s := strings.Replace(old, `"schema_version": 1`, `"schema_version": 9`, 1)
		if len(s) != len(old) {
			t.Fatal("the newer file must have the old one's size")
		}
		return s
	}
	for _, tc := range []struct {
		name   string
		change func(t *testing.T, path string)
		want   string
	}{
		{"renamed over, same size", func(t *testing.T, path string) {
			writeFile(t, path+".new", newerSameSize(t, path))
			if err := os.Rename(path+".new", path); err != nil {
				t.Fatal(err)
			}
		}, "schema_version 9"},
		{"rewritten in place", func(t *testing.T, path string) {
			writeFile(t, path, `{"schema_version": 9}`)
		}, "schema_version 9"},
		{"made writable by others", func(t *testing.T, path string) {
			if err := os.Chmod(path, 0o666); err != nil {
				t.Fatal(err)
			}
		}, "lets other users change it"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), AgentsFileName)
			if err := registryOf(2).Save(path); err != nil {
				t.Fatal(err)
			}
			tc.change(t, path)
			before := readFile(t, path)
			err := registryOf(3).Save(path)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("save over a changed file: %v, want an error with %q", err, tc.want)
			}
			if got := readFile(t, path); got != before {
				t.Errorf("the refused save changed the file to %q", got)
			}
		})
	}
}

// indentJSON must write exactly what json.MarshalIndent did, so that
// agents.json and layout.json read the same to people and to every
// clowder, older or newer (issue 12: the standard indenter was 30% of a
// save's CPU).
func TestIndentJSONIsMarshalIndentByteForByte(t *testing.T) {
	values := []any{
		sampleRegistry(), registryOf(100), &Registry{Panes: []PaneRecord{}}, &Registry{},
		map[string]any{"": "", "a\"b": `x\"y\\`, "{[:,]}": []any{"{", "}", "[", "]", ":", ",", `\`, "\u2028<&>"}},
		[]any{[]any{}, map[string]any{}, []any{[]any{[]any{}}}, nil, true, 1.5e300, math.Copysign(0, -1), "é\x01\n"},
		"top-level string", 42, nil,
	}
	for i, v := range values {
		want, err := json.MarshalIndent(v, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		compact, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		if got := indentJSON(nil, compact); string(got) != string(want) {
			t.Errorf("value %d:\n got %s\nwant %s", i, got, want)
		}
	}
}

// FuzzIndentJSON holds indentJSON to json.Indent on any valid JSON in
// compact form.
func FuzzIndentJSON(f *testing.F) {
	for _, s := range []string{`{}`, `[]`, `{"a":[1,{"b":"c\"]"}],"d":{}}`, `"\\"`, `[[],[{}],null]`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		var compact, want bytes.Buffer
		if json.Compact(&compact, b) != nil {
			return
		}
		if err := json.Indent(&want, compact.Bytes(), "", "  "); err != nil {
			t.Fatal(err)
		}
		if got := indentJSON(nil, compact.Bytes()); string(got) != want.String() {
			t.Errorf("indentJSON(%q):\n got %q\nwant %q", compact.Bytes(), got, want.String())
		}
	})
}
