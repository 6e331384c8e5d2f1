package persist

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// docFile is one of persist's versioned files, seen through its public API.
type docFile struct {
	name string
	load func(path string) error
	save func(path string) error
	// missing checks that loading a missing file gives "no state yet".
	missing func(t *testing.T, path string)
}

func docFiles() []docFile {
	return []docFile{
		{
			name: AgentsFileName,
			load: func(p string) error { _, err := LoadRegistry(p); return err },
			save: func(p string) error { return sampleRegistry().Save(p) },
			missing: func(t *testing.T, p string) {
				r, err := LoadRegistry(p)
				if err != nil || r == nil || len(r.Panes) != 0 || r.SchemaVersion != RegistryVersion {
					t.Errorf("LoadRegistry(missing) = %+v, %v; want an empty registry and no error", r, err)
				}
			},
		},
		{
			name: LayoutFileName,
			load: func(p string) error { _, err := LoadLayout(p, nil); return err },
			save: func(p string) error { return SaveLayout(p, json.RawMessage(`{"split":"h"}`)) },
			missing: func(t *testing.T, p string) {
				l, err := LoadLayout(p, nil)
				if err != nil || l != nil {
					t.Errorf("LoadLayout(missing) = %s, %v; want nil, nil", l, err)
				}
			},
		},
	}
}

func TestMissingFileIsNoStateYet(t *testing.T) {
	for _, f := range docFiles() {
		t.Run(f.name, func(t *testing.T) {
			dir := t.TempDir()
			f.missing(t, filepath.Join(dir, f.name))
			assertNames(t, dir) // nothing created
		})
	}
}

// corruptContents are file contents that must be moved aside, for any
// versioned file.
var corruptContents = []struct{ name, content string }{
	{"empty", ""},
	{"truncated", `{"schema_version": 1, "panes": [{"id": "p1", "na`},
	{"garbage", "\x00\x13garbage\xff not json"},
	{"top-level array", `[1, 2]`},
	{"null", `null`},
	{"no schema_version", `{"panes": []}`},
	{"schema_version is a string", `{"schema_version": "1"}`},
	{"schema_version zero", `{"schema_version": 0}`},
	{"trailing garbage", `{"schema_version": 1} }`},
}

// corruptNamePattern matches <path>.corrupt-<UTC time>[-N].
func corruptNamePattern(path string) *regexp.Regexp {
	return regexp.MustCompile("^" + regexp.QuoteMeta(path) + `\.corrupt-\d{8}T\d{6}Z(-\d+)?$`)
}

// assertMovedAside checks that err reports a corrupt file moved aside with
// its content intact.
func assertMovedAside(t *testing.T, err error, path, content string) *CorruptError {
	t.Helper()
	var ce *CorruptError
	if !errors.As(err, &ce) {
		t.Fatalf("err = %v (%T), want *CorruptError", err, err)
	}
	if ce.Path != path || !corruptNamePattern(path).MatchString(ce.MovedTo) || ce.MoveErr != nil {
		t.Errorf("CorruptError = %+v; want Path %s moved to %s.corrupt-<time>", ce, path, path)
	}
	if !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), "moved it to "+ce.MovedTo) {
		t.Errorf("message %q should name the file and where it went", err)
	}
	if got := readFile(t, ce.MovedTo); got != content {
		t.Errorf("moved file holds %q, want the original %q", got, content)
	}
	if got := readFile(t, path); got != "<missing>" {
		t.Errorf("original path still holds %q; it must be moved, not replaced", got)
	}
	return ce
}

func TestCorruptFileIsMovedAsideAndReported(t *testing.T) {
	for _, f := range docFiles() {
		for _, c := range corruptContents {
			t.Run(f.name+"/"+c.name, func(t *testing.T) {
				dir := t.TempDir()
				path := filepath.Join(dir, f.name)
				writeFile(t, path, c.content)
				ce := assertMovedAside(t, f.load(path), path, c.content)
				if ce.Backup != "" {
					t.Errorf("Backup = %q with no .bak present", ce.Backup)
				}
				assertNames(t, dir, filepath.Base(ce.MovedTo))
			})
		}
	}
}

