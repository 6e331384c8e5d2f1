package tui

import (
	"errors"
	"io"
	"os"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"clowder/supervisor/client"
	"clowder/supervisor/proto"
)

// typed is n distinct-looking printable bytes, so a reordering shows.
func typed(n int) string {
	const alphabet = "abcdefghijklmnopqrstuvwxyz0123456789"
	var b strings.Builder
	for i := range n {
		b.WriteByte(alphabet[(i*7+i/len(alphabet))%len(alphabet)])
	}
	return b.String()
}

// fillPipe writes to w until a write misses a short deadline, so that the
// next write to it blocks, and returns how much it wrote.
func fillPipe(t *testing.T, w *os.File) int {
	t.Helper()
	chunk := make([]byte, 4096)
	total := 0
	for {
		if err := w.SetWriteDeadline(time.Now().Add(50 * time.Millisecond)); err != nil {
			t.Fatal(err)
		}
		n, err := w.Write(chunk)
		total += n
		if errors.Is(err, os.ErrDeadlineExceeded) {
			return total
		}
		if err != nil {
			t.Fatal(err)
		}
	}
}

// TestKeysTypedRightAfterASplitReachTheNewPaneInOrder pins issue 7 §1:
// keys typed after C-Space % went to the old pane until the host's spawn
// answer placed the new one, and once it was placed, each key typed
// before its master arrived became a Cmd of its own. Now they wait, in
// order, for the new pane's master.
func TestKeysTypedRightAfterASplitReachTheNewPaneInOrder(t *testing.T) {
	m, _ := twoPanes(t)
	old := m.tree.Focus()
	prefix(t, m)
	_, spawn := m.Update(tea.KeyPressMsg{Code: '%', Text: "%"}) // the host has not answered yet
	typeText(t, m, "echo ")
	var placed tea.Cmd
	for _, msg := range collect(t, spawn) {
		_, cmd := m.Update(msg) // placed, its subscription asked for but not answered
		placed = tea.Batch(placed, cmd)
	}
	if m.tree.Focus() == old {
		t.Fatalf("the new pane did not take the focus: %s", m.tree)
	}
	typeText(t, m, "mk864906")
	settle(t, m, placed)
	if got := streamOf(t, m, m.tree.Focus()).read(t, len("echo mk864906")); got != "echo mk864906" {
		t.Errorf("the new pane got %q, want %q", got, "echo mk864906")
	}
	settle(t, m, m.focus(old))
	typeText(t, m, "Z")
	if got := streamOf(t, m, old).read(t, 1); got != "Z" {
		t.Errorf("the old pane got %q first, want only what was typed to it", got)
	}
}

// collect runs cmd (and the batches it returns) serially and returns the
// messages, without giving them to Update.
func collect(t *testing.T, cmd tea.Cmd) []tea.Msg {
	t.Helper()
	if cmd == nil {
		return nil
	}
	switch msg := cmd().(type) {
	case nil:
		return nil
	case tea.BatchMsg:
		var out []tea.Msg
		for _, c := range msg {
			out = append(out, collect(t, c)...)
		}
		return out
	default:
		return []tea.Msg{msg}
	}
}

// TestKeysKeepTheirOrderWhenTheMasterIsFull pins issue 7 §1: when a write
// to the master missed its deadline, each following key became a Cmd of
// its own, and bubbletea runs Cmds concurrently, so keys raced
// (`echo mk864906` reached the shell as `ceh om8k6940`).
func TestKeysKeepTheirOrderWhenTheMasterIsFull(t *testing.T) {
	m, _ := twoPanes(t)
	s := streamOf(t, m, m.tree.Focus())
	filled := fillPipe(t, s.w)
	p := newProgram(t, m)
	want := typed(300)
	for _, r := range want {
		p.update(tea.KeyPressMsg{Code: r, Text: string(r)})
	}
	got := readAsync(s, filled+len(want))
	p.settle()
	g := <-got
	if len(g) >= filled {
		g = g[filled:]
	}
	if g != want {
		t.Errorf("after what filled its input, the pane got\n%q\nwant\n%q", g[:min(len(g), 400)], want)
	}
}

