//go:build linux

package main

// End-to-end tests of the real binary against a real host: built once in
// TestMain, each test with its own runtime, state and config paths under
// a short /tmp directory (sun_path is about 108 bytes). Every process a
// test starts (the host, panes, their children) inherits a marker in its
// environment, so the cleanup proves none of them survives by scanning
// /proc for it.

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"clowder/supervisor"
	"clowder/supervisor/proto"
)

// e2eBinary is the clowder binary TestMain built, "" if the build failed.
var e2eBinary string

func TestMain(m *testing.M) {
	switch filepath.Base(os.Args[0]) { // run as a fake agent, not as tests
	case fakeClaudeName:
		os.Exit(fakeClaude(os.Args[1:])) // e2e_fakeclaude_test.go
	case fakeCodexName:
		os.Exit(fakeCodex(os.Args[1:])) // e2e_fakecodex_test.go
	}
	if os.Getenv(fakeKeysEnv) != "" {
		os.Exit(fakeKeys()) // re-executed as a fake agent, not as tests
	}
	if os.Getenv(fakeStreamEnv) != "" {
		os.Exit(fakeStream()) // e2e_upgrade_test.go
	}
	if os.Getenv(fakePasteEnv) != "" {
		os.Exit(fakePaste())
	}
	if os.Getenv(fakeDeafEnv) != "" {
		os.Exit(fakeDeaf())
	}
	if os.Getenv(fakePasteHoldEnv) != "" {
		os.Exit(fakePasteHold()) // e2e_trial6_test.go
	}
	dir, err := os.MkdirTemp("", "clowder-e2e-bin-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	bin := filepath.Join(dir, "clowder")
	build := exec.Command("go", "build", "-o", bin, ".")
	build.Stderr = os.Stderr
	if err := build.Run(); err == nil {
		e2eBinary = bin
	} else {
		fmt.Fprintln(os.Stderr, "e2e: building clowder failed:", err)
	}
	code := m.Run()
	_ = os.RemoveAll(dir) // best effort: a temp dir
	os.Exit(code)
}

// e2eEnv is one test's isolated clowder world.
type e2eEnv struct {
	t    *testing.T
	bin  string // the clowder binary to run (e2eBinary unless a test built its own)
	dir  string
	mark string // CLOWDER_E2E_MARK value every started process carries
	env  []string
}

// newE2E isolates a test and stops its host (proving nothing survives)
// at cleanup.
func newE2E(t *testing.T) *e2eEnv {
	t.Helper()
	if e2eBinary == "" {
		t.Fatal("the clowder binary did not build (see TestMain output)")
	}
	dir, err := os.MkdirTemp("/tmp", "clwe-")
	if err != nil {
		t.Fatal(err)
	}
	e := &e2eEnv{t: t, bin: e2eBinary, dir: dir, mark: filepath.Base(dir)}
	e.env = append(isolatedEnv(os.Environ(), dir), "CLOWDER_E2E_MARK="+e.mark)
	t.Cleanup(e.cleanup)
	return e
}

// isolatedEnv is env without any CLOWDER_* or XDG_* variable or
// TMUX_TMPDIR of the user, and with clowder's paths, the XDG base dirs and
// tmux's socket dir under dir, so that no user's config, host, state,
// worktree dir or tmux server is ever used by a test, and no tmux socket
// outlives the test's dir.
func isolatedEnv(env []string, dir string) []string {
	out := make([]string, 0, len(env)+9)
	for _, kv := range env {
		if !strings.HasPrefix(kv, "CLOWDER_") && !strings.HasPrefix(kv, "XDG_") && !strings.HasPrefix(kv, "TMUX_TMPDIR=") {
			out = append(out, kv)
		}
	}
	return append(out, "TMUX_TMPDIR="+dir, "CLOWDER_RUNTIME_DIR="+dir+"/run", "CLOWDER_STATE_DIR="+dir+"/state",
		"CLOWDER_CONFIG="+dir+"/config.toml", "XDG_RUNTIME_DIR="+dir+"/xdg/run",
		"XDG_STATE_HOME="+dir+"/xdg/state", "XDG_CONFIG_HOME="+dir+"/xdg/config",
		"XDG_DATA_HOME="+dir+"/xdg/data", "XDG_CACHE_HOME="+dir+"/xdg/cache")
}

// cleanup stops the host with --force and proves every marked process
// (host, panes, grandchildren) is gone.
func (e *e2eEnv) cleanup() {
	e.t.Helper()
	// Never Fatal here: whatever happens, the processes are killed below.
	if out, err := e.command(context.Background(), "host", "stop", "--force").CombinedOutput(); err != nil {
		e.t.Errorf("host stop --force: %v: %s", err, out)
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		alive := markedProcs(e.mark)
		if len(alive) == 0 {
			break
		}
		if time.Now().After(deadline) {
			e.t.Errorf("processes still alive after host stop --force: %v", describeProcs(alive))
			for _, pid := range alive {
				_ = syscall.Kill(pid.PID, syscall.SIGKILL) // do not leak into other tests
			}
			break
		}
		time.Sleep(20 * time.Millisecond) // polling a condition with a deadline
	}
	_ = os.RemoveAll(e.dir) // best effort: temp dir
}

// describeProcs names each process by pid and command line, so that a
// survivor says what it is (a host started behind the test's back, a TUI
// still quitting...).
func describeProcs(ids []supervisor.Identity) []string {
	var out []string
	for _, id := range ids {
		b, _ := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", id.PID))
		out = append(out, fmt.Sprintf("%d %q", id.PID, strings.TrimSpace(strings.ReplaceAll(string(b), "\x00", " "))))
	}
	return out
}

// markedProcs lists live (non-zombie) processes whose environment holds
// the marker, by identity.
func markedProcs(mark string) []supervisor.Identity {
	ents, _ := os.ReadDir("/proc")
	want := []byte("\x00CLOWDER_E2E_MARK=" + mark + "\x00")
	var ids []supervisor.Identity
	for _, ent := range ents {
		var pid int
		if _, err := fmt.Sscanf(ent.Name(), "%d", &pid); err != nil || pid == os.Getpid() {
			continue
		}
		env, err := os.ReadFile("/proc/" + ent.Name() + "/environ")
		if err != nil || !bytes.Contains(append(append([]byte{0}, env...), 0), want) {
			continue
		}
		if id, err := supervisor.ReadIdentity(pid); err == nil { // zombies count as dead
			ids = append(ids, id)
		}
	}
	return ids
}

// command builds a clowder command in the test's world.
func (e *e2eEnv) command(ctx context.Context, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, e.bin, args...)
	cmd.Env = e.env
	cmd.Dir = e.dir
	return cmd
}

