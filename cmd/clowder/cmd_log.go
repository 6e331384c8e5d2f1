package main

// clowder log and clowder poll: a pane's output as text or raw bytes.
// Text is the raw output with escape sequences removed
// (supervisor.TextFilter); `capture` is the screen as the pane shows it.

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"clowder/persist"
	"clowder/supervisor/client"
	"clowder/supervisor/proto"
)

// logOpts are the flags of `clowder log`.
type logOpts struct {
	tail   int
	follow bool
	raw    bool
}

func newLog(a *app) *cobra.Command {
	var o logOpts
	c := &cobra.Command{
		Use:               "log PANE [--tail N] [--follow] [--raw]",
		Short:             "print the pane's output as text (escape sequences removed) or raw bytes",
		Args:              usage(exactArgs(1, "one PANE"), paneOperand),
		ValidArgsFunction: completePanes(a),
		RunE: func(cmd *cobra.Command, args []string) error {
			if o.tail < 0 {
				return usagef("--tail %d: give a number of lines, 0 or more", o.tail)
			}
			ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			return a.withClient(ctx, false, func(c *client.Client) error {
				err := o.run(ctx, a, c, args[0])
				if o.follow && errors.Is(err, context.Canceled) && cmd.Context().Err() == nil {
					return nil // Ctrl-C ends a follow normally
				}
				return err
			})
		},
	}
	c.Flags().IntVar(&o.tail, "tail", 0, "only the last N lines (with --raw: the last N lines' bytes)")
	c.Flags().BoolVarP(&o.follow, "follow", "f", false, "keep printing new output until the pane exits (or Ctrl-C)")
	c.Flags().BoolVar(&o.raw, "raw", false, "print the raw bytes, escape sequences and all")
	return c
}

// run prints the history (all of it, or its tail), then follows.
func (o *logOpts) run(ctx context.Context, a *app, c *client.Client, pane string) error {
	out := newOutputPrinter(a, o.raw)
	var hist bytes.Buffer
	var w io.Writer = a.stdout
	if o.tail > 0 {
		w = &hist // only the tail is printed, once the history is in
	}
	res, err := waitOutput(ctx, a, c, pane, 0, 0, func(ch *proto.OutputChunk) error { // resumes across an upgrade
		return out.chunk(w, ch)
	})
	if err != nil {
		return err
	}
	if _, err := a.stdout.Write(client.LastLines(hist.Bytes(), o.tail)); err != nil || !o.follow {
		return err
	}
	return followOutput(ctx, a, c, pane, res.Next, out)
}

// maxResumes bounds how often one follow connects again without getting
// a byte in between.
const maxResumes = 20

// followOutput prints the pane's output from seq until it exits.
func followOutput(ctx context.Context, a *app, c *client.Client, pane string, seq uint64, out *outputPrinter) error {
	_, nc, err := followResuming(ctx, a, c, pane, seq, nil, func(ch *proto.OutputChunk) error { return out.chunk(a.stdout, ch) })
	if nc != c {
		_ = nc.Close() // best effort: the follow is over
	}
	return err
}

// followResuming reads the pane's output from seq until it exits, giving
// each chunk to emit. When the host upgrades in place (or the connection
// drops while a host still answers the socket), it connects again and
// resumes from the sequence number it reached: nothing is lost or given
// twice. It returns the last read's result and the client it ended on (c,
// or a new one the caller closes). rejoin, if set, is called with each new
// connection before the read resumes on it (and before the connection it
// replaces is closed), and fails as a read would.
func followResuming(ctx context.Context, a *app, c *client.Client, pane string, seq uint64, rejoin func(*client.Client) error, emit func(*proto.OutputChunk) error) (client.ReadResult, *client.Client, error) {
	cur := c
	var replaced *client.Client // closed once its successor is rejoined
	for tries := 0; ; tries++ {
		var res client.ReadResult
		var err error
		if cur != c && rejoin != nil {
			err = rejoin(cur)
		}
		if replaced != nil {
			_ = replaced.Close() // best effort: replaced
			replaced = nil
		}
		if err == nil {
			res, err = cur.ReadOutput(ctx, pane, client.ReadOptions{From: seq, Follow: true}, emit)
		} else {
			res.Next = seq // nothing read: resume from where the last read ended
		}
		if res.Next > seq {
			tries = 0
		}
		if err == nil || ctx.Err() != nil || !(client.Resumable(err) || cur.Err() != nil) || tries >= maxResumes {
			return res, cur, err
		}
		seq = res.Next
		nc, derr := a.dial(ctx)
		if derr != nil {
			return res, cur, fmt.Errorf("%w; and connecting again failed: %v", err, derr)
		}
		if cur != c {
			replaced = cur
		}
		cur = nc
	}
}

