package persist

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
)

// crashAtEnv names the step of writeAtomic at which the crashwrite helper
// SIGKILLs itself.
const crashAtEnv = "PERSIST_CRASH_AT"

// faultRounds is how many times a fault-injection test repeats: fast in
// `make test`, full under `make faults` (CLOWDER_FAULTS=full).
func faultRounds(fast, full int) int {
	if os.Getenv("CLOWDER_FAULTS") == "full" {
		return full
	}
	return fast
}

// crashWrite is the helper process of the crash test: it writes
// newerRegistry over path, SIGKILLing itself after step at.
func crashWrite(path, at string) int {
	data, err := json.MarshalIndent(newerRegistry(), "", "  ")
	if err != nil {
		return 2
	}
	ops := systemOps()
	ops.step = func(name string) {
		if name == at {
			_ = syscall.Kill(os.Getpid(), syscall.SIGKILL)
		}
	}
	if err := writeAtomic(ops, path, append(data, '\n'), 0o600, withBackup); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 3 // the step never came
}

// newerRegistry is sampleRegistry with a third pane: the "new" file.
func newerRegistry() *Registry {
	r := sampleRegistry()
	r.SchemaVersion = RegistryVersion
	r.Put(PaneRecord{ID: "p3", Name: "new", Kind: KindRun, Argv: []string{"true"}, State: StateRunning})
	return r
}

// Issue 10 §5, "the registry": a writer SIGKILLed after any step of the
// atomic write leaves agents.json as the old file or the new one, never
// empty or partial; .bak stays loadable; the next start removes the temp
// files it left; and a save after that works.
func TestWriterKilledAtEachStepLeavesOldOrNewFile(t *testing.T) {
	for round := range faultRounds(1, 20) {
		for _, step := range writeSteps {
			t.Run(step+"/"+strconv.Itoa(round), func(t *testing.T) { crashAt(t, step) })
		}
	}
}

// crashAt runs one crash of the writer at step and checks what is left.
func crashAt(t *testing.T, step string) {
	dir := t.TempDir()
	path := filepath.Join(dir, AgentsFileName)
	for range 2 { // so that .bak exists too
		if err := sampleRegistry().Save(path); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), helperEnv+"=crashwrite", helperLockEnv+"="+path, crashAtEnv+"="+step)
	out, err := cmd.CombinedOutput()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL {
		t.Fatalf("writer = %v (%s); want it SIGKILLed at %s", err, out, step)
	}
	got := loadCount(t, path)
	if want := map[bool]int{false: 2, true: 3}[step == "renamed" || step == "dir-synced"]; got != want {
		t.Fatalf("after a crash at %s agents.json holds %d panes, want %d", step, got, want)
	}
	if n := loadCount(t, path+BackupSuffix); n != 2 {
		t.Fatalf("after a crash at %s agents.json.bak holds %d panes, want 2", step, n)
	}
	if _, err := RemoveStaleTemps(path, 0); err != nil {
		t.Fatal(err)
	}
	assertNames(t, dir, AgentsFileName, AgentsFileName+BackupSuffix)
	if err := newerRegistry().Save(path); err != nil || loadCount(t, path) != 3 {
		t.Fatalf("save after the crash: %v", err)
	}
}

// loadCount loads a registry and returns its number of panes.
func loadCount(t *testing.T, path string) int {
	t.Helper()
	r, err := LoadRegistry(path)
	if err != nil {
		t.Fatalf("%s no longer loads: %v", path, err)
	}
	return len(r.Panes)
}