// run runs clowder to completion (30 s at most).
func (e *e2eEnv) run(args ...string) (stdout, stderr string, code int) {
	e.t.Helper()
	return e.runStdin(nil, args...)
}

// runStdin runs clowder to completion (30 s at most) with stdin.
func (e *e2eEnv) runStdin(stdin []byte, args ...string) (stdout, stderr string, code int) {
	e.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := e.command(ctx, args...)
	if stdin != nil {
		cmd.Stdin = bytes.NewReader(stdin)
	}
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	if ctx.Err() != nil {
		e.t.Fatalf("clowder %v: still running after 30s", args)
	}
	if err != nil && cmd.ProcessState == nil {
		e.t.Fatalf("clowder %v: %v", args, err)
	}
	return out.String(), errb.String(), cmd.ProcessState.ExitCode()
}

// must runs clowder and fails the test unless it exits 0.
func (e *e2eEnv) must(args ...string) string {
	e.t.Helper()
	out, errOut, code := e.run(args...)
	if code != 0 {
		e.t.Fatalf("clowder %v: exit %d: %s", args, code, errOut)
	}
	return out
}

// panes returns `ls --json`.
func (e *e2eEnv) panes() []proto.PaneInfo {
	e.t.Helper()
	var list []proto.PaneInfo
	if err := json.Unmarshal([]byte(e.must("ls", "--json")), &list); err != nil {
		e.t.Fatal(err)
	}
	return list
}

// pane returns one pane from `ls --json`, failing if it is not listed.
func (e *e2eEnv) pane(id string) proto.PaneInfo {
	e.t.Helper()
	for _, p := range e.panes() {
		if p.ID == id {
			return p
		}
	}
	e.t.Fatalf("pane %s not in clowder ls", id)
	return proto.PaneInfo{}
}

// eventually polls cond until it holds, failing after d.
func (e *e2eEnv) eventually(d time.Duration, what string, cond func() bool) {
	e.t.Helper()
	deadline := time.Now().Add(d)
	for !cond() {
		if time.Now().After(deadline) {
			e.t.Fatalf("%s: not within %s", what, d)
		}
		time.Sleep(20 * time.Millisecond) // polling a condition with a deadline
	}
}