// outputPrinter turns chunks into what log and poll print, and reports
// gaps on stderr.
type outputPrinter struct {
	a      *app
	raw    bool
	filter client.TextFilter
	buf    []byte
}

func newOutputPrinter(a *app, raw bool) *outputPrinter { return &outputPrinter{a: a, raw: raw} }

// chunk writes one chunk's bytes (raw or as text) to w.
func (p *outputPrinter) chunk(w io.Writer, ch *proto.OutputChunk) error {
	if ch.Gap > 0 {
		fmt.Fprintf(p.a.stderr, "clowder: %d bytes of output before seq %d are no longer held by the host\n", ch.Gap, ch.Seq)
	}
	data := ch.Data
	if !p.raw {
		p.buf = p.filter.Append(p.buf[:0], data)
		data = p.buf
	}
	_, err := w.Write(data)
	return err
}

func newPoll(a *app) *cobra.Command {
	var wait time.Duration
	var asJSON bool
	c := &cobra.Command{
		Use:               "poll PANE [--wait D]",
		Short:             "print the pane's state and its output since this client's last poll",
		Args:              usage(exactArgs(1, "one PANE"), paneOperand),
		ValidArgsFunction: completePanes(a),
		RunE: func(cmd *cobra.Command, args []string) error {
			if _, err := millis("wait", wait); err != nil {
				return err
			}
			return a.withClient(cmd.Context(), false, func(c *client.Client) error {
				return poll(cmd.Context(), a, c, args[0], wait, asJSON)
			})
		},
	}
	c.Flags().DurationVar(&wait, "wait", 0, "if there is no new output, wait up to D for some (or the pane's exit)")
	c.Flags().BoolVar(&asJSON, "json", false, "print {pane, output, from_seq, to_seq} as JSON")
	return c
}

// pollResult is `poll --json`.
type pollResult struct {
	Pane    proto.PaneInfo `json:"pane"`
	Output  string         `json:"output"`
	FromSeq uint64         `json:"from_seq"`
	ToSeq   uint64         `json:"to_seq"`
}

// poll prints what happened in pane since the last poll and remembers
// where it stopped.
func poll(ctx context.Context, a *app, c *client.Client, pane string, wait time.Duration, asJSON bool) error {
	info, err := onePane(ctx, c, pane)
	if err != nil {
		return err
	}
	p, err := a.paths()
	if err != nil {
		return err
	}
	mark := pollMark{path: filepath.Join(p.StateDir, "poll", info.ID)}
	from := mark.load(info)
	var text bytes.Buffer
	out := newOutputPrinter(a, false)
	res, err := waitOutput(ctx, a, c, info.ID, from, wait, func(ch *proto.OutputChunk) error { return out.chunk(&text, ch) })
	if err != nil {
		return err
	}
	if info, err = onePane(ctx, c, info.ID); err != nil {
		return err
	}
	if err := mark.save(p, info, res.Next); err != nil {
		return err
	}
	if asJSON {
		return writeJSON(a, pollResult{Pane: info, Output: text.String(), FromSeq: from, ToSeq: res.Next})
	}
	fmt.Fprintf(a.stdout, "%s %s %s exit=%s seq=%d\n", safe(info.ID), safe(info.State), dash(info.Attention), exitColumn(info), res.Next)
	_, err = a.stdout.Write(text.Bytes())
	return err
}