func TestCorruptFileWrongShapeIsMovedAside(t *testing.T) {
	tests := []struct {
		name, file, content string
		load                func(string) error
	}{
		{"registry panes is a string", AgentsFileName, `{"schema_version":1,"panes":"p1"}`, loadRegistryErr},
		{"registry kind is a number", AgentsFileName, `{"schema_version":1,"panes":[{"id":"a","kind":1,"state":"running"}]}`, loadRegistryErr},
		{"registry unknown kind", AgentsFileName, `{"schema_version":1,"panes":[{"id":"a","kind":"robot","state":"running"}]}`, loadRegistryErr},
		{"registry missing state", AgentsFileName, `{"schema_version":1,"panes":[{"id":"a","kind":"agent"}]}`, loadRegistryErr},
		{"registry duplicate id", AgentsFileName, `{"schema_version":1,"panes":[{"id":"a","kind":"agent","state":"running"},{"id":"a","kind":"shell","state":"running"}]}`, loadRegistryErr},
		{"registry pid_start negative", AgentsFileName, `{"schema_version":1,"panes":[{"id":"a","kind":"agent","state":"running","pid_start":-5}]}`, loadRegistryErr},
		{"registry timeout as nanoseconds", AgentsFileName, `{"schema_version":1,"panes":[{"id":"a","kind":"run","state":"running","timeouts":{"overall":3}}]}`, loadRegistryErr},
		{"layout missing", LayoutFileName, `{"schema_version":1}`, loadLayoutErr},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), tc.file)
			writeFile(t, path, tc.content)
			assertMovedAside(t, tc.load(path), path, tc.content)
		})
	}
}

func loadRegistryErr(p string) error { _, err := LoadRegistry(p); return err }
func loadLayoutErr(p string) error   { _, err := LoadLayout(p, nil); return err }

// The last good copy the error points at is a file no save touches:
// .bak is replaced by the second save of any later writer (a TUI, a host
// started after the one that found the corruption), so it is kept as
// <path>.lastgood-<UTC time> too.
func TestCorruptErrorPointsAtALastGoodCopyNoSaveReplaces(t *testing.T) {
	for _, f := range docFiles() {
		t.Run(f.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), f.name)
			if err := f.save(path); err != nil {
				t.Fatal(err)
			}
			if err := f.save(path); err != nil { // now path.bak is a good copy
				t.Fatal(err)
			}
			good := readFile(t, path+BackupSuffix)
			writeFile(t, path, `{"schema_version": 1, "pan`)
			ce := assertMovedAside(t, f.load(path), path, `{"schema_version": 1, "pan`)
			pattern := "^" + regexp.QuoteMeta(path) + `\.lastgood-\d{8}T\d{6}Z(-\d+)?$`
			if !regexp.MustCompile(pattern).MatchString(ce.Backup) || !strings.Contains(ce.Error(), "last good copy is "+ce.Backup) {
				t.Fatalf("error %q should point at %s.lastgood-<time>", ce, path)
			}
			for range 2 { // a later writer, unaware of the corruption
				if err := f.save(path); err != nil {
					t.Fatal(err)
				}
			}
			if got := readFile(t, ce.Backup); got != good {
				t.Errorf("the last good copy now holds %q, want %q", got, good)
			}
			if err := f.load(ce.Backup); err != nil {
				t.Errorf("the last good copy should load: %v", err)
			}
		})
	}
}

func TestCorruptTwiceInOneSecondKeepsBoth(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, AgentsFileName)
	var moved []string
	for _, content := range []string{"first", "second"} {
		writeFile(t, path, content)
		moved = append(moved, assertMovedAside(t, loadRegistryErr(path), path, content).MovedTo)
	}
	if moved[0] == moved[1] {
		t.Fatalf("both corrupt files moved to %s", moved[0])
	}
	assertNames(t, dir, filepath.Base(moved[0]), filepath.Base(moved[1]))
}

