//go:build linux

package client

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// The foreign listener: the test binary re-executed (as root) with
// CLOWDER_TEST_FOREIGN set to a socket path binds it, drops to uid 65534,
// then listens, so the socket file is root's but SO_PEERCRED names 65534:
// a host impersonated by another user. It prints READY, accepts one
// connection and prints how many bytes arrived before EOF.
const foreignListenerEnv = "CLOWDER_TEST_FOREIGN"

// nobodyUID is the uid the foreign listener runs as.
const nobodyUID = 65534

func init() {
	if path := os.Getenv(foreignListenerEnv); path != "" {
		os.Exit(foreignListener(path))
	}
}

func foreignListener(path string) int {
	fd, err := unix.Socket(unix.AF_UNIX, unix.SOCK_STREAM, 0)
	if err == nil {
		err = unix.Bind(fd, &unix.SockaddrUnix{Name: path})
	}
	if err == nil {
		err = syscall.Setgid(nobodyUID)
	}
	if err == nil {
		err = syscall.Setuid(nobodyUID)
	}
	if err == nil {
		err = unix.Listen(fd, 1)
	}
	if err != nil {
		fmt.Println("ERROR", err)
		return 1
	}
	fmt.Println("READY")
	nfd, _, err := unix.Accept(fd)
	if err != nil {
		fmt.Println("ERROR", err)
		return 1
	}
	total := 0
	buf := make([]byte, 4096)
	for {
		n, err := unix.Read(nfd, buf)
		if n <= 0 || err != nil {
			break
		}
		total += n
	}
	fmt.Println("GOT", total)
	return 0
}

// recordingListener listens on path as this user and counts the
// connections it accepts; each is closed after its first read, so a
// client that sends a hello fails at once instead of waiting.
func recordingListener(t *testing.T, path string) *atomic.Int32 {
	t.Helper()
	ln, err := net.Listen("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	var accepted atomic.Int32
	done := make(chan struct{})
	go func() { // ends when the listener closes at cleanup
		defer close(done)
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			accepted.Add(1)
			_, _ = c.Read(make([]byte, 64)) // a hello, if the client sends one
			_ = c.Close()
		}
	}()
	t.Cleanup(func() { _ = ln.Close(); <-done })
	return &accepted
}

// privateRuntimeDir makes a 0700 runtime dir under a short /tmp path.
func privateRuntimeDir(t *testing.T) string {
	t.Helper()
	base, err := os.MkdirTemp("/tmp", "clt")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.RemoveAll(base) })
	dir := filepath.Join(base, "run")
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	return dir
}

// requireRoot skips a test that needs a second uid.
func requireRoot(t *testing.T) {
	t.Helper()
	if os.Getuid() != 0 {
		t.Skip("needs root to act as another user (chown, setuid); run the tests as root to cover it")
	}
}

// TestClientRefusesAnUntrustedRuntimeDir pins issue 7 §5: another local
// user pre-created /tmp/clowder-<uid> with a listening socket, and
// `clowder new` connected and sent its whole environment. The client now
// checks the runtime dir and the socket file before it connects at all.
func TestClientRefusesAnUntrustedRuntimeDir(t *testing.T) {
	tests := []struct {
		name  string
		root  bool
		spoil func(t *testing.T, dir, sock string)
		want  string // in the error, after the path
	}{
		{"group and other may enter", false, func(t *testing.T, dir, _ string) { chmod(t, dir, 0o755) }, "chmod 700"},
		{"dir of another user", true, func(t *testing.T, dir, _ string) { chown(t, dir, nobodyUID) }, "owned by uid 65534"},
		{"socket of another user", true, func(t *testing.T, _, sock string) { chown(t, sock, nobodyUID) }, "owned by uid 65534"},
		{"dir is a symlink", false, func(t *testing.T, dir, _ string) {
			if err := os.Rename(dir, dir+".real"); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(dir+".real", dir); err != nil {
				t.Fatal(err)
			}
		}, "is a symbolic link"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.root {
				requireRoot(t)
			}
			dir := privateRuntimeDir(t)
			sock := filepath.Join(dir, "host.sock")
			accepted := recordingListener(t, sock)
			tt.spoil(t, dir, sock)
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			c, err := Dial(ctx, sock)
			if err == nil {
				_ = c.Close()
			}
			if !errors.Is(err, ErrUntrustedHost) || !strings.Contains(err.Error(), tt.want) ||
				!strings.Contains(err.Error(), filepath.Base(filepath.Dir(dir))) {
				t.Errorf("Dial = %v; want a refusal naming the path and %q", err, tt.want)
			}
			if n := accepted.Load(); n != 0 {
				t.Errorf("the client connected %d time(s) to a socket it should not trust", n)
			}
		})
	}
}

// TestClientRefusesAHostRunningAsAnotherUser pins issue 7 §5 for a
// socket file that looks right (ours, in our private dir) but whose
// listening process runs as another user: SO_PEERCRED says so, and the
// client sends nothing.
func TestClientRefusesAHostRunningAsAnotherUser(t *testing.T) {
	requireRoot(t)
	o := newOracle(t)
	dir := privateRuntimeDir(t)
	sock := filepath.Join(dir, "host.sock")
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = o.Env(foreignListenerEnv + "=" + sock)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	lines := bufio.NewScanner(out)
	if !lines.Scan() || lines.Text() != "READY" {
		t.Fatalf("foreign listener: %q", lines.Text())
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	c, err := Dial(ctx, sock)
	if err == nil {
		_ = c.Close()
	}
	if !errors.Is(err, ErrUntrustedHost) || !strings.Contains(err.Error(), "uid 65534") || !strings.Contains(err.Error(), sock) {
		t.Errorf("Dial = %v; want a refusal naming %s and uid 65534", err, sock)
	}
	if !lines.Scan() || lines.Text() != "GOT 0" {
		t.Errorf("the listener of another uid received %q; want GOT 0 (nothing sent)", lines.Text())
	}
}

func chmod(t *testing.T, path string, mode os.FileMode) {
	t.Helper()
	if err := os.Chmod(path, mode); err != nil {
		t.Fatal(err)
	}
}

func chown(t *testing.T, path string, uid int) {
	t.Helper()
	if err := os.Lchown(path, uid, uid); err != nil {
		t.Fatal(err)
	}
}
