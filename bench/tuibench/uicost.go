package tuibench

// This file measures what the UI process costs beyond latency (issue 12):
// the bytes it writes to the outer terminal per echoed key (the outer
// tmux's pipe-pane records them), its wake-ups with idle panes (context
// switches of every thread, from /proc), and its CPU next to the server's
// while one pane floods plain text.

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"clowder/bench/latency"
)

// EchoBytes is what the UI wrote to the outer terminal for Keys echoed keys.
type EchoBytes struct {
	Bytes int64
	Keys  int
}

// PerKey is bytes per echoed key.
func (e EchoBytes) PerKey() float64 { return float64(e.Bytes) / float64(max(e.Keys, 1)) }

// echoKeys is the most keys measured on one line (latency's lineMax).
const echoKeys = 50

// ClowderEchoBytes types n keys (at most 50) into a raw-mode cat in the
// TUI, one at a time, each after the last one's echo showed, and counts the
// bytes the TUI wrote to the outer terminal meanwhile.
func ClowderEchoBytes(ctx context.Context, bin string, n int) (EchoBytes, error) {
	w, err := startClowder(ctx, bin, 160, 48, "stty raw -echo; printf cat-ready; exec cat", 0)
	if err != nil {
		return EchoBytes{}, err
	}
	defer w.close()
	if err := w.o.waitFor(ctx, "cat-ready"); err != nil {
		return EchoBytes{}, err
	}
	return echoBytes(ctx, &echoDriver{o: w.o, top: 1}, w.dir, n)
}

// TmuxEchoBytes is the same through tmux nested in the outer terminal.
func TmuxEchoBytes(ctx context.Context, n int) (EchoBytes, error) {
	o, stop, err := nestedTmux(ctx, "stty raw -echo; printf cat-ready; exec cat")
	if err != nil {
		return EchoBytes{}, err
	}
	defer stop()
	if err := o.waitFor(ctx, "cat-ready"); err != nil {
		return EchoBytes{}, err
	}
	dir, err := os.MkdirTemp("/tmp", "clwtui")
	if err != nil {
		return EchoBytes{}, err
	}
	defer os.RemoveAll(dir)
	return echoBytes(ctx, &echoDriver{o: o, top: 0}, dir, n)
}

// nestedTmux runs an inner tmux with one window running cmd, attached in
// an outer one.
func nestedTmux(ctx context.Context, cmd string) (*outer, func(), error) {
	sock, stopInner, err := innerTmux(ctx, 1, cmd)
	if err != nil {
		return nil, nil, err
	}
	o, err := startOuter(ctx, os.Environ(), 160, 48, "exec env -u TMUX tmux -L "+sock+" attach")
	if err != nil {
		stopInner()
		return nil, nil, err
	}
	return o, func() { o.close(); stopInner() }, nil
}

// echoBytes clears the pane, then records the outer pane's output while
// n keys are typed and echoed.
func echoBytes(ctx context.Context, d *echoDriver, dir string, n int) (EchoBytes, error) {
	n = min(n, echoKeys)
	if err := d.Reset(ctx); err != nil {
		return EchoBytes{}, err
	}
	log := filepath.Join(dir, "outer.log")
	if _, err := d.o.run(ctx, "pipe-pane", "-o", "cat >> "+shellQuote(log)); err != nil {
		return EchoBytes{}, err
	}
	typed := ""
	for i := 0; i < n; i++ {
		key := string(rune('a' + i%26))
		typed += key
		if err := d.SendKey(ctx, key); err != nil {
			return EchoBytes{}, err
		}
		if err := waitRow(ctx, d, typed); err != nil {
			return EchoBytes{}, err
		}
	}
	if _, err := d.o.run(ctx, "pipe-pane"); err != nil { // stops recording
		return EchoBytes{}, err
	}
	size, err := settledSize(ctx, log)
	return EchoBytes{Bytes: size, Keys: n}, err
}