func TestNewerSchemaIsRefusedAndLeftInPlace(t *testing.T) {
	for _, f := range docFiles() {
		t.Run(f.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, f.name)
			content := `{"schema_version": 7, "panes": "a shape from the future"}`
			writeFile(t, path, content)
			err := f.load(path)
			var ne *NewerSchemaError
			if !errors.As(err, &ne) || ne.Found != 7 || ne.Supported != 1 || ne.Path != path {
				t.Fatalf("err = %v, want *NewerSchemaError{Found 7, Supported 1, Path %s}", err, path)
			}
			for _, want := range []string{path, "schema_version 7", "up to 1", "upgrade clowder"} {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("message %q lacks %q", err, want)
				}
			}
			if got := readFile(t, path); got != content {
				t.Errorf("file changed to %q", got)
			}
			// A save from this (older) build must not overwrite it either.
			if err := f.save(path); !errors.As(err, &ne) {
				t.Errorf("save over a newer file: %v, want *NewerSchemaError", err)
			}
			if got := readFile(t, path); got != content {
				t.Errorf("file changed by the refused save to %q", got)
			}
			assertNames(t, dir, f.name)
		})
	}
}

func TestUnreadableFileIsAnErrorNotCorruption(t *testing.T) {
	for _, f := range docFiles() {
		t.Run(f.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, f.name)
			if err := os.Mkdir(path, 0o700); err != nil { // reading a dir fails with EISDIR
				t.Fatal(err)
			}
			err := f.load(path)
			var ce *CorruptError
			if err == nil || errors.As(err, &ce) || !strings.Contains(err.Error(), path) {
				t.Fatalf("err = %v, want a read error naming %s that is not corruption", err, path)
			}
			assertNames(t, dir, f.name) // not moved
		})
	}
}

func TestSaveThenLoadLayoutRoundTrips(t *testing.T) {
	path := filepath.Join(t.TempDir(), LayoutFileName)
	doc := json.RawMessage(`{"version":3,"root":{"split":"v","ratio":0.5,"a":"p1","b":"p2"},"focus":"p2"}`)
	if err := SaveLayout(path, doc); err != nil {
		t.Fatal(err)
	}
	got, err := LoadLayout(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	var want, have any
	_ = json.Unmarshal(doc, &want)
	_ = json.Unmarshal(got, &have)
	if wb, _ := json.Marshal(want); string(wb) != mustMarshal(t, have) {
		t.Errorf("layout = %s, want %s", got, doc)
	}
	if !strings.Contains(readFile(t, path), `"schema_version": 1`) {
		t.Errorf("layout.json lacks schema_version:\n%s", readFile(t, path))
	}
}

func TestSaveLayoutRefusesInvalidJSON(t *testing.T) {
	for _, doc := range []string{"", "{not json"} {
		path := filepath.Join(t.TempDir(), LayoutFileName)
		err := SaveLayout(path, json.RawMessage(doc))
		if err == nil || !strings.Contains(err.Error(), "save layout "+path) {
			t.Errorf("SaveLayout(%q) = %v, want an error naming the file", doc, err)
		}
		if got := readFile(t, path); got != "<missing>" {
			t.Errorf("SaveLayout(%q) wrote %q", doc, got)
		}
	}
}

func mustMarshal(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// Regression: a layout.json that parses but that its reader finds invalid
// was reported and then replaced by the next save with no copy kept. The
// caller's check now makes it corrupt, so it is moved aside.
func TestLayoutFailingTheCallersCheckIsMovedAside(t *testing.T) {
	path := filepath.Join(t.TempDir(), LayoutFileName)
	content := `{"schema_version":1,"layout":{"ratio":-5}}` + "\n"
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	bad := errors.New("ratio -5 is out of range")
	_, err := LoadLayout(path, func(json.RawMessage) error { return bad })
	assertMovedAside(t, err, path, content)
	if !errors.Is(err, bad) {
		t.Errorf("err = %v, want it to wrap the check's error", err)
	}
}
