package tuibench

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"time"

	"clowder/bench/latency"
	"clowder/bench/procstat"
)

func commandContext(ctx context.Context, bin string, args ...string) *exec.Cmd {
	return exec.CommandContext(ctx, bin, args...)
}

// Idle is CPU used over an idle period, and how many times the processes'
// threads were woken (voluntary context switches, all threads).
type Idle struct {
	UI, Server               time.Duration
	UIWakeups, ServerWakeups int64
	Over                     time.Duration
}

// PerSecond is n wake-ups over the idle period as a rate.
func (i Idle) PerSecond(n int64) float64 { return float64(n) / i.Over.Seconds() }

// idleOver measures the CPU and the wake-ups of ui and server over d.
func idleOver(ctx context.Context, d time.Duration, ui, server int) (Idle, error) {
	w0, err0 := procstat.Wakeups(ui)
	s0, err1 := procstat.Wakeups(server)
	cpu, err := cpuOver(ctx, d, ui, server)
	if err != nil {
		return Idle{}, err
	}
	w1, err2 := procstat.Wakeups(ui)
	s1, err3 := procstat.Wakeups(server)
	r := Idle{UI: cpu[0], Server: cpu[1], Over: d, UIWakeups: -1, ServerWakeups: -1}
	if err0 == nil && err2 == nil {
		r.UIWakeups = w1 - w0
	}
	if err1 == nil && err3 == nil {
		r.ServerWakeups = s1 - s0
	}
	return r, nil
}

// ClowderIdle measures the TUI's and the host's CPU over d with panes idle
// shells (the default two plus panes-2 more).
func ClowderIdle(ctx context.Context, bin string, panes int, d time.Duration) (Idle, error) {
	w, err := startClowder(ctx, bin, 160, 48, "exec sh", max(panes-2, 0))
	if err != nil {
		return Idle{}, err
	}
	defer w.close()
	if err := w.o.waitFor(ctx, fmt.Sprintf(" %d ", panes)); err != nil { // the last pane's number in its title
		return Idle{}, err
	}
	ui, err := w.o.panePID(ctx)
	if err != nil {
		return Idle{}, err
	}
	host, err := w.hostPID(ctx)
	if err != nil {
		return Idle{}, err
	}
	if err := w.waitQuiet(ctx); err != nil {
		return Idle{}, err
	}
	return idleOver(ctx, d, ui, host)
}

// prompt is the inner shells' prompt, so a test can see that each has drawn
// it.
const prompt = "idle> "

// TmuxIdle measures an attached tmux client's and its server's CPU over d
// with panes idle shells.
func TmuxIdle(ctx context.Context, panes int, d time.Duration) (Idle, error) {
	in, err := innerTmux(ctx, panes, "PS1='"+prompt+"' sh")
	if err != nil {
		return Idle{}, err
	}
	defer in.stop()
	o, err := startOuter(ctx, os.Environ(), 160, 48, in.attach())
	if err != nil {
		return Idle{}, err
	}
	defer o.close()
	if err := o.waitFor(ctx, "[0]"); err != nil { // the inner status line
		return Idle{}, err
	}
	client, err := o.panePID(ctx)
	if err != nil {
		return Idle{}, err
	}
	server := in.pid
	if err := o.waitForCount(ctx, strings.TrimSpace(prompt), panes); err != nil { // every shell at its prompt (capture-pane trims trailing blanks)
		return Idle{}, err
	}
	return idleOver(ctx, d, client, server)
}

// echoDriver types into the outer terminal and reads the first row of the
// focused pane's area from it: the row at top, left of any border.
type echoDriver struct {
	o   *outer
	top int
}

var _ latency.Driver = (*echoDriver)(nil)

func (e *echoDriver) SendKey(ctx context.Context, key string) error {
	_, err := e.o.run(ctx, "send-keys", "-l", key)
	return err
}

func (e *echoDriver) Screen(ctx context.Context) (string, error) {
	s, err := e.o.screen(ctx)
	if err != nil {
		return "", err
	}
	lines := strings.Split(s, "\n")
	if e.top >= len(lines) {
		return "", nil
	}
	row, _, _ := strings.Cut(lines[e.top], "│")
	return strings.TrimRight(row, " "), nil
}

func (e *echoDriver) Reset(ctx context.Context) error {
	if _, err := e.o.run(ctx, "send-keys", "-l", "\x1bc"); err != nil {
		return err
	}
	return latency.WaitBlank(ctx, e)
}

// ClowderKeys measures n keystrokes through the whole clowder stack: outer
// terminal → TUI → the pane's master → cat → host → screen frame → TUI →
// outer terminal.
func ClowderKeys(ctx context.Context, bin string, n int) (latency.Samples, error) {
	w, err := startClowder(ctx, bin, 160, 48, "stty raw -echo; printf cat-ready; exec cat", 0)
	if err != nil {
		return nil, err
	}
	defer w.close()
	if err := w.o.waitFor(ctx, "cat-ready"); err != nil {
		return nil, err
	}
	d := &echoDriver{o: w.o, top: 1} // row 0 is the title border
	if err := d.Reset(ctx); err != nil {
		return nil, err
	}
	return latency.RoundTrip(ctx, d, n)
}

// TmuxKeys measures the same through tmux nested in the outer terminal.
func TmuxKeys(ctx context.Context, n int) (latency.Samples, error) {
	in, err := innerTmux(ctx, 1, "stty raw -echo; printf cat-ready; exec cat")
	if err != nil {
		return nil, err
	}
	defer in.stop()
	o, err := startOuter(ctx, os.Environ(), 160, 48, in.attach())
	if err != nil {
		return nil, err
	}
	defer o.close()
	if err := o.waitFor(ctx, "cat-ready"); err != nil {
		return nil, err
	}
	d := &echoDriver{o: o, top: 0}
	if err := d.Reset(ctx); err != nil {
		return nil, err
	}
	return latency.RoundTrip(ctx, d, n)
}
