// This file drives a tmux server for panes adopted from it (clowder adopt
// tmux, docs/processes.md "Adopted tmux panes"). tmux, not clowder, is the
// parent of such a pane's process and the owner of its terminal, so
// everything goes through the tmux command line on the server's socket:
// display-message reads the pane's identity, capture-pane its screen,
// pipe-pane copies its output into a fifo the host reads, send-keys and
// paste-buffer carry input. The identity (server pid and start time, pane
// id, pane process and its start time, its command line) is read again
// before every action, and any change refuses it.

package supervisor

import (
	"bytes"
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"time"
	"unicode/utf8"

	"clowder/persist"
)

// tmuxTimeout bounds one tmux command: a server that does not answer
// refuses the action instead of hanging it.
const tmuxTimeout = 10 * time.Second

// TmuxServer is one tmux server, named by its socket path.
type TmuxServer struct{ Socket string }

// ErrTmuxServerGone is wrapped when no tmux server answers on the socket.
var ErrTmuxServerGone = errors.New("no tmux server answers")

// ErrTmuxNoPane is wrapped when the server has no such pane.
var ErrTmuxNoPane = errors.New("no such tmux pane")

// Command runs `tmux -S socket args...` with stdin (nil for none) and
// returns its standard output.
func (s TmuxServer) Command(ctx context.Context, stdin []byte, args ...string) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, tmuxTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "tmux", append([]string{"-S", s.Socket}, args...)...)
	// The client passes its stdout to the server over the socket: a
	// stopped server keeps that copy open, so once the client is killed,
	// stop waiting for the end of its output.
	cmd.WaitDelay = time.Second
	if stdin != nil {
		cmd.Stdin = bytes.NewReader(stdin)
	}
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		return out.String(), s.commandError(args, errb.String(), err)
	}
	return out.String(), nil
}

// commandError names what failed, telling a missing server or pane apart.
func (s TmuxServer) commandError(args []string, stderr string, err error) error {
	msg := strings.TrimSpace(stderr)
	switch {
	case errors.Is(err, exec.ErrNotFound):
		return fmt.Errorf("tmux %s: tmux is not installed: %w", args[0], err)
	case strings.Contains(msg, "no server running"), strings.Contains(msg, "error connecting"):
		return fmt.Errorf("tmux %s on %s: %w (%s)", args[0], s.Socket, ErrTmuxServerGone, msg)
	case strings.Contains(msg, "can't find"):
		return fmt.Errorf("tmux %s on %s: %w (%s)", args[0], s.Socket, ErrTmuxNoPane, msg)
	}
	return fmt.Errorf("tmux %s on %s: %v: %s", args[0], s.Socket, err, msg)
}

// TmuxStatus is a tmux pane as its server describes it now.
type TmuxStatus struct {
	Pane       persist.TmuxPane // the identity, as adopt records it
	Process    Identity         // the pane's process (zero when it is gone)
	Dead       bool             // tmux says the pane is dead (remain-on-exit), or its process is gone or a zombie
	DeadStatus int              // the exit status tmux saw, -1 when unknown
	Cols, Rows int
	CursorX    int
	CursorY    int
	Alternate  bool // the pane shows its alternate screen
	// The modes tmux reports that input depends on: application cursor
	// keys (DECCKM), application keypad (DECKPAM), a hidden cursor.
	CursorKeys, Keypad, CursorHidden bool
	Cwd                              string // the pane's current directory
	Current                          string // tmux's pane_current_command (the foreground program)
}

// tmuxFormat is what display-message prints about a pane, one field per
// "|"; the last one (the path) may itself hold "|".
const tmuxFormat = "#{pid}|#{session_name}:#{window_index}.#{pane_index}|#{pane_id}|#{pane_pid}|#{pane_dead}|#{pane_dead_status}|" +
	"#{pane_width}|#{pane_height}|#{cursor_x}|#{cursor_y}|#{alternate_on}|#{keypad_cursor_flag}|#{keypad_flag}|#{cursor_flag}|" +
	"#{pane_current_command}|#{pane_current_path}"

// Identify reads what target (any tmux target: %N, session:window.pane)
// is now: the pane, its server's and its process's identities.
func (s TmuxServer) Identify(ctx context.Context, target string) (TmuxStatus, error) {
	out, err := s.Command(ctx, nil, "display-message", "-p", "-t", target, tmuxFormat)
	if err != nil {
		return TmuxStatus{}, err
	}
	st, err := s.parseStatus(strings.TrimRight(out, "\n"))
	if err == nil && st.Pane.PaneID == "" { // tmux 3.3 prints empty fields for a target it cannot find
		return st, fmt.Errorf("tmux display-message on %s: %w %q", s.Socket, ErrTmuxNoPane, target)
	}
	return st, err
}