// waitRow polls the driver's row until it is want.
func waitRow(ctx context.Context, d *echoDriver, want string) error {
	for {
		s, err := d.Screen(ctx)
		if err != nil {
			return err
		}
		if s == want {
			return nil
		}
		if ctx.Err() != nil {
			return fmt.Errorf("echo %q never showed (row: %q)", want, s)
		}
	}
}

// settledSize waits until the file's size holds still for 200ms (pipe-pane's
// cat writes after tmux hands it the bytes) and returns it.
func settledSize(ctx context.Context, path string) (int64, error) {
	last := int64(-1)
	for {
		fi, err := os.Stat(path)
		size := int64(0)
		if err == nil {
			size = fi.Size()
		}
		if size == last {
			return size, nil
		}
		last = size
		select {
		case <-time.After(200 * time.Millisecond): // a settling window, in a benchmark
		case <-ctx.Done():
			return 0, ctx.Err()
		}
	}
}

// Wakeups are context switches (voluntary and not) of every thread of the
// UI and of the server over an idle period.
type Wakeups struct {
	UI, Server int64
	Over       time.Duration
}

// ClowderWakeups counts the TUI's and the host's wake-ups over d with panes
// idle shells.
func ClowderWakeups(ctx context.Context, bin string, panes int, d time.Duration) (Wakeups, error) {
	w, err := startClowder(ctx, bin, 160, 48, "exec sh", max(panes-2, 0))
	if err != nil {
		return Wakeups{}, err
	}
	defer w.close()
	if err := w.o.waitFor(ctx, fmt.Sprintf(" %d ", panes)); err != nil { // the last pane's number in its title
		return Wakeups{}, err
	}
	ui, err := w.o.panePID(ctx)
	if err != nil {
		return Wakeups{}, err
	}
	host, err := w.hostPID(ctx)
	if err != nil {
		return Wakeups{}, err
	}
	if err := w.waitQuiet(ctx); err != nil {
		return Wakeups{}, err
	}
	if err := settled(ctx, w.o, panes); err != nil {
		return Wakeups{}, err
	}
	return wakeupsOver(ctx, d, ui, host)
}

// settled waits until every pane's title shows it idle or waiting for
// input: the host's last attention change has been drawn.
func settled(ctx context.Context, o *outer, panes int) error {
	for {
		s, err := o.screen(ctx)
		if err != nil {
			return err
		}
		if strings.Count(s, "○ idle")+strings.Count(s, "● needs input") >= panes {
			return nil
		}
		if ctx.Err() != nil {
			return fmt.Errorf("the panes never settled:\n%s", s)
		}
		time.Sleep(20 * time.Millisecond) // polling a screen, in a benchmark
	}
}

// wakeupsOver counts the context switches of ui and server during d.
func wakeupsOver(ctx context.Context, d time.Duration, ui, server int) (Wakeups, error) {
	u0, s0 := switchesOf(ui), switchesOf(server)
	select {
	case <-time.After(d):
	case <-ctx.Done():
		return Wakeups{}, ctx.Err()
	}
	return Wakeups{UI: switchesOf(ui) - u0, Server: switchesOf(server) - s0, Over: d}, nil
}

// switchesOf sums voluntary and involuntary context switches over every
// thread of pid.
func switchesOf(pid int) int64 {
	tasks, _ := filepath.Glob("/proc/" + strconv.Itoa(pid) + "/task/*/status")
	var n int64
	for _, t := range tasks {
		b, err := os.ReadFile(t)
		if err != nil {
			continue // a thread that ended
		}
		for _, line := range strings.Split(string(b), "\n") {
			if k, v, ok := strings.Cut(line, ":"); ok && strings.HasSuffix(k, "ctxt_switches") {
				c, _ := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
				n += c
			}
		}
	}
	return n
}

