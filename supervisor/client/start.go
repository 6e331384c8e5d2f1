//go:build unix

// This file connects a client to the host of a runtime dir, starting one
// on demand (ARCHITECTURE.md): `EXE host --foreground` in its own session,
// stdin /dev/null, stdout and stderr appended to the host log, and a pipe
// on which the host says when it listens (EnvReadyFD), so the client dials
// once, at the right moment, and learns at once of a host that exits
// instead. Two clients racing to start a host end with one: the host takes
// a flock, the loser says "busy" and exits, and its client dials the
// winner's socket until it answers.

package client

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"clowder/persist"
	"clowder/supervisor/proto"
)

// ErrNoHost matches (errors.Is) a dial that found no host listening: the
// socket is missing or refuses connections.
var ErrNoHost = errors.New("no clowder host is running")

// ErrHostStopped matches (errors.Is) a dial or a connection that a host
// ended because it is stopping (host stop, idle exit, a signal; its
// shutting-down answer or stop notice): no host serves, and none is
// waited for. It matches ErrNoHost too.
var ErrHostStopped = fmt.Errorf("%w: the host is stopping", ErrNoHost)

// EnvReadyFD names the fd on which a host started by a client writes one
// line: HostReady once it listens, HostBusy when another host holds the
// lock; it closes the fd without a line when it fails to start.
const EnvReadyFD = "CLOWDER_HOST_READY_FD"

// The lines of the ready pipe.
const (
	HostReady = "ready"
	HostBusy  = "busy"
)

// HostStartTimeout bounds how long Connect waits for a host it started.
const HostStartTimeout = 5 * time.Second

// HandshakeTimeout bounds connecting and the handshake in Dial, whatever
// the caller's context: a host that accepted the connection (the kernel
// does that even for a stopped process) but does not answer is reported,
// never waited on forever. Generous, because a loaded machine is slow.
const HandshakeTimeout = 10 * time.Second

// Dial connects to the host listening on socketPath and runs the
// handshake. No host listening gives an error matching ErrNoHost; a
// runtime dir, socket or listening process that is not this user's alone
// gives one matching ErrUntrustedHost, before anything is sent
// (trust.go). A host that closes the connection during the handshake (it
// was dying or stopping) is dialled again until a host answers, for
// reconnectWait at most: one restarted meanwhile answers.
func Dial(ctx context.Context, socketPath string) (*Client, error) {
	return dial(ctx, socketPath, true)
}

// dial is Dial; after a handshake cut short, it waits out "no host" only
// if waitHost (Connect starts a host instead).
func dial(parent context.Context, socketPath string, waitHost bool) (*Client, error) {
	c, err := dialOnce(parent, socketPath)
	return dialRecover(parent, socketPath, waitHost, c, err)
}

// dialRecover is what Dial does after its first connection and handshake
// (c, err): no socket, a stranded host is asked to listen again
// (stranded.go); a handshake cut short, the next host is waited for. Any
// other result is returned as it is.
func dialRecover(parent context.Context, socketPath string, waitHost bool, c *Client, err error) (*Client, error) {
	if errors.Is(err, ErrHostStopped) {
		return c, err // it said so: not stranded, and nothing to wait for
	}
	if errors.Is(err, ErrNoHost) {
		c, err = dialStranded(parent, socketPath) // stranded.go
	}
	if !errors.Is(err, errHandshakeCut) {
		return c, err
	}
	ctx, cancel := context.WithTimeout(parent, reconnectWait)
	defer cancel()
	for delay := 10 * time.Millisecond; !errors.Is(err, ErrHostStopped) && (errors.Is(err, errHandshakeCut) || (waitHost && errors.Is(err, ErrNoHost))); delay = min(2*delay, 200*time.Millisecond) {
		select {
		case <-ctx.Done():
			return nil, fmt.Errorf("the clowder host at %s went away during the handshake, and none answered within %s: %w", socketPath, reconnectWait, err)
		case <-time.After(delay):
		}
		c, err = dialOnce(ctx, socketPath)
	}
	return c, err
}

// errHandshakeCut marks a handshake the host ended by closing the
// connection.
var errHandshakeCut = errors.New("the host closed the connection during the handshake")

// dialOnce is one connection and handshake of Dial.
func dialOnce(parent context.Context, socketPath string) (*Client, error) {
	return dialOnceWith(parent, socketPath, nil)
}

