package tui

import (
	"os"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/creack/pty"
)

// sizedTerminal is testTerminal with the PTY's master, to resize it.
func sizedTerminal(t *testing.T) (*terminal, *writeLog, *os.File) {
	t.Helper()
	ptm, tty := rawPTY(t)
	if err := pty.Setsize(ptm, &pty.Winsize{Cols: 80, Rows: 24}); err != nil {
		t.Fatal(err)
	}
	log, clk := &writeLog{}, newFakeClock()
	term, err := startTerminal(tty, tty, log, []string{"TERM=xterm-256color"}, clk)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		go clk.advance(time.Hour) // a loop asleep on the clock wakes up to close
		term.close()
	})
	return term, log, ptm
}

// Issue 12: every frame asked the terminal its size (an ioctl before each
// echo's write), though followSize learns every change on SIGWINCH. A
// size the terminal has not signalled yet is not seen by a frame: the
// echo is still the key alone, no clear and no whole redraw.
func TestAFrameDoesNotAskTheTerminalItsSize(t *testing.T) {
	term, log, ptm := sizedTerminal(t)
	showAndWait(t, term, log, shellFrame("$ "))
	if err := pty.Setsize(ptm, &pty.Winsize{Cols: 100, Rows: 30}); err != nil {
		t.Fatal(err)
	}
	f := shellFrame("$ a")
	n := log.count()
	term.show(f.view, f.cells, damage{rows: []int{0}})
	waitUntil(t, "the echo written", func() bool { return log.count() > n })
	if got := string(log.last()); got != "a" {
		t.Errorf("an echo after an unsignalled resize wrote %q, want %q", got, "a")
	}
}

// A resize is still followed: on SIGWINCH followSize tells the loop the
// new size, and the next frame, even an echo's, clears the terminal and
// draws every row at that size.
func TestAResizeIsFollowedOnSIGWINCH(t *testing.T) {
	term, log, ptm := sizedTerminal(t)
	showAndWait(t, term, log, shellFrame("$ "))
	var mu sync.Mutex
	var told []tea.WindowSizeMsg
	done := make(chan struct{})
	followed := make(chan struct{})
	go func() {
		defer close(followed)
		term.followSize(func(m tea.Msg) {
			mu.Lock()
			defer mu.Unlock()
			told = append(told, m.(tea.WindowSizeMsg))
		}, done)
	}()
	t.Cleanup(func() { close(done); <-followed })
	if err := pty.Setsize(ptm, &pty.Winsize{Cols: 100, Rows: 30}); err != nil {
		t.Fatal(err)
	}
	want := tea.WindowSizeMsg{Width: 100, Height: 30}
	waitUntil(t, "the new size told", func() bool {
		_ = syscall.Kill(os.Getpid(), syscall.SIGWINCH) // again until followSize, maybe not yet listening, hears one
		mu.Lock()
		defer mu.Unlock()
		return len(told) > 0 && told[len(told)-1] == want
	})
	f := shellFrame("$ a")
	n := log.count()
	term.show(f.view, f.cells, damage{rows: []int{0}})
	waitUntil(t, "the frame written", func() bool { return log.count() > n })
	got := string(log.last())
	term.drawMu.Lock()
	w, h := term.scr.w, term.scr.h
	term.drawMu.Unlock()
	if !strings.Contains(got, "\x1b[2J") || w != 100 || h != 30 {
		t.Errorf("the frame after a resize wrote %q at %dx%d, want a clear and the whole screen at 100x30", got, w, h)
	}
}