// Flood is the CPU the UI and the server used while a pane printed Bytes
// of plain text lines.
type Flood struct {
	UI, Server time.Duration
	Bytes      int64
}

// floodScript waits for a line, prints lines numbered 1 to n, then a
// marker, then echoes what it reads.
func floodScript(n int) string {
	return fmt.Sprintf("printf flood-ready; head -n 1 >/dev/null; seq 1 %d; printf 'flood-%%s' done; exec cat", n)
}

// seqBytes is the size of `seq 1 n`'s output.
func seqBytes(n int) int64 {
	var b int64
	for d, lo := int64(1), 1; lo <= n; d, lo = d+1, lo*10 {
		hi := min(lo*10-1, n)
		b += int64(hi-lo+1) * (d + 1)
	}
	return b
}

// ClowderFlood measures the TUI's and the host's CPU while the focused pane
// prints `seq 1 n`.
func ClowderFlood(ctx context.Context, bin string, n int) (Flood, error) {
	w, err := startClowder(ctx, bin, 160, 48, floodScript(n), 0)
	if err != nil {
		return Flood{}, err
	}
	defer w.close()
	ui, err := w.o.panePID(ctx)
	if err != nil {
		return Flood{}, err
	}
	host, err := w.hostPID(ctx)
	if err != nil {
		return Flood{}, err
	}
	return flood(ctx, w.o, ui, host, n)
}

// TmuxFlood measures the nested tmux client's and its server's CPU while
// its pane prints `seq 1 n`.
func TmuxFlood(ctx context.Context, n int) (Flood, error) {
	sock, stopInner, err := innerTmux(ctx, 1, floodScript(n))
	if err != nil {
		return Flood{}, err
	}
	defer stopInner()
	o, err := startOuter(ctx, os.Environ(), 160, 48, "exec env -u TMUX tmux -L "+sock+" attach")
	if err != nil {
		return Flood{}, err
	}
	defer o.close()
	client, err := o.panePID(ctx)
	if err != nil {
		return Flood{}, err
	}
	server, err := tmuxServerPID(ctx, sock)
	if err != nil {
		return Flood{}, err
	}
	return flood(ctx, o, client, server, n)
}

// tmuxServerPID is the pid of the tmux server on socket sock.
func tmuxServerPID(ctx context.Context, sock string) (int, error) {
	out, err := commandContext(ctx, "tmux", "-L", sock, "display-message", "-p", "#{pid}").Output()
	if err != nil {
		return 0, fmt.Errorf("tmux server pid: %w", err)
	}
	return strconv.Atoi(strings.TrimSpace(string(out)))
}

// flood starts the flood in o's pane and measures ui's and server's CPU
// until its end marker shows.
func flood(ctx context.Context, o *outer, ui, server, n int) (Flood, error) {
	if err := o.waitFor(ctx, "flood-ready"); err != nil {
		return Flood{}, err
	}
	u0, err := cpuOf(ui)
	if err != nil {
		return Flood{}, err
	}
	s0, err := cpuOf(server)
	if err != nil {
		return Flood{}, err
	}
	if _, err := o.run(ctx, "send-keys", "go", "Enter"); err != nil {
		return Flood{}, err
	}
	if err := o.waitFor(ctx, "flood-done"); err != nil {
		return Flood{}, err
	}
	u1, err := cpuOf(ui)
	if err != nil {
		return Flood{}, err
	}
	s1, err := cpuOf(server)
	return Flood{UI: u1 - u0, Server: s1 - s0, Bytes: seqBytes(n)}, err
}