// parseStatus reads display-message's line and the processes it names.
func (s TmuxServer) parseStatus(line string) (TmuxStatus, error) {
	f := strings.SplitN(line, "|", 16)
	if len(f) != 16 {
		return TmuxStatus{}, fmt.Errorf("tmux on %s described the pane as %q; is it tmux 3.0 or newer?", s.Socket, line)
	}
	n := func(i int) int { v, _ := strconv.Atoi(f[i]); return v }
	st := TmuxStatus{
		Pane:       persist.TmuxPane{Socket: s.Socket, ServerPID: n(0), Target: f[1], PaneID: f[2]},
		Dead:       f[4] == "1",
		DeadStatus: -1,
		Cols:       n(6), Rows: n(7), CursorX: n(8), CursorY: n(9),
		Alternate: f[10] == "1", CursorKeys: f[11] == "1", Keypad: f[12] == "1", CursorHidden: f[13] == "0",
		Current: f[14], Cwd: f[15],
	}
	if f[5] != "" {
		st.DeadStatus = n(5)
	}
	if srv, err := ReadIdentity(st.Pane.ServerPID); err == nil {
		st.Pane.ServerStart = srv.Start
	}
	st.readProcess(n(3))
	return st, nil
}

// readProcess fills in the pane's process: its identity and command line,
// or Dead when it is gone or a zombie.
func (st *TmuxStatus) readProcess(pid int) {
	id, err := ReadIdentity(pid)
	if err != nil || pid <= 0 {
		st.Dead = true
		st.Process = Identity{PID: pid}
		return
	}
	st.Process = id
	st.Pane.Command = CommandLine(pid)
}

// TmuxChanged says what differs between the adopted pane (rec, whose
// process was proc) and what tmux shows now, "" when nothing does. A dead
// pane is not a change: the caller reports it as exited.
func TmuxChanged(rec persist.TmuxPane, proc Identity, now TmuxStatus) string {
	var diffs []string
	add := func(what, was, is string) {
		if was != is {
			diffs = append(diffs, fmt.Sprintf("%s %s → %s", what, was, is))
		}
	}
	add("tmux server", fmt.Sprintf("pid %d (start %d)", rec.ServerPID, rec.ServerStart),
		fmt.Sprintf("pid %d (start %d)", now.Pane.ServerPID, now.Pane.ServerStart))
	add("pane id", rec.PaneID, now.Pane.PaneID)
	add("session target", rec.Target, now.Pane.Target)
	if now.Process.PID != proc.PID || (!now.Dead && now.Process != proc) {
		add("pane process", fmt.Sprintf("pid %d (start %d)", proc.PID, proc.Start), fmt.Sprintf("pid %d (start %d)", now.Process.PID, now.Process.Start))
	}
	if !now.Dead {
		add("pane command", strconv.Quote(rec.Command), strconv.Quote(now.Pane.Command))
	}
	return strings.Join(diffs, ", ")
}

// SendText types data into pane (%N) as it is: literally (send-keys -l)
// when it is UTF-8, else byte by byte in hex (send-keys -H).
func (s TmuxServer) SendText(ctx context.Context, pane string, data []byte) error {
	if len(data) == 0 {
		return nil
	}
	if !utf8.Valid(data) {
		args := []string{"send-keys", "-t", pane, "-H"}
		for _, b := range data {
			args = append(args, hex.EncodeToString([]byte{b}))
		}
		_, err := s.Command(ctx, nil, args...)
		return err
	}
	_, err := s.Command(ctx, nil, "send-keys", "-t", pane, "-l", "--", tmuxArg(string(data)))
	return err
}

// tmuxArg protects an argument's final ";", which tmux would otherwise take
// for the end of the command (and drop): "x;" is sent as "x\;".
func tmuxArg(s string) string {
	if strings.HasSuffix(s, ";") {
		return s[:len(s)-1] + `\;`
	}
	return s
}

// SendKeys presses named keys (tmux syntax: Enter, C-c, M-Left) in pane,
// which tmux encodes for the pane's current modes.
func (s TmuxServer) SendKeys(ctx context.Context, pane string, keys []string) error {
	if len(keys) == 0 {
		return nil
	}
	args := []string{"send-keys", "-t", pane}
	for _, k := range keys {
		args = append(args, tmuxArg(k))
	}
	_, err := s.Command(ctx, nil, args...)
	return err
}

// Paste loads text into a tmux buffer of its own and pastes it into pane
// with paste-buffer -p, so tmux brackets it when the program asked for
// bracketed paste; the buffer is deleted after.
func (s TmuxServer) Paste(ctx context.Context, pane, buffer, text string) error {
	if _, err := s.Command(ctx, []byte(text), "load-buffer", "-b", buffer, "-"); err != nil {
		return err
	}
	_, err := s.Command(ctx, nil, "paste-buffer", "-p", "-d", "-b", buffer, "-t", pane)
	return err
}