// TestKeysKeepTheirOrderThroughTheHost pins issue 7 §1 where no master is
// passed (a transport without fd passing): every key was an input call on
// a Cmd of its own, racing the others.
func TestKeysKeepTheirOrderThroughTheHost(t *testing.T) {
	h := &fakeHost{infos: []proto.PaneInfo{running("p1", "left")}, next: 100, noFd: true, t: t}
	m := newTestModelOn(t, h)
	s := streamOf(t, m, "p1")
	p := newProgram(t, m)
	want := typed(300)
	for _, r := range want {
		p.update(tea.KeyPressMsg{Code: r, Text: string(r)})
	}
	got := readAsync(s, len(want))
	p.settle()
	if g := <-got; g != want {
		t.Errorf("the pane got\n%q\nwant\n%q", g, want)
	}
}

// readAsync reads n bytes of what s's pane received on a goroutine of its
// own (the test goroutine runs Update meanwhile); a failed read ends the
// result with the error.
func readAsync(s *fakeStream, n int) <-chan string {
	ch := make(chan string, 1)
	go func() {
		buf := make([]byte, n)
		got := 0
		_ = s.r.SetReadDeadline(time.Now().Add(20 * time.Second))
		for got < n {
			k, err := s.r.Read(buf[got:])
			got += k
			if err != nil {
				ch <- string(buf[:got]) + " [" + err.Error() + "]"
				return
			}
		}
		ch <- string(buf)
	}()
	return ch
}

// A typed key marks the focused pane in the mailbox, so that its echo
// skips the cost gap (TestAnEchoOfTypedInputSkipsTheCostGap); so does a
// paste.
func TestTypingMarksTheFocusedPaneForItsEcho(t *testing.T) {
	m, _ := newTestModel(t, []proto.PaneInfo{running("p1", "one"), running("p2", "two")}, nil)
	id := m.focused().id
	m.Update(tea.KeyPressMsg{Code: 'a', Text: "a"})
	m.mail.mu.Lock()
	typed := m.mail.typed[id]
	delete(m.mail.typed, id)
	m.mail.mu.Unlock()
	if !typed {
		t.Fatalf("a key typed into %s did not mark it", id)
	}
	m.Update(tea.PasteMsg{Content: "pasted"})
	m.mail.mu.Lock()
	defer m.mail.mu.Unlock()
	if !m.mail.typed[id] {
		t.Errorf("a paste into %s did not mark it", id)
	}
}

// A key's write deadline is the key's alone: a long write through the
// same master after that deadline would have passed, which must wait for
// its reader, is not cut short.
func TestAKeyLeavesNoDeadlineOnTheMaster(t *testing.T) {
	r, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	w, err := client.MasterOf(pw)
	_ = pw.Close()
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	q := newInputQueue(nil, "p1", func(string) {})
	defer q.close()
	q.setMaster(w)
	sent := time.Now()
	q.send([]byte("a"))
	key := make([]byte, 1)
	if _, err := io.ReadFull(r, key); err != nil || key[0] != 'a' {
		t.Fatalf("the master got %q (%v), want the key", key, err)
	}
	for time.Since(sent) <= 2*writeDeadline { // until a deadline the key set has passed
		time.Sleep(writeDeadline / 4)
	}
	long := make([]byte, 1<<20) // more than the pipe holds: the write waits for the reader
	read := make(chan error, 1)
	go func() {
		_, err := io.ReadFull(r, make([]byte, len(long)))
		read <- err
	}()
	if n, err := w.Write(long); err != nil {
		w.Close() // the reader waits for bytes that will not come
		t.Fatalf("a write after the key stopped after %d bytes: %v (the key left a deadline)", n, err)
	}
	if err := <-read; err != nil {
		t.Fatal(err)
	}
}