// ClowderKeysPanes is ClowderKeys with panes panes in the layout (the
// focused one running cat, the others idle shells).
func ClowderKeysPanes(ctx context.Context, bin string, panes, n int) (latency.Samples, error) {
	w, err := startClowder(ctx, bin, 160, 48, "stty raw -echo; printf cat-ready; exec cat", max(panes-2, 0))
	if err != nil {
		return nil, err
	}
	defer w.close()
	if err := w.o.waitFor(ctx, fmt.Sprintf(" %d ", panes)); err != nil { // the last pane's number in its title
		return nil, err
	}
	if err := w.o.waitFor(ctx, "cat-ready"); err != nil {
		return nil, err
	}
	return narrowRoundTrip(ctx, &echoDriver{o: w.o, top: 1}, n) // row 0 is the title border
}

// TmuxKeysPanes is TmuxKeys with panes panes in the inner window (the
// first running cat, the others idle shells).
func TmuxKeysPanes(ctx context.Context, panes, n int) (latency.Samples, error) {
	sock, stop, err := innerTmux(ctx, 1, "stty raw -echo; printf cat-ready; exec cat")
	if err != nil {
		return nil, err
	}
	defer stop()
	for i := 1; i < panes; i++ {
		if err := commandContext(ctx, "tmux", "-L", sock, "split-window", "-d", "PS1='"+prompt+"' sh").Run(); err != nil {
			return nil, fmt.Errorf("split the inner window: %w", err)
		}
		_ = commandContext(ctx, "tmux", "-L", sock, "select-layout", "tiled").Run() // room for the next split
	}
	o, err := startOuter(ctx, os.Environ(), 160, 48, "exec env -u TMUX tmux -L "+sock+" attach")
	if err != nil {
		return nil, err
	}
	defer o.close()
	if err := o.waitFor(ctx, "cat-ready"); err != nil {
		return nil, err
	}
	return narrowRoundTrip(ctx, &echoDriver{o: o, top: 0}, n)
}

// narrowLine is how many keys go on a line before a reset in a layout of
// many panes, well under a tiled pane's width.
const narrowLine = 20

// narrowRoundTrip is latency.RoundTrip on lines of narrowLine keys.
func narrowRoundTrip(ctx context.Context, d *echoDriver, n int) (latency.Samples, error) {
	samples := make(latency.Samples, 0, n)
	typed := ""
	for i := 0; i < n; i++ {
		if i%narrowLine == 0 {
			if err := d.Reset(ctx); err != nil {
				return samples, err
			}
			typed = ""
		}
		key := string(rune('a' + i%26))
		typed += key
		start := time.Now()
		if err := d.SendKey(ctx, key); err != nil {
			return samples, err
		}
		if err := waitRow(ctx, d, typed); err != nil {
			return samples, err
		}
		samples = append(samples, time.Since(start))
	}
	return samples, nil
}

// ControlKeys times n keystrokes into the cat of a TUI with panes panes
// through the outer tmux's control mode, which sees the bytes the TUI
// writes as they come: each key is a send-keys on a control client, and
// its time ends at the %output that carries its echo. Without a client
// process per poll, this resolves tenths of a millisecond.
func ControlKeys(ctx context.Context, bin string, panes, n int) (latency.Samples, error) {
	w, err := startClowder(ctx, bin, 160, 48, "stty raw -echo; printf cat-ready; exec cat", max(panes-2, 0))
	if err != nil {
		return nil, err
	}
	defer w.close()
	if err := w.o.waitFor(ctx, fmt.Sprintf(" %d ", panes)); err != nil {
		return nil, err
	}
	if err := w.o.waitFor(ctx, "cat-ready"); err != nil {
		return nil, err
	}
	return controlRoundTrip(ctx, w.o, n)
}

