package host

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"reflect"
	"strings"
	"testing"

	"clowder/persist"
	"clowder/supervisor"
	"clowder/supervisor/proto"
	"clowder/vtgrid"

	"golang.org/x/sys/unix"
)

// TestRingRestoreKeepsSequenceNumbers proves a ring rebuilt from its
// bytes after an upgrade answers the same sequence numbers, and goes on
// from them.
func TestRingRestoreKeepsSequenceNumbers(t *testing.T) {
	r := NewRing(8)
	_, _ = r.Write([]byte("0123456789abc")) // holds 56789abc, seq 5..13
	start, end := r.Bounds()
	buf := make([]byte, 8)
	n, _, _ := r.ReadAt(buf, start)

	back := NewRing(8)
	back.restore(buf[:n], end)
	if s, e := back.Bounds(); s != start || e != end {
		t.Fatalf("restored bounds %d..%d; want %d..%d", s, e, start, end)
	}
	_, _ = back.Write([]byte("de"))
	got := make([]byte, 8)
	n, from, next := back.ReadAt(got, 9)
	if string(got[:n]) != "9abcde" || from != 9 || next != 15 {
		t.Fatalf("read from 9: %q from %d next %d; want \"9abcde\" from 9 next 15", got[:n], from, next)
	}
}

// TestReadStateRefusesWhatItCannotRead proves a new image checks the
// state before taking anything over: garbage and another format are
// refused with an error saying which.
func TestReadStateRefusesWhatItCannotRead(t *testing.T) {
	mem, err := supervisor.NewStateFile("test")
	if err != nil {
		t.Skip(err) // not Linux: no upgrade in place
	}
	defer mem.Close()
	if _, err := mem.WriteString("not a state"); err != nil {
		t.Fatal(err)
	}
	if _, err := readState(mem); err == nil || !strings.Contains(err.Error(), "not an upgrade state") {
		t.Fatalf("garbage: %v; want it refused as not a state", err)
	}
	other, err := supervisor.NewStateFile("test")
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	if err := encodeState(other, &handover{Format: StateFormat() + 1}); err != nil {
		t.Fatal(err)
	}
	if _, err := readState(other); err == nil || !strings.Contains(err.Error(), fmt.Sprintf("state format %d", StateFormat()+1)) {
		t.Fatalf("another format: %v; want it refused naming the format", err)
	}
}

// TestUpgradeRefusedBeforeAnythingStops proves that a binary failing the
// format check leaves subscriptions open: the check comes first.
func TestUpgradeRefusedBeforeAnythingStops(t *testing.T) {
	th := startHost(t)
	p := th.spawnFake(th.dial(), "sleep")
	c := th.dialClient()
	sub, err := c.Subscribe(context.Background(), proto.SubscribeReq{Pane: p.ID, Raw: true})
	if err != nil {
		t.Fatal(err)
	}
	defer sub.Close()
	next := StateFormat() + 1
	bin := t.TempDir() + "/next-format"
	if err := os.WriteFile(bin, []byte(fmt.Sprintf("#!/bin/sh\necho %d\n", next)), 0o755); err != nil {
		t.Fatal(err)
	}
	err = c.Upgrade(context.Background(), bin)
	var e *proto.ErrorReply
	if !errors.As(err, &e) || !strings.Contains(e.Message, fmt.Sprintf("reads state format \"%d\"", next)) {
		t.Fatalf("upgrade to a format-%d binary: %v; want it refused naming the format", next, err)
	}
	if sub.Err() != nil {
		t.Fatalf("the subscription ended: %v; a refused upgrade must leave it open", sub.Err())
	}
}

// upgradeStreams are programs' outputs an upgrade may fall in the middle
// of, each with where it is cut.
var upgradeStreams = []struct {
	name string
	in   string
	cut  int // < 0: counted from the end
}{
	{"an app in the alternate screen", "shell$ ls\r\nfile\r\n\x1b7\x1b[?1049h\x1b[2;4r\x1b(0\x1b[2;1Hlqqk\x1b[1;32m\x1b[3;5H", -1},
	{"its main screen comes back", "shell$ ls\r\nfile\r\n\x1b[?1049h\x1b[2Jfull screen\x1b[?1049l\x1b[Kback", -9},
	{"a saved cursor and its pen", "\x1b[5;7H\x1b[4;31m\x1b7\x1b[H\x1b[0mhome\x1b8saved", -5},
	{"a scroll region", "\x1b[2;3r\x1b[3;1Ha\nb\nc\nd", -3},
	{"line drawing in G1", "\x1b)0\x0elqk\x0fx\x0elqk", -4},
	{"a pending wrap", "\x1b[1;10H" + strings.Repeat("x", 11) + "y", -1},
	{"modes", "\x1b[?1h\x1b=\x1b[?2004h\x1b[?1002h\x1b[?1006h\x1b[?1004h\x1b[4h\x1b[?25l\x1b[?6h\x1b[?7l\x1b[5 q\x1b[>1u", -1},
	{"tab stops", "\x1b[3g\x1b[1;4H\x1bH\x1b[1;9H\x1bH\r\ta\tb", -3},
	{"in the middle of an escape sequence", "ab\x1b[38;5;1mcd", -6},
	{"in the middle of a UTF-8 character", "ab\u4e16cd", -4},
	{"in the middle of a title", "\x1b]2;a long title\x07x", -8},
	{"queries after the cut", "\x1b[?1049h\x1b[3;5H\x1b[?2004h\x1b[6n\x1b[?2004$p", -12},
}