// dialOnceWith is dialOnce; a non-nil early frame is written in the same
// write as the hello (start_early.go).
func dialOnceWith(parent context.Context, socketPath string, early *proto.Frame) (*Client, error) {
	if err := checkSocketPath(socketPath); err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(parent, HandshakeTimeout)
	defer cancel() // New's watch of ctx ends with the handshake
	var d net.Dialer
	nc, err := d.DialContext(ctx, "unix", socketPath)
	if err != nil {
		if errors.Is(err, syscall.ENOENT) || errors.Is(err, syscall.ECONNREFUSED) {
			return nil, fmt.Errorf("%w (socket %s)", ErrNoHost, socketPath)
		}
		if errors.Is(ctx.Err(), context.DeadlineExceeded) && parent.Err() == nil {
			return nil, &NotAnsweringError{Addr: socketPath, What: "the connection", After: HandshakeTimeout}
		}
		return nil, fmt.Errorf("connect to host at %s: %w", socketPath, err)
	}
	uc := nc.(*net.UnixConn)
	if err := checkListener(uc, socketPath); err != nil {
		_ = uc.Close() // best effort: nothing was sent
		return nil, err
	}
	fdc := proto.NewFdConn(uc)
	fdc.ReadBodiesWhole() // checkListener: this is the user's own host
	var fc proto.FrameConn = fdc
	if early != nil {
		fc = &earlyConn{FrameConn: fc, uc: uc, early: *early}
	}
	c, err := New(ctx, fc, uc, clientName())
	if errors.Is(err, &proto.ErrorReply{Code: proto.CodeShuttingDown}) {
		return nil, fmt.Errorf("%w (socket %s)", ErrHostStopped, socketPath)
	}
	if err != nil {
		if errors.Is(ctx.Err(), context.DeadlineExceeded) && parent.Err() == nil {
			return nil, &NotAnsweringError{Addr: socketPath, What: "the handshake", After: HandshakeTimeout}
		}
		if cutShort(err) && ctx.Err() == nil {
			return nil, fmt.Errorf("connect to host at %s: %w", socketPath, errHandshakeCut)
		}
		return nil, fmt.Errorf("connect to host at %s: %w", socketPath, err)
	}
	c.addr = socketPath
	c.redial = func(ctx context.Context) (*Client, error) { return Dial(ctx, socketPath) }
	return c, nil
}

// cutShort reports whether err is the transport ending under us.
func cutShort(err error) bool {
	return errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, syscall.ECONNRESET) || errors.Is(err, syscall.EPIPE)
}

// clientName identifies this program in the host log.
func clientName() string { return filepath.Base(os.Args[0]) }

// Connect dials the host of paths and, if none is running, starts one
// from exe and dials until it answers (at most HostStartTimeout).
// Its requests, when the host goes away under them, connect again the
// same way (retry.go).
func Connect(ctx context.Context, paths persist.Paths, exe string) (*Client, error) {
	c, err := connect(ctx, paths, exe)
	if err != nil {
		return nil, err
	}
	c.redial = func(ctx context.Context) (*Client, error) { return connect(ctx, paths, exe) }
	return c, nil
}

// connect is Connect without setting how to connect again.
func connect(ctx context.Context, paths persist.Paths, exe string) (*Client, error) {
	c, err := dial(ctx, paths.SocketFile(), false)
	if !errors.Is(err, ErrNoHost) {
		return c, err
	}
	if !mayStart(ctx) {
		return nil, fmt.Errorf("connect to host at %s: %w (%w)", paths.SocketFile(), ErrNoHostNeeded, err)
	}
	started, err := StartHost(paths, exe)
	if err != nil {
		return nil, err
	}
	return dialStarted(ctx, paths, started)
}

// StartedHost is a host process this client started. It is not our child
// for long in spirit: it runs in its own session and outlives us.
type StartedHost struct {
	Pid    int
	said   chan string   // its line on the ready pipe, "" if it closed it without one
	exited chan struct{} // closed when it exited while we still run
	state  *os.ProcessState
}

// StartHost starts `exe host --foreground` detached: its own session (so
// a Ctrl-C or hangup of this terminal never reaches it), cwd /, stdin
// /dev/null, stdout and stderr appended to the host log, and the resolved
// clowder paths in its environment so it serves the same runtime dir
// whatever its cwd, and the write end of the ready pipe as fd 3. It does
// not wait for the host to listen.
func StartHost(paths persist.Paths, exe string) (*StartedHost, error) {
	if err := paths.EnsureRuntimeDir(); err != nil {
		return nil, fmt.Errorf("start host: %w", err)
	}
	logf, err := persist.OpenPrivate("host log", paths.LogFile(), os.O_WRONLY|os.O_CREATE|os.O_APPEND)
	if err != nil {
		return nil, fmt.Errorf("start host: %w", err)
	}
	defer func() { _ = logf.Close() }() // best effort: the child has its own copy
	ready, readyW, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("start host: %w", err)
	}
	cmd := exec.Command(exe, "host", "--foreground")
	cmd.Dir = "/"
	cmd.Env = append(hostEnv(os.Environ(), paths), EnvReadyFD+"=3")
	cmd.Stdout, cmd.Stderr = logf, logf
	cmd.ExtraFiles = []*os.File{readyW}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	err = cmd.Start()
	_ = readyW.Close() // only the host writes: its exit is our EOF
	if err != nil {
		_ = ready.Close() // best effort: nothing was read
		return nil, fmt.Errorf("start host %s: %w", exe, err)
	}
	s := &StartedHost{Pid: cmd.Process.Pid, said: make(chan string, 1), exited: make(chan struct{})}
	go s.readLine(ready)
	// Why wait at all: a host that exits while this client still runs (a
	// loser of the start race, or a long-lived TUI's host stopping) would
	// otherwise stay a zombie of ours. Waiting does not tie the host to
	// us: if we exit first, it is reparented and keeps running.
	go func() { // exits when the host does, or with this process
		_ = cmd.Wait() // the status is read through s.state
		s.state = cmd.ProcessState
		close(s.exited)
	}()
	return s, nil
}

