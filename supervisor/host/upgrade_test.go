package host

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"reflect"
	"strings"
	"testing"

	"clowder/supervisor"
	"clowder/supervisor/proto"
	"clowder/vtgrid"
)

// termRows is every row of t, scrollback first, as protocol cells with
// blanks made alike (an unwritten cell and a written space look the same),
// with each row's wrap flag.
func termRows(t *vtgrid.Terminal) []string {
	s := t.Snapshot()
	var out []string
	add := func(row []vtgrid.Cell, wrapped bool) {
		cells := frameCells(row, s.Cols())
		for i := range cells {
			if cells[i].Text == "" {
				cells[i].Text = " "
			}
		}
		out = append(out, fmt.Sprintf("%v %+v", wrapped, cells))
	}
	if oldest, end := t.ScrollbackBounds(); end > oldest {
		rows, wrapped, _ := t.ScrollbackRows(oldest, int(end-oldest))
		for i := range rows {
			add(rows[i], wrapped[i])
		}
	}
	for y := 0; y < s.Rows(); y++ {
		add(s.Row(y), s.Wrapped(y))
	}
	return out
}

// TestPaintTerminalRedrawsScreenScrollbackAndModes proves that the bytes
// an upgrading host hands over for a pane's screen draw, on a fresh
// terminal, the same scrollback and screen (styles and soft wraps
// included), cursor and modes.
func TestPaintTerminalRedrawsScreenScrollbackAndModes(t *testing.T) {
	old := vtgrid.New(20, 5, vtgrid.Options{ScrollbackLines: 1000})
	var in bytes.Buffer
	for i := range 12 {
		fmt.Fprintf(&in, "line %d \x1b[1;31mred\x1b[0m \x1b[48;5;42mbg\x1b[0m\r\n", i)
	}
	in.WriteString(strings.Repeat("w", 47) + "\r\n")       // wraps twice
	in.WriteString("\x1b[?2004h\x1b[?1h\x1b[4 q\x1b[3;7H") // bracketed paste, app cursor, a cursor shape and place
	_, _ = old.Write(in.Bytes())

	fresh := vtgrid.New(20, 5, vtgrid.Options{ScrollbackLines: 1000})
	_, _ = fresh.Write(paintTerminal(old))

	if got, want := termRows(fresh), termRows(old); !reflect.DeepEqual(got, want) {
		t.Fatalf("repainted rows:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	gs, ws := fresh.Snapshot(), old.Snapshot()
	gx, gy, gv := gs.Cursor()
	wx, wy, wv := ws.Cursor()
	if gx != wx || gy != wy || gv != wv || gs.Modes() != ws.Modes() {
		t.Fatalf("cursor %d,%d %v modes %+v; want %d,%d %v modes %+v", gx, gy, gv, gs.Modes(), wx, wy, wv, ws.Modes())
	}
}

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
	bin := t.TempDir() + "/fmt2"
	if err := os.WriteFile(bin, []byte("#!/bin/sh\necho 2\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	err = c.Upgrade(context.Background(), bin)
	var e *proto.ErrorReply
	if !errors.As(err, &e) || !strings.Contains(e.Message, `reads state format "2"`) {
		t.Fatalf("upgrade to a format-2 binary: %v; want it refused naming the format", err)
	}
	if sub.Err() != nil {
		t.Fatalf("the subscription ended: %v; a refused upgrade must leave it open", sub.Err())
	}
}
