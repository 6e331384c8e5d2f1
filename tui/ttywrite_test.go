package tui

import (
	"bytes"
	"strings"
	"sync"
	"testing"

	"github.com/creack/pty"
)

// tryLog is a goroutineLog that can also be tried without blocking; it
// takes at most take bytes of a try (all when take < 0).
type tryLog struct {
	goroutineLog
	mu   sync.Mutex
	take int
}

func (l *tryLog) TryWrite(b []byte) int {
	l.mu.Lock()
	n := len(b)
	if l.take >= 0 {
		n = min(n, l.take)
	}
	l.mu.Unlock()
	_, _ = l.goroutineLog.Write(b[:n])
	return n
}

// tryTerminal is testTerminal writing to a tryLog.
func tryTerminal(t *testing.T, take int) (*terminal, *tryLog) {
	t.Helper()
	ptm, tty := rawPTY(t)
	if err := pty.Setsize(ptm, &pty.Winsize{Cols: 80, Rows: 24}); err != nil {
		t.Fatal(err)
	}
	log := &tryLog{take: take}
	term, err := startTerminal(tty, tty, log, []string{"TERM=xterm-256color"}, &leapClock{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(term.close)
	return term, log
}

// Issue 12: a flood's every frame went from Update to the terminal's
// goroutine (one goroutine hop per frame, the scheduler's idle threads a
// third of the TUI's CPU in a flood). A big frame whose turn has come is
// written by the goroutine that shows it now, when the terminal can be
// tried without blocking.
func TestABigFrameIsWrittenByTheGoroutineThatShowsIt(t *testing.T) {
	term, log := tryTerminal(t, -1)
	n := log.count()
	f := bigFrame("$ a")
	term.canvasMu.Lock()
	term.show(f.view, f.cells, damage{all: true})
	term.canvasMu.Unlock()
	if log.count() != n+1 {
		t.Fatalf("show returned with the big frame not written (%d writes since)", log.count()-n)
	}
	log.goroutineLog.mu.Lock()
	by := log.ids[len(log.ids)-1]
	log.goroutineLog.mu.Unlock()
	if me := goroutineID(); by != me {
		t.Errorf("the big frame was written by goroutine %s, not by %s that showed it", by, me)
	}
	if got := string(log.last()); !strings.Contains(got, "aaaa") {
		t.Errorf("the big frame wrote %q", got)
	}
}

// What the terminal does not take of a big frame at once is written by
// the terminal's goroutine, before anything else: the frame arrives
// whole and in order, and the next frame after it.
func TestWhatTheTerminalDoesNotTakeIsWrittenNext(t *testing.T) {
	term, log := tryTerminal(t, 10)
	start := log.count()
	f := bigFrame("$ a")
	term.canvasMu.Lock()
	term.show(f.view, f.cells, damage{all: true})
	term.canvasMu.Unlock()
	echo := shellFrame("$ ab")
	for y := 1; y < 24; y++ { // as bigFrame left them
		putText(echo.cells, 0, y, 40, strings.Repeat("a", 40), cellStyle(&blankCell))
	}
	term.canvasMu.Lock()
	term.show(echo.view, echo.cells, damage{rows: []int{0}})
	term.canvasMu.Unlock()
	waitUntil(t, "the rest and the echo written", func() bool {
		log.goroutineLog.writeLog.mu.Lock()
		defer log.goroutineLog.writeLog.mu.Unlock()
		return len(bytes.Join(log.writes[start:], nil)) > 0 && bytes.HasSuffix(bytes.Join(log.writes[start:], nil), []byte("b"))
	})
	log.goroutineLog.writeLog.mu.Lock()
	all := bytes.Join(log.writes[start:], nil)
	first := len(log.writes[start])
	log.goroutineLog.writeLog.mu.Unlock()
	if first != 10 {
		t.Errorf("the first write took %d bytes, want the 10 the terminal took", first)
	}
	if !bytes.HasPrefix(all, []byte("\x1b[?2026h")) || !bytes.Contains(all, []byte("\x1b[?2026l")) ||
		bytes.Index(all, []byte("\x1b[?2026l")) > bytes.LastIndex(all, []byte("b")) {
		t.Errorf("the frame and the echo after it arrived as %q", all)
	}
}

// The terminal's own description of the tty never blocks a try: with
// nobody reading the other side, TryWrite takes what fits and returns.
func TestTryWriteNeverWaitsForTheTerminal(t *testing.T) {
	_, tty := rawPTY(t)
	w := openNonBlocking(tty)
	if w == nil {
		t.Skip("no /proc/self/fd here")
	}
	defer w.Close()
	big := bytes.Repeat([]byte("x"), 4<<20)
	n := w.TryWrite(big) // would block forever on a blocking descriptor
	if n <= 0 || n >= len(big) {
		t.Errorf("a try wrote %d of %d bytes nobody reads, want part of them", n, len(big))
	}
}