// TestUpgradeCarriesTheWholeTerminal proves that a pane's screen handed
// over by an upgrade goes on as if nothing happened: fed the rest of the
// program's output, it shows the same cells, scrollback, cursor and modes
// as a terminal that saw all of it, and answers the same queries.
// Regression: the screen used to travel as a repaint, which lost the main
// screen behind an alternate one, the saved cursor, the scroll region,
// charsets, tab stops, modes, the pen and a half-read sequence.
func TestUpgradeCarriesTheWholeTerminal(t *testing.T) {
	for _, s := range upgradeStreams {
		cut := s.cut
		if cut < 0 {
			cut += len(s.in)
		}
		var oldReplies, newReplies []byte
		opts := func(r *[]byte) vtgrid.Options {
			return vtgrid.Options{ScrollbackLines: 100, Reply: func(b []byte) { *r = append(*r, b...) }}
		}
		old := vtgrid.New(20, 5, opts(&oldReplies))
		_, _ = old.Write([]byte(s.in[:cut]))
		fresh := vtgrid.New(20, 5, opts(&newReplies))
		if err := fresh.RestoreState(handTerm(old)); err != nil {
			t.Fatalf("%s: %v", s.name, err)
		}
		oldReplies, newReplies = nil, nil
		_, _ = old.Write([]byte(s.in[cut:]))
		_, _ = fresh.Write([]byte(s.in[cut:]))
		if diff := termDiff(old, fresh); diff != "" || !bytes.Equal(oldReplies, newReplies) {
			t.Errorf("%s: after the upgrade %s; replies %q, want %q", s.name, diff, newReplies, oldReplies)
		}
	}
}

// termDiff says how got differs from want, as far as clients can see.
func termDiff(want, got *vtgrid.Terminal) string {
	ws, gs := want.SnapshotScrollback(-1), got.SnapshotScrollback(-1)
	wx, wy, wv := ws.Cursor()
	gx, gy, gv := gs.Cursor()
	switch {
	case gs.ANSI() != ws.ANSI():
		return fmt.Sprintf("the screen is\n%q\nwant\n%q", gs.ANSI(), ws.ANSI())
	case gs.HistoryANSI() != ws.HistoryANSI():
		return fmt.Sprintf("the scrollback is\n%q\nwant\n%q", gs.HistoryANSI(), ws.HistoryANSI())
	case gx != wx || gy != wy || gv != wv:
		return fmt.Sprintf("the cursor is at %d,%d (visible %v), want %d,%d (%v)", gx, gy, gv, wx, wy, wv)
	case gs.Modes() != ws.Modes():
		return fmt.Sprintf("the modes are %+v, want %+v", gs.Modes(), ws.Modes())
	case gs.Title() != ws.Title():
		return fmt.Sprintf("the title is %q, want %q", gs.Title(), ws.Title())
	}
	return ""
}

// TestLaunchTravelsThroughTheState proves a pane's launch (argv,
// environment, the secret-argv permission) comes out of the handed state
// as it went in, an empty environment staying empty and the host's own
// staying the host's (the new image's).
func TestLaunchTravelsThroughTheState(t *testing.T) {
	for _, l := range []*launch{
		nil,
		{argv: []string{"sh", "-c", "echo $X"}, env: []string{"X=1", "TERM=xterm"}, allowSecret: true},
		{argv: []string{"env"}, env: []string{}},
		{argv: []string{"env"}},
	} {
		b, err := json.Marshal(struct {
			Launch *launchHanded `json:"launch"`
		}{handLaunch(l)})
		if err != nil {
			t.Fatal(err)
		}
		var ph paneHanded
		if err := json.Unmarshal(b, &ph); err != nil {
			t.Fatal(err)
		}
		got := ph.Launch.launch()
		if !reflect.DeepEqual(got, l) || l != nil && (got.env == nil) != (l.env == nil) {
			t.Errorf("launch %+v came back as %+v", l, got)
		}
	}
}