// waitOutput reads pane's output from seq, waiting up to wait for new
// bytes (with wait 0: up to its end when it is read). When the host upgrades in place (or the connection drops while a
// host still answers the socket) before anything new came, it connects
// again and waits on for what is left of wait: the answer is the one the
// same poll would have had without the upgrade.
func waitOutput(ctx context.Context, a *app, c *client.Client, pane string, seq uint64, wait time.Duration, emit func(*proto.OutputChunk) error) (client.ReadResult, error) {
	deadline := time.Now().Add(wait)
	for tries := 0; ; tries++ {
		res, err := c.ReadOutput(ctx, pane, client.ReadOptions{From: seq, WaitNew: time.Until(deadline)}, emit)
		if err == nil || ctx.Err() != nil || !(client.Resumable(err) || c.Err() != nil) || tries >= maxResumes {
			return res, err
		}
		if wait > 0 && (res.Next > seq || time.Until(deadline) <= 0) {
			return res, nil // the bytes waited for came, or the wait ran out: as without the upgrade
		}
		seq = res.Next
		nc, derr := a.dial(ctx)
		if derr != nil {
			return res, fmt.Errorf("%w; and connecting again failed: %v", err, derr)
		}
		defer func() { _ = nc.Close() }() // best effort: the poll is over
		c = nc
	}
}

// onePane looks one pane up by id or name.
func onePane(ctx context.Context, c *client.Client, pane string) (proto.PaneInfo, error) {
	list, err := c.List(ctx, pane)
	if err != nil {
		return proto.PaneInfo{}, err
	}
	if len(list) != 1 {
		return proto.PaneInfo{}, fmt.Errorf("no pane %q; see clowder ls", pane)
	}
	return list[0], nil
}

// pollMark is the file that remembers the last polled seq of one pane:
// "SEQ CREATED_MS", so a pane id reused by a new pane starts afresh.
type pollMark struct{ path string }

// load returns the seq to poll from: 0 without a mark or for another pane.
func (m pollMark) load(info proto.PaneInfo) uint64 {
	data, err := persist.ReadPrivate("poll position", m.path, 256) // a fifo, a link: no mark
	if err != nil {
		return 0
	}
	f := strings.Fields(string(data))
	if len(f) != 2 || f[1] != strconv.FormatInt(info.CreatedMS, 10) {
		return 0
	}
	seq, err := strconv.ParseUint(f[0], 10, 64)
	if err != nil || seq > info.Seq {
		return 0
	}
	return seq
}

// save records seq for the pane.
func (m pollMark) save(p persist.Paths, info proto.PaneInfo, seq uint64) error {
	if err := p.EnsureStateDir(); err != nil {
		return err
	}
	if err := m.makeDir(); err != nil {
		return fmt.Errorf("record poll position: %w", err)
	}
	// A plain temp-and-rename: a lost mark only repeats output, so it
	// needs neither fsync nor persist's backup copy. The temporary name is
	// unique so that two polls of one pane never rename each other's file.
	data := fmt.Sprintf("%d %d\n", seq, info.CreatedMS)
	if err := m.replace([]byte(data)); err != nil {
		return fmt.Errorf("record poll position in %s: %w", m.path, err)
	}
	return nil
}

// makeDir makes the marks' directory if it is missing and refuses one
// that is not a real directory: a symlink there would have the marks
// written wherever it points.
func (m pollMark) makeDir() error {
	dir := filepath.Dir(m.path)
	if err := os.Mkdir(dir, 0o700); err != nil && !errors.Is(err, fs.ErrExist) {
		return err
	}
	fi, err := os.Lstat(dir)
	if err != nil {
		return err
	}
	if fi.Mode()&fs.ModeSymlink != 0 {
		return fmt.Errorf("%s is a symbolic link, which clowder does not follow; remove it (clowder makes the directory again)", dir)
	}
	if !fi.IsDir() {
		return fmt.Errorf("%s is not a directory; remove it (clowder makes the directory again)", dir)
	}
	return nil
}

// replace writes data to a fresh temporary file beside the mark and
// renames it over the mark; on failure the temporary file is removed.
func (m pollMark) replace(data []byte) error {
	f, err := os.CreateTemp(filepath.Dir(m.path), "."+filepath.Base(m.path)+".tmp-*")
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), m.path)
	}
	if err != nil {
		_ = os.Remove(f.Name()) // best effort: a stray temp file only wastes a few bytes
	}
	return err
}
