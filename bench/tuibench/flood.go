package tuibench

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
	"time"

	"clowder/bench/procstat"
)

// AttachedFlood is a file catted in the focused pane while the UI shows it.
type AttachedFlood struct {
	Bytes              int64
	Wall               time.Duration // from the start signal until the server has read every byte
	ServerCPU, UICPU   time.Duration // from the start signal until the UI stopped drawing
	ServerName, UIName string
}

// MBps is the wall-clock rate.
func (f AttachedFlood) MBps() float64 { return float64(f.Bytes) / 1e6 / f.Wall.Seconds() }

// PerMB is CPU time per megabyte.
func (f AttachedFlood) PerMB(d time.Duration) time.Duration {
	return time.Duration(float64(d) / (float64(f.Bytes) / 1e6))
}

// floodScript waits for a line on a fifo, cats a file, runs a signal
// command and idles; the tty is raw, so the bytes reach the screen as they
// are.
func floodScript(fifo, file, signal string) string {
	return "stty raw -echo; printf flood-ready; read _ < " + shellQuote(fifo) + "; cat " + shellQuote(file) + "; " + signal + "; exec sleep 2147483647"
}

// ClowderAttachedFlood cats file in the TUI's focused pane (the agent pane
// of the default layout, 160x48 outer terminal) and measures the host's and
// the TUI's CPU until the TUI has drawn the end.
func ClowderAttachedFlood(ctx context.Context, bin, file string) (AttachedFlood, error) {
	fifo, cleanup, err := makeFifo()
	if err != nil {
		return AttachedFlood{}, err
	}
	defer cleanup()
	script := floodScript(fifo, file, "true")
	w, err := startClowder(ctx, bin, 160, 48, script, 0)
	if err != nil {
		return AttachedFlood{}, err
	}
	defer w.close()
	if err := w.o.waitFor(ctx, "flood-ready"); err != nil {
		return AttachedFlood{}, err
	}
	ui, err := w.o.panePID(ctx)
	if err != nil {
		return AttachedFlood{}, err
	}
	host, err := w.hostPID(ctx)
	if err != nil {
		return AttachedFlood{}, err
	}
	pane, err := w.floodPane(ctx)
	if err != nil {
		return AttachedFlood{}, err
	}
	done := func() error { return w.waitSeq(ctx, pane, int64(len("flood-ready"))+fileSize(file)) }
	r, err := measureFlood(ctx, fifo, file, ui, host, done)
	r.ServerName, r.UIName = "clowder host", "clowder TUI"
	return r, err
}

// TmuxAttachedFlood does the same in tmux nested in the outer tmux, one
// pane.
func TmuxAttachedFlood(ctx context.Context, file string) (AttachedFlood, error) {
	fifo, cleanup, err := makeFifo()
	if err != nil {
		return AttachedFlood{}, err
	}
	defer cleanup()
	in, err := newInner("clwflood")
	if err != nil {
		return AttachedFlood{}, err
	}
	defer in.stop()
	script := floodScript(fifo, file, in.shellFor("wait-for -S flood-done"))
	if err := in.start(ctx, script); err != nil {
		return AttachedFlood{}, err
	}
	o, err := startOuter(ctx, os.Environ(), 160, 48, in.attach())
	if err != nil {
		return AttachedFlood{}, err
	}
	defer o.close()
	if err := o.waitFor(ctx, "flood-ready"); err != nil {
		return AttachedFlood{}, err
	}
	client, err := o.panePID(ctx)
	if err != nil {
		return AttachedFlood{}, err
	}
	server := in.pid
	waiter := in.cmd(ctx, "wait-for", "flood-done")
	if err := waiter.Start(); err != nil {
		return AttachedFlood{}, err
	}
	r, err := measureFlood(ctx, fifo, file, client, server, waiter.Wait)
	r.ServerName, r.UIName = "tmux server", "tmux client"
	return r, err
}