// Resize asks tmux for a pane size; tmux may give less (the window bounds
// it).
func (s TmuxServer) Resize(ctx context.Context, pane string, cols, rows int) error {
	_, err := s.Command(ctx, nil, "resize-pane", "-t", pane, "-x", strconv.Itoa(cols), "-y", strconv.Itoa(rows))
	return err
}

// Seed is a pane's screen at the moment its output starts to flow to
// the fifo: its size and cursor, and capture-pane's text with escapes.
type Seed struct {
	Status TmuxStatus
	Screen string // capture-pane -p -e -J: one line per row (wrapped rows joined)
	Early  []byte // output read from the fifo with the pipe's ready line, to apply after Screen
}

// pipeReady is the line pipe-pane's shell writes into the fifo once it
// has opened it, before it starts copying the pane's output.
const pipeReady = "clowder-tmux-pipe-ready\n"

// PipeTo reads the pane's screen and starts copying its output into the
// fifo at path (fifo is its read end), in one tmux command list: the
// server runs it without reading the pane in between, so no output falls
// between the picture and the stream (tmux expands formats in the pipe's
// command, so a "#" in path is doubled). It returns once the pipe's shell
// has opened the fifo: a shell that opens a fifo with no reader waits
// for one for ever, and tmux never ends it.
func (s TmuxServer) PipeTo(ctx context.Context, pane string, fifo *os.File, path string) (Seed, error) {
	out, err := s.Command(ctx, nil,
		"display-message", "-p", "-t", pane, tmuxFormat, ";",
		"capture-pane", "-p", "-e", "-J", "-t", pane, ";",
		"pipe-pane", "-O", "-t", pane, "exec >>"+shellQuote(strings.ReplaceAll(path, "#", "##"))+" && printf '"+strings.TrimSuffix(pipeReady, "\n")+"\\n' && exec cat")
	if err != nil {
		return Seed{}, err
	}
	line, screen, _ := strings.Cut(out, "\n")
	st, err := s.parseStatus(line)
	if err != nil {
		return Seed{}, err
	}
	early, err := awaitPipeReady(fifo)
	return Seed{Status: st, Screen: screen, Early: early}, err
}

// awaitPipeReady reads the fifo up to the pipe's ready line (what an
// earlier pipe left comes before it, and is dropped), and returns what
// followed it in the same read.
func awaitPipeReady(f *os.File) ([]byte, error) {
	if err := f.SetReadDeadline(time.Now().Add(tmuxTimeout)); err != nil {
		return nil, fmt.Errorf("wait for tmux's pipe: %w", err)
	}
	defer func() { _ = f.SetReadDeadline(time.Time{}) }() // never fails on a pollable fifo
	var got []byte
	buf := make([]byte, 4096)
	for {
		n, err := f.Read(buf)
		got = append(got, buf[:n]...)
		if i := bytes.Index(got, []byte(pipeReady)); i >= 0 {
			return got[i+len(pipeReady):], nil
		}
		if err != nil {
			return nil, fmt.Errorf("wait for tmux's pipe-pane to open %s: %w", f.Name(), err)
		}
	}
}

// Unpipe stops copying the pane's output (best effort: the pane or its
// server may be gone).
func (s TmuxServer) Unpipe(ctx context.Context, pane string) {
	_, _ = s.Command(ctx, nil, "pipe-pane", "-t", pane) // best effort: nothing to stop once the pane is gone
}

// shellQuote quotes s for tmux's /bin/sh.
func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// OpenFifo opens the fifo at path, made if there is none, for reading
// and writing: the open does not wait for a writer, and the reader never
// sees end of file while tmux's writer comes and goes. A fifo a crashed
// host left is opened again, not replaced: a pipe shell still waiting to
// open it then gets its reader, and ends once tmux replaces its pipe.
func OpenFifo(path string) (*os.File, error) {
	if fi, err := os.Lstat(path); err == nil && fi.Mode()&os.ModeNamedPipe != 0 {
		return os.OpenFile(path, os.O_RDWR, 0)
	}
	_ = os.Remove(path) // best effort: something else in the way
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		return nil, fmt.Errorf("make fifo %s: %w", path, err)
	}
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		_ = os.Remove(path) // best effort
		return nil, fmt.Errorf("open fifo %s: %w", path, err)
	}
	return f, nil
}

// WaitExit returns nil once the process id names has exited (a zombie
// counts), or ctx's error. It sleeps on a pidfd where the kernel has them:
// the process need not be our child.
func WaitExit(ctx context.Context, id Identity) error {
	for {
		if now, err := ReadIdentity(id.PID); err != nil || now != id {
			return nil
		}
		if err := waitAnyExit(ctx, []Identity{id}); err != nil {
			return err
		}
	}
}
