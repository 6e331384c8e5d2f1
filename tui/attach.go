package tui

// This file is `clowder attach PANE`: one pane, raw, in this terminal, like
// dtach. The pane's current screen is drawn from one screen frame, then raw
// output streams from exactly that frame's sequence number (no byte lost or
// repeated); keystrokes go as they are to the PTY master the host passed,
// so the outer terminal is put in the pane's input modes first. Ctrl-\
// detaches; the pane keeps running. When the pane exits, attach shows the
// rest of its output, says how it ended and returns.
//
// How to detach is said at start in reverse video on the bottom row, over
// the pane's screen; the row is painted back from the first frame before
// the first output is written, at the first key, or after hintTTL, so the
// pane's screen is never left altered.
//
// Goroutines: the keys goroutine reads the terminal until the detach key
// or a read error (after the pane exits it stays in its read until the
// process ends); followSize ends with Attach. Everything written to the
// terminal is written by Attach's own goroutine.

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"time"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/term"

	"clowder/panes"
	"clowder/persist"
	"clowder/supervisor/client"
	"clowder/supervisor/proto"
)

// detachKey is Ctrl-\ as a plain byte and as the kitty keyboard protocol
// sends it (when the pane turned that protocol on).
var detachKeys = [][]byte{{0x1c}, []byte("\x1b[92;5u")}

// ErrDetached ends Attach when the user pressed the detach key.
var ErrDetached = errors.New("detached")

// Time limits of an attach session.
const (
	hintTTL   = 3 * time.Second // how long the detach hint shows at most
	exitDrain = 2 * time.Second // how long output still due after the exit is waited for
)

// Attach runs the attach session until detach, the pane's exit, or ctx's
// end. When r's connection is lost (the host died) or the host upgrades,
// attach keeps the pane's master, connects again (starting a host), hands
// the master back and goes on (attach_escrow.go).
func Attach(ctx context.Context, r *client.Redialer, pane string, in *os.File, out io.Writer) error {
	c := r.Client()
	// The pane takes this terminal's size first, so the frame drawn fits it.
	if sz, ok := attachSize(in); ok {
		_ = c.Resize(ctx, pane, uint16(sz.Cols), uint16(sz.Rows)) // best effort: an exited pane keeps its size
	}
	l, err := openLink(ctx, c, pane)
	if err != nil {
		return err
	}
	s := newSession(r, pane, in, out, l)
	defer s.close()
	if l.master == nil {
		return fmt.Errorf("attach %s: the host passed no terminal (is the pane running?)", pane)
	}
	restore, err := enterRaw(in, out, l.first)
	if err != nil {
		return err
	}
	defer func() { restore(s.ending(pane)) }()
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	// Before copyKeys reads in (attach_colors.go); keys typed meanwhile,
	// the detach key included, count as typed.
	if err := passOuterColors(ctx, c, in, out, s.master); err != nil {
		s.keys <- err
	} else {
		s.showHint(pane)
		s.startKeys()
	}
	go followSize(ctx, r, pane, in)
	return s.run(ctx)
}

// link is what attach holds on one connection: the pane's events, its
// identity, one full frame and the raw and screen subscription from that
// frame's sequence number, with the master it passed.
type link struct {
	events *client.Subscription
	sub    *client.Subscription
	info   proto.PaneInfo
	first  *proto.ScreenFrame
	master *client.Master // nil when the host passed none; the session owns it
}

// openLink opens a link to pane on c. Events first: an exit after the raw
// subscription is not missed.
func openLink(ctx context.Context, c *client.Client, pane string) (*link, error) {
	l := &link{}
	if err := l.open(ctx, c, pane); err != nil {
		l.close()
		return nil, err
	}
	return l, nil
}

// open fills l in; what it opened before a failure is for the caller to
// close.
func (l *link) open(ctx context.Context, c *client.Client, pane string) error {
	var err error
	if l.events, err = c.Events(ctx, pane); err != nil {
		return err
	}
	infos, err := c.List(ctx, pane)
	if err != nil {
		return err
	}
	if len(infos) == 1 {
		l.info = infos[0]
	}
	if l.first, err = firstFrame(ctx, c, pane); err != nil {
		return err
	}
	l.sub, err = c.Subscribe(ctx, proto.SubscribeReq{Pane: pane, Raw: true, Screen: true, FromSeq: l.first.Seq, WantFd: true})
	if err != nil {
		return err
	}
	l.master, l.sub.Master = l.sub.Master, nil // kept past the subscription's end: the escrow
	return nil
}

// close ends the link's subscriptions (not its master).
func (l *link) close() {
	if l.events != nil {
		_ = l.events.Close() // best effort: the host may be gone
	}
	if l.sub != nil {
		_ = l.sub.Close() // best effort: the host may be gone
	}
}

// firstFrame takes one full screen frame of the pane.
func firstFrame(ctx context.Context, c *client.Client, pane string) (*proto.ScreenFrame, error) {
	s, err := c.Subscribe(ctx, proto.SubscribeReq{Pane: pane, Screen: true})
	if err != nil {
		return nil, err
	}
	defer s.Close()
	for m := range s.C {
		if f, ok := m.(*proto.ScreenFrame); ok && f.Full {
			return f, nil
		}
	}
	return nil, fmt.Errorf("attach %s: no screen from the host: %v", pane, s.Err())
}