// TestUpgradeFromABinaryWithoutTerminalStates pins the upgrade from the
// build before terminal states (same format 1, whose state has only the
// repaint, `screen`) and to it: the rings come first so such a reader
// finds them where it did, and a pane handed without a terminal state, or
// with one this vtgrid does not read, is painted from its screen. Bumping
// the format instead made the next upgrade from the running build refused,
// so that switching to it meant stopping the host and every agent.
func TestUpgradeFromABinaryWithoutTerminalStates(t *testing.T) {
	mem, err := supervisor.NewStateFile("test")
	if err != nil {
		t.Skip(err) // not Linux: no upgrade in place
	}
	defer mem.Close()
	h, err := New(Options{Paths: persist.Paths{RuntimeDir: t.TempDir(), StateDir: t.TempDir()}, Config: persist.DefaultConfig(), Build: "test", IdleExit: -1})
	if err != nil {
		t.Fatal(err)
	}
	old := vtgrid.New(20, 5, vtgrid.Options{ScrollbackLines: 100})
	_, _ = old.Write([]byte("one\r\ntwo\r\n\x1b[1;31mred\x1b[m three\r\nfour\r\nfive\r\nsix"))
	st := &handover{Format: StateFormat()}
	for i, out := range []string{"ring of p1", "and the ring of p2"} {
		r := NewRing(64)
		_, _ = r.Write([]byte(out))
		_, end := r.Bounds()
		st.Panes = append(st.Panes, paneHanded{Rec: persist.PaneRecord{ID: fmt.Sprintf("p%d", i+1), Kind: persist.KindRun, State: persist.StateRunning}, Ran: true, RingEnd: end, RingLen: len(out),
			Screen: paintTerminal(old), Term: handTerm(old)})
		st.Panes[i].TermLen = len(st.Panes[i].Term)
		st.rings = append(st.rings, r)
	}
	if err := encodeState(mem, st); err != nil {
		t.Fatal(err)
	}
	got, err := readState(mem)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"ring of p1", "and the ring of p2"} { // as a reader without terminal states reads them
		b := make([]byte, len(want))
		if _, err := io.ReadFull(got.blobs, b); err != nil || string(b) != want {
			t.Fatalf("ring read as the previous build reads it: %q, %v; want %q", b, err, want)
		}
	}
	for _, term := range [][]byte{nil, []byte("\x7fnot a state of this version")} {
		p := newPaneSized(h, persist.PaneRecord{ID: "p1"}, 64, 20, 5)
		restoreTerm(p, &paneHanded{Rec: p.rec, Screen: paintTerminal(old), Term: term})
		if diff := termDiff(old, p.term); diff != "" {
			t.Errorf("handed with terminal state %q: %s", term, diff)
		}
	}
}

// TestUpgradeCarriesTheHostsColors: the colours the newest client told
// the host go with the upgrade, so a pane started after it answers colour
// queries with them; they stayed behind and new panes answered with the
// defaults until the TUI happened to connect again.
func TestUpgradeCarriesTheHostsColors(t *testing.T) {
	mem, err := supervisor.NewStateFile("test")
	if err != nil {
		t.Skip(err) // not Linux: no upgrade in place
	}
	defer mem.Close()
	th := newTestHost(t)
	th.serve(persist.DefaultConfig())
	h := th.host
	told := vtgrid.Colors{Foreground: vtgrid.RGBColor(1, 2, 3), Background: vtgrid.RGBColor(250, 250, 240)}
	told.Palette[4] = vtgrid.RGBColor(9, 9, 9)
	h.setColors(told)
	st, err := h.freeze()
	st.release() // as after a failed exec: the host carries on
	if err != nil {
		t.Fatal(err)
	}
	if err := encodeState(mem, st); err != nil {
		t.Fatal(err)
	}
	got, err := readState(mem)
	if err != nil {
		t.Fatal(err)
	}
	if got.Colors != told {
		t.Errorf("colours after the upgrade %+v; want %+v", got.Colors, told)
	}
}

// TestFailedUpgradeLeavesTheListenerNonBlocking pins a bug: the upgrade
// took the listening socket's descriptor number with File().Fd(), which
// made it blocking (the dup shares the listener's file description), so
// after a failed exec accept blocked in the kernel and the host could not
// stop until a client happened to connect (3 stops in 8 hung).
func TestFailedUpgradeLeavesTheListenerNonBlocking(t *testing.T) {
	th := newTestHost(t)
	th.serve(persist.DefaultConfig())
	st, err := th.host.freeze()
	st.release() // as after a failed exec
	if err != nil {
		t.Fatal(err)
	}
	raw, err := th.host.ln.SyscallConn()
	if err != nil {
		t.Fatal(err)
	}
	var flags int
	_ = raw.Control(func(fd uintptr) { flags, err = unix.FcntlInt(fd, unix.F_GETFL, 0) })
	if err != nil || flags&unix.O_NONBLOCK == 0 {
		t.Fatalf("listener flags %#x (%v): not non-blocking after a failed upgrade", flags, err)
	}
	th.dial().call(&proto.ListReq{}) // and it serves on
}