// measureFlood starts the flood (a line on fifo), waits for done, then
// until the UI has stopped using CPU, and returns the CPU both used.
func measureFlood(ctx context.Context, fifo, file string, ui, server int, done func() error) (AttachedFlood, error) {
	r := AttachedFlood{Bytes: fileSize(file)}
	ui0, err := procstat.CPU(ui)
	if err != nil {
		return r, err
	}
	srv0, err := procstat.CPU(server)
	if err != nil {
		return r, err
	}
	start := time.Now()
	if err := os.WriteFile(fifo, []byte("go\n"), 0); err != nil {
		return r, fmt.Errorf("start the flood: %w", err)
	}
	if err := done(); err != nil {
		return r, fmt.Errorf("wait for the flood's end: %w", err)
	}
	r.Wall = time.Since(start)
	if err := settleCPU(ctx, ui); err != nil {
		return r, err
	}
	ui1, _ := procstat.CPU(ui)
	srv1, _ := procstat.CPU(server)
	r.UICPU, r.ServerCPU = ui1-ui0, srv1-srv0
	return r, nil
}

// settleCPU waits until pid's CPU time stays the same over 200 ms: the UI
// has drawn what it was behind on.
func settleCPU(ctx context.Context, pid int) error {
	last, err := procstat.CPU(pid)
	if err != nil {
		return err
	}
	for {
		select {
		case <-time.After(200 * time.Millisecond): // sampling a CPU counter, in a benchmark
		case <-ctx.Done():
			return ctx.Err()
		}
		now, err := procstat.CPU(pid)
		if err != nil || now == last {
			return err
		}
		last = now
	}
}

func makeFifo() (string, func(), error) {
	dir, err := os.MkdirTemp("", "clwfifo")
	if err != nil {
		return "", nil, err
	}
	fifo := filepath.Join(dir, "go")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		os.RemoveAll(dir)
		return "", nil, fmt.Errorf("make fifo: %w", err)
	}
	return fifo, func() { os.RemoveAll(dir) }, nil
}

func fileSize(file string) int64 {
	st, err := os.Stat(file)
	if err != nil {
		return 0
	}
	return st.Size()
}

// floodPane is the id of the TUI's first pane (the agent pane).
func (w *world) floodPane(ctx context.Context) (string, error) {
	panes, err := w.panes(ctx)
	if err != nil {
		return "", err
	}
	if len(panes) == 0 {
		return "", fmt.Errorf("no pane in clowder ls")
	}
	return panes[0].ID, nil
}

// lsPane is what the bench reads of a pane in clowder ls --json.
type lsPane struct {
	ID        string `json:"id"`
	Seq       int64  `json:"seq"`
	Attention string `json:"attention"`
}

// panes lists the world's panes.
func (w *world) panes(ctx context.Context) ([]lsPane, error) {
	out, err := w.clowder(ctx, "ls", "--json")
	if err != nil {
		return nil, err
	}
	var panes []lsPane
	if err := json.Unmarshal([]byte(out), &panes); err != nil {
		return nil, fmt.Errorf("clowder ls --json: %w", err)
	}
	return panes, nil
}

// waitSeq waits until pane's output reached seq: the host has read (and
// parsed) every byte of the flood. It asks once per 20 ms, each a CLI
// process, which the host's CPU figure includes (about one `ls` per 20 ms).
func (w *world) waitSeq(ctx context.Context, pane string, seq int64) error {
	for {
		panes, err := w.panes(ctx)
		if err != nil {
			return err
		}
		for _, p := range panes {
			if p.ID == pane && p.Seq >= seq {
				return nil
			}
		}
		select {
		case <-time.After(20 * time.Millisecond): // polling the host, in a benchmark
		case <-ctx.Done():
			return fmt.Errorf("pane %s never reached seq %d: %w", pane, seq, ctx.Err())
		}
	}
}