// readLine reads the host's line on the ready pipe and closes it.
func (s *StartedHost) readLine(r *os.File) {
	defer func() { _ = r.Close() }() // best effort: read only
	buf := make([]byte, 16)
	n, _ := io.ReadAtLeast(r, buf, 1) // EOF with nothing: the host failed
	s.said <- strings.TrimSpace(string(buf[:n]))
}

// hostEnv is env with the clowder path overrides set to paths, replacing
// any relative or missing ones.
func hostEnv(env []string, paths persist.Paths) []string {
	set := map[string]string{
		persist.EnvRuntimeDir: paths.RuntimeDir,
		persist.EnvStateDir:   paths.StateDir,
		persist.EnvConfig:     paths.ConfigFile,
	}
	out := make([]string, 0, len(env)+len(set))
	for _, kv := range env {
		k, _, _ := strings.Cut(kv, "=")
		if _, ok := set[k]; !ok {
			out = append(out, kv)
		}
	}
	for k, v := range set {
		out = append(out, k+"="+v)
	}
	return out
}

// dialStarted waits for the host's line on the ready pipe, for at most
// HostStartTimeout, and dials: once when it listens; until it answers when
// another host won the start race; not at all when it failed.
func dialStarted(ctx context.Context, paths persist.Paths, s *StartedHost) (*Client, error) {
	ctx, cancel := context.WithTimeout(ctx, HostStartTimeout)
	defer cancel()
	start := time.Now()
	select {
	case line := <-s.said:
		switch line {
		case HostReady:
			return Dial(ctx, paths.SocketFile())
		case HostBusy:
			return dialUntilUp(ctx, paths, s, start)
		}
		select { // it failed: its exit status is on the way
		case <-s.exited:
		case <-ctx.Done():
		}
	case <-ctx.Done():
	}
	return nil, startFailed(ctx, paths, s, time.Since(start))
}

// dialUntilUp dials the winner of a start race until it answers, with a
// backoff from 5 ms.
func dialUntilUp(ctx context.Context, paths persist.Paths, s *StartedHost, start time.Time) (*Client, error) {
	delay := 5 * time.Millisecond
	for {
		c, err := Dial(ctx, paths.SocketFile())
		if !errors.Is(err, ErrNoHost) {
			return c, err
		}
		select {
		case <-ctx.Done():
			return nil, startFailed(ctx, paths, s, time.Since(start))
		case <-time.After(delay):
		}
		delay = min(2*delay, 100*time.Millisecond)
	}
}

// startFailed explains a host that never came up.
func startFailed(ctx context.Context, paths persist.Paths, s *StartedHost, waited time.Duration) error {
	if err := ctx.Err(); err != nil && !errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	var msg string
	select {
	case <-s.exited:
		msg = fmt.Sprintf("the host (pid %d) exited (%s) before it listened on %s; see %s",
			s.Pid, s.state, paths.SocketFile(), paths.LogFile())
	default:
		msg = fmt.Sprintf("the host (pid %d) did not answer on %s within %s; it is still starting; see %s",
			s.Pid, paths.SocketFile(), waited.Round(time.Millisecond), paths.LogFile())
	}
	if line := lastLogLine(paths.LogFile()); line != "" {
		msg += ": " + line
	}
	return errors.New(msg)
}

// lastLogLine returns the last non-empty line of the log, "" if none.
func lastLogLine(path string) string {
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer func() { _ = f.Close() }() // best effort: read only
	const tail = 4096
	buf := make([]byte, tail)
	fi, err := f.Stat()
	if err != nil {
		return ""
	}
	off := max(fi.Size()-tail, 0)
	n, _ := f.ReadAt(buf, off) // a short read still holds the tail
	lines := strings.Split(strings.TrimSpace(string(buf[:n])), "\n")
	return strings.TrimSpace(lines[len(lines)-1])
}