// enterRaw puts the terminal in raw mode and in the pane's state: its
// screen, cursor and input modes. The returned func undoes both and
// prints the session's last line.
func enterRaw(in *os.File, out io.Writer, f *proto.ScreenFrame) (func(last string), error) {
	st, err := term.MakeRaw(in.Fd())
	if err != nil {
		return nil, fmt.Errorf("attach: this is not a terminal: %w", err)
	}
	io.WriteString(out, drawFrame(f)+modesOn(f.Modes))
	return func(last string) {
		io.WriteString(out, modesOff(f.Modes)+"\x1b[0m\r\n"+last+"\r\n")
		_ = term.Restore(in.Fd(), st) // best effort: the terminal may be gone
	}, nil
}

// copyKeys sends keystrokes to the master until the detach key; the first
// read signals typed.
func copyKeys(in io.Reader, master io.Writer, typed chan<- struct{}) error {
	buf := make([]byte, 4096)
	for {
		n, err := in.Read(buf)
		if err != nil {
			return err
		}
		select {
		case typed <- struct{}{}:
		default:
		}
		if err := passKeys(buf[:n], master); err != nil {
			return err
		}
	}
}

// passKeys writes keys to the master up to a detach key, and then returns
// ErrDetached.
func passKeys(b []byte, master io.Writer) error {
	for _, k := range detachKeys {
		if i := bytes.Index(b, k); i >= 0 {
			_, _ = master.Write(b[:i]) // what was typed before the detach key
			return ErrDetached
		}
	}
	if _, err := master.Write(b); err != nil {
		return fmt.Errorf("write to the pane: %w", err)
	}
	return nil
}

// attachSize is the terminal's size within the pane limits: a terminal
// wider than panes.MaxCols, or over MaxCells, would be refused by the host
// and leave the pane at its old size.
func attachSize(in *os.File) (persist.Size, bool) {
	w, h, err := term.GetSize(in.Fd())
	if err != nil {
		return persist.Size{}, false
	}
	return panes.ClampSize(persist.Size{Cols: w, Rows: h}), true
}

// followSize passes the terminal's size to the pane now and on SIGWINCH,
// over r's current connection.
func followSize(ctx context.Context, r *client.Redialer, pane string, in *os.File) {
	winch := make(chan os.Signal, 1)
	signal.Notify(winch, syscall.SIGWINCH)
	defer signal.Stop(winch)
	for {
		if sz, ok := attachSize(in); ok {
			_ = r.Client().Resize(ctx, pane, uint16(sz.Cols), uint16(sz.Rows)) // best effort: a failed resize leaves the old size
		}
		select {
		case <-ctx.Done():
			return
		case <-winch:
		}
	}
}

// drawFrame renders a full frame: clear, every row with its styles (painted
// as the TUI paints a pane, render.go), the cursor where the pane has it.
func drawFrame(f *proto.ScreenFrame) string {
	cv := lipgloss.NewCanvas(int(f.Cols), int(f.Rows))
	for _, l := range f.Lines {
		paintCells(cv, 0, int(l.Y), int(f.Cols), l.Cells, nil)
	}
	var b strings.Builder
	if f.Modes.Flags&proto.ModeAltScreen != 0 {
		b.WriteString("\x1b[?1049h")
	}
	b.WriteString("\x1b[0m\x1b[H\x1b[2J")
	b.WriteString(strings.ReplaceAll(cv.Render(), "\n", "\r\n")) // the terminal is raw: no CR for LF
	b.WriteString("\x1b[0m\x1b[" + strconv.Itoa(int(f.Cursor.Y)+1) + ";" + strconv.Itoa(int(f.Cursor.X)+1) + "H")
	if !f.Cursor.Visible {
		b.WriteString("\x1b[?25l")
	}
	return b.String()
}

// modesOn puts the outer terminal in the pane's input modes, so the bytes
// it sends for keys, pastes and the mouse are what the pane expects.
func modesOn(m proto.FrameModes) string {
	var b bytes.Buffer
	for _, x := range inputModes(m) {
		b.WriteString("\x1b[?" + x + "h")
	}
	if m.Flags&proto.ModeAppKeypad != 0 {
		b.WriteString("\x1b=")
	}
	if m.KittyKeys != 0 {
		b.WriteString("\x1b[>" + strconv.Itoa(int(m.KittyKeys)) + "u")
	}
	if m.ModifyOtherKeys != 0 {
		b.WriteString("\x1b[>4;" + strconv.Itoa(int(m.ModifyOtherKeys)) + "m")
	}
	return b.String()
}

// modesOff undoes modesOn and leaves the alternate screen.
func modesOff(m proto.FrameModes) string {
	var b bytes.Buffer
	for _, x := range inputModes(m) {
		b.WriteString("\x1b[?" + x + "l")
	}
	b.WriteString("\x1b>\x1b[<u\x1b[>4;0m\x1b[?25h")
	if m.Flags&proto.ModeAltScreen != 0 {
		b.WriteString("\x1b[?1049l")
	}
	return b.String()
}

// inputModes lists the DEC private modes to mirror.
func inputModes(m proto.FrameModes) []string {
	var out []string
	add := func(on bool, mode string) {
		if on {
			out = append(out, mode)
		}
	}
	add(m.Flags&proto.ModeAppCursor != 0, "1")
	add(m.Flags&proto.ModeBracketedPaste != 0, "2004")
	add(m.Flags&proto.ModeFocusReport != 0, "1004")
	mouse := []string{"", "9", "1000", "1002", "1003"}
	add(m.Mouse > 0 && int(m.Mouse) < len(mouse), mouse[min(int(m.Mouse), len(mouse)-1)])
	enc := []string{"", "1005", "1006", "1015"}
	add(m.MouseEncoding > 0 && int(m.MouseEncoding) < len(enc), enc[min(int(m.MouseEncoding), len(enc)-1)])
	return out
}