// TmuxControlKeys is ControlKeys through tmux nested in the outer one.
func TmuxControlKeys(ctx context.Context, panes, n int) (latency.Samples, error) {
	sock, stop, err := innerTmux(ctx, 1, "stty raw -echo; printf cat-ready; exec cat")
	if err != nil {
		return nil, err
	}
	defer stop()
	for i := 1; i < panes; i++ {
		if err := commandContext(ctx, "tmux", "-L", sock, "split-window", "-d", "PS1='"+prompt+"' sh").Run(); err != nil {
			return nil, fmt.Errorf("split the inner window: %w", err)
		}
		_ = commandContext(ctx, "tmux", "-L", sock, "select-layout", "tiled").Run() // room for the next split
	}
	o, err := startOuter(ctx, os.Environ(), 160, 48, "exec env -u TMUX tmux -L "+sock+" attach")
	if err != nil {
		return nil, err
	}
	defer o.close()
	if err := o.waitFor(ctx, "cat-ready"); err != nil {
		return nil, err
	}
	return controlRoundTrip(ctx, o, n)
}

// controlRoundTrip types n keys through a control client of o, on lines
// of narrowLine keys, each typed into a cleared pane.
func controlRoundTrip(ctx context.Context, o *outer, n int) (latency.Samples, error) {
	cc, err := o.control(ctx)
	if err != nil {
		return nil, err
	}
	defer cc.close()
	cc.drain(300 * time.Millisecond)
	samples := make(latency.Samples, 0, n)
	for i := 0; i < n; i++ {
		if i%narrowLine == 0 { // cat echoes ESC c: the pane is cleared
			if err := cc.send("send-keys Escape c"); err != nil {
				return samples, err
			}
			cc.drain(200 * time.Millisecond)
		}
		key := string(rune('a' + i%26))
		start := time.Now()
		if err := cc.send("send-keys -l " + key); err != nil {
			return samples, err
		}
		if err := cc.waitEcho(ctx, key); err != nil {
			return samples, err
		}
		samples = append(samples, time.Since(start))
	}
	return samples, nil
}

// controlClient is a tmux control-mode client of an outer server.
type controlClient struct {
	cmd   *exec.Cmd
	in    io.WriteCloser
	lines chan string
}

// control attaches a control-mode client to o.
func (o *outer) control(ctx context.Context) (*controlClient, error) {
	c := commandContext(ctx, "tmux", "-L", o.sock, "-f", "/dev/null", "-C", "attach")
	c.Env = o.env
	in, err := c.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := c.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := c.Start(); err != nil {
		return nil, fmt.Errorf("start a control client: %w", err)
	}
	cc := &controlClient{cmd: c, in: in, lines: make(chan string, 4096)}
	go func() {
		sc := bufio.NewScanner(out)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			cc.lines <- sc.Text()
		}
		close(cc.lines)
	}()
	return cc, nil
}

func (c *controlClient) send(cmd string) error {
	_, err := io.WriteString(c.in, cmd+"\n")
	return err
}

// drain discards what the client reads for d.
func (c *controlClient) drain(d time.Duration) {
	end := time.After(d) // a settling window, in a benchmark
	for {
		select {
		case <-c.lines:
		case <-end:
			return
		}
	}
}

// waitEcho waits for the %output that carries key's echo.
func (c *controlClient) waitEcho(ctx context.Context, key string) error {
	for {
		select {
		case l, ok := <-c.lines:
			if !ok {
				return fmt.Errorf("the control client ended")
			}
			if !strings.HasPrefix(l, "%output ") {
				continue
			}
			if echoes(l, key) {
				return nil
			}
		case <-ctx.Done():
			return fmt.Errorf("the echo of %q never came: %w", key, ctx.Err())
		}
	}
}

func (c *controlClient) close() {
	c.in.Close()
	_ = c.cmd.Wait() // it ends when its stdin closes
}

// echoes reports whether an %output line carries key's echo: tmux's client
// writes the key alone, the TUI the key then a backspace or two, or a
// cursor position when more of the row changed.
func echoes(line, key string) bool {
	data := line[strings.Index(line[len("%output "):], " ")+len("%output ")+1:]
	for _, after := range []string{" \\010", "\\010", " \\033[", "\\033["} {
		if strings.Contains(data, key+after) {
			return true
		}
	}
	return strings.HasSuffix(data, key)
}
