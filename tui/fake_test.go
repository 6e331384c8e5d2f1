package tui

import (
	"context"
	"fmt"
	"os"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"clowder/panes"
	"clowder/persist"
	"clowder/supervisor/client"
	"clowder/supervisor/proto"
)

// fakeHost records calls and answers them from memory.
type fakeHost struct {
	mu      sync.Mutex
	infos   []proto.PaneInfo
	spawned []proto.SpawnReq
	removed []string
	renamed []string // "pane=name"
	killed  []string
	respawn []proto.RespawnReq
	notes   []string // what Respawn's reply says
	inputs  []proto.InputReq
	resizes []string
	streams []*fakeStream
	history *proto.HistoryRows
	colors  []proto.SetColorsReq // colors_test.go
	next    int
	noFd    bool // the transport passes no fds: input goes through Input
	timers  timers
	t       testing.TB

	spawnHold chan struct{} // when set, Spawn waits until it is closed (a reply still on its way)
	spawnErr  error         // when set, Spawn fails with it

	pastes []proto.PasteReq
	// openPaste is the panes whose split paste is open (a first part
	// without its last), which the real host closes if the connection ends.
	openPaste map[string]bool
	renameErr error // when set, Rename fails with it
}

func (h *fakeHost) List(context.Context) ([]proto.PaneInfo, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]proto.PaneInfo(nil), h.infos...), nil
}

func (h *fakeHost) Spawn(_ context.Context, req proto.SpawnReq) (proto.SpawnedReply, error) {
	h.mu.Lock()
	hold := h.spawnHold
	h.mu.Unlock()
	if hold != nil {
		<-hold
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.spawnErr != nil {
		return proto.SpawnedReply{}, h.spawnErr
	}
	h.next++
	h.spawned = append(h.spawned, req)
	info := proto.PaneInfo{ID: fmt.Sprintf("n%d", h.next), Name: fmt.Sprintf("new%d", h.next),
		Kind: req.Kind, Adapter: req.Adapter, State: "running", Cwd: req.Cwd, Argv: req.Argv}
	h.infos = append(h.infos, info)
	return proto.SpawnedReply{Pane: info}, nil
}

func (h *fakeHost) Subscribe(_ context.Context, pane string, wantFd bool) (Stream, error) {
	s := &fakeStream{c: make(chan proto.Message), pane: pane, hidden: h.noFd}
	if wantFd {
		r, w, err := os.Pipe()
		if err != nil {
			return nil, err
		}
		m, err := client.MasterOf(w)
		if err != nil {
			return nil, err
		}
		s.r, s.w, s.m = r, w, m
	}
	h.mu.Lock()
	h.streams = append(h.streams, s)
	h.mu.Unlock()
	return s, nil
}

func (h *fakeHost) Events(context.Context) (Stream, error) {
	return &fakeStream{c: make(chan proto.Message)}, nil
}

// Input records req and, as the real host does, writes its data to the
// pane's terminal (the pipe of its newest stream), blocking while it is full.
func (h *fakeHost) Input(_ context.Context, req proto.InputReq) error {
	h.mu.Lock()
	h.inputs = append(h.inputs, req)
	w := h.paneTerminalLocked(req.Pane)
	h.mu.Unlock()
	if w == nil {
		return nil
	}
	_, err := w.Write(req.Data)
	return err
}

// paneTerminalLocked is the write end of the pane's terminal (the pipe of
// its newest stream), nil without one. h.mu is held.
func (h *fakeHost) paneTerminalLocked(pane string) *os.File {
	var w *os.File
	for _, s := range h.streams {
		if s.pane == pane && s.w != nil {
			w = s.w
		}
	}
	return w
}

// Paste records req; a part that opens or closes a split paste writes
// its bracket to the pane's terminal, as the real host does for a pane in
// bracketed paste mode, and is kept in openPaste.
func (h *fakeHost) Paste(_ context.Context, req proto.PasteReq) error {
	h.mu.Lock()
	h.pastes = append(h.pastes, req)
	if h.openPaste == nil {
		h.openPaste = map[string]bool{}
	}
	var bracket string
	switch req.Part {
	case proto.PastePartFirst:
		h.openPaste[req.Pane], bracket = true, panes.PasteStart
	case proto.PastePartLast:
		delete(h.openPaste, req.Pane)
		bracket = panes.PasteEnd
	}
	w := h.paneTerminalLocked(req.Pane)
	h.mu.Unlock()
	if w == nil {
		return nil
	}
	_, err := w.Write(append([]byte(bracket), req.Data...))
	return err
}

// pasteOpen says whether pane's split paste is open.
func (h *fakeHost) pasteOpen(pane string) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.openPaste[pane]
}

func (h *fakeHost) Resize(_ context.Context, pane string, cols, rows uint16) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.resizes = append(h.resizes, fmt.Sprintf("%s %dx%d", pane, cols, rows))
	return nil
}

func (h *fakeHost) Kill(_ context.Context, pane string) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.killed = append(h.killed, pane)
	return nil
}

func (h *fakeHost) Remove(_ context.Context, pane string) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.removed = append(h.removed, pane)
	return nil
}

func (h *fakeHost) Rename(_ context.Context, pane, name string) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.renamed = append(h.renamed, pane+"="+name)
	return h.renameErr
}

// Respawn records req and answers with the pane running again.
func (h *fakeHost) Respawn(_ context.Context, req proto.RespawnReq) (proto.RespawnedReply, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.respawn = append(h.respawn, req)
	for i, in := range h.infos {
		if in.ID == req.Pane {
			h.infos[i].State, h.infos[i].ExitReason = "running", ""
			return proto.RespawnedReply{Pane: h.infos[i], Notes: h.notes}, nil
		}
	}
	return proto.RespawnedReply{}, &proto.ErrorReply{Code: proto.CodeNotFound, Message: "no pane " + req.Pane}
}

func (h *fakeHost) History(context.Context, proto.HistoryReq) (*proto.HistoryRows, error) {
	if h.history == nil {
		return &proto.HistoryRows{Cols: 80}, nil
	}
	return h.history, nil
}

func (h *fakeHost) Close() error { return nil }

// fakeStream is a subscription whose master is a pipe the test reads.
type fakeStream struct {
	c      chan proto.Message
	pane   string
	r, w   *os.File
	m      *client.Master // the TUI's copy of w, as a subscription passes it
	hidden bool           // the pipe stands for the PTY but is not passed (noFd)
	once   sync.Once
}

func (s *fakeStream) C() <-chan proto.Message { return s.c }
func (s *fakeStream) Master() *client.Master {
	if s.m == nil || s.hidden {
		return nil
	}
	return s.m
}
func (s *fakeStream) Err() error { return nil }
func (s *fakeStream) Close() error {
	s.once.Do(func() {
		close(s.c)
		if s.w != nil {
			_ = s.w.Close()
			_ = s.m.Close()
		}
	})
	return nil
}

// read returns what the pane received, waiting up to a deadline for n bytes.
func (s *fakeStream) read(t *testing.T, n int) string {
	t.Helper()
	if err := s.r.SetReadDeadline(time.Now().Add(5 * time.Second)); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, n)
	got := 0
	for got < n {
		k, err := s.r.Read(buf[got:])
		if err != nil {
			t.Fatalf("read from pane master after %q: %v", buf[:got], err)
		}
		got += k
	}
	return string(buf)
}

// fakeClipboard is a system clipboard in memory; noTool makes it one
// with no tool installed.
type fakeClipboard struct {
	copied []string
	noTool bool
}

func (c *fakeClipboard) Copy(text string) (bool, error) {
	if c.noTool {
		return false, nil
	}
	c.copied = append(c.copied, text)
	return true, nil
}
func (c *fakeClipboard) Paste() (string, bool, error) {
	if c.noTool {
		return "", false, nil
	}
	return "from clipboard", true, nil
}

// newTestModel builds a model over a fake host with the given host panes,
// an optional saved layout, at 80x24.
func newTestModel(t testing.TB, infos []proto.PaneInfo, cfg func(*persist.Config)) (*Model, *fakeHost) {
	t.Helper()
	h := &fakeHost{infos: infos, next: 100, t: t}
	return newTestModelOn(t, h, cfg), h
}

// newTestModelOn builds a model over h (see newTestModel).
func newTestModelOn(t testing.TB, h *fakeHost, cfg ...func(*persist.Config)) *Model {
	t.Helper()
	c := persist.DefaultConfig()
	c.TUI.DefaultAdapter = ""
	for _, f := range cfg {
		if f != nil {
			f(&c)
		}
	}
	dir := t.TempDir()
	m, err := New(Options{Host: h, Config: c, Paths: persist.Paths{StateDir: dir},
		Adapters: panes.NewAdaptersFromConfig(c, "/bin/sh"), Cwd: "/work", Clipboard: &fakeClipboard{}})
	if err != nil {
		t.Fatal(err)
	}
	m.mail.close() // tests deliver frames themselves; wait returns at once
	// A fake pane's leader runs.
	m.alive = func(int, uint64) bool { return true }
	t.Cleanup(m.Close)
	m.after = h.timers.arm
	m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	settle(t, m, m.startCmd())
	return m
}

// timers records the timers a model arms (Model.after) instead of
// running them; a test fires them with Update.
type timers struct {
	mu    sync.Mutex
	armed []tea.Msg
}

func (r *timers) arm(_ time.Duration, msg tea.Msg) tea.Cmd {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.armed = append(r.armed, msg)
	return nil
}

// take returns the armed timers' messages and forgets them.
func (r *timers) take() []tea.Msg {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := r.armed
	r.armed = nil
	return out
}

// settle runs cmd and every command its messages lead to, feeding each
// message to Update, until nothing is left. Timers (tea.Tick) are run too.
func settle(t testing.TB, m *Model, cmd tea.Cmd) {
	t.Helper()
	queue := []tea.Cmd{cmd}
	for steps := 0; len(queue) > 0; steps++ {
		if steps > 1000 {
			t.Fatal("commands did not settle")
		}
		c := queue[0]
		queue = queue[1:]
		if c == nil {
			continue
		}
		switch msg := c().(type) {
		case nil:
		case tea.BatchMsg:
			queue = append(queue, msg...)
		case tea.QuitMsg:
			m.quitting = true
		default:
			if isTeaInternal(msg) {
				continue
			}
			_, next := m.Update(msg)
			queue = append(queue, next)
		}
	}
}

// isTeaInternal reports bubbletea's own messages (clipboard, etc.) that
// only the program acts on.
func isTeaInternal(msg tea.Msg) bool {
	switch msg.(type) {
	case repeatEndMsg, statusExpiredMsg, clipboardWaitMsg, eventsRetryMsg, startMsg, mailMsg, eventsMsg, subscribedMsg, spawnedMsg, resizedMsg,
		doneMsg, savedMsg, historyMsg, killedAllMsg, clipboardMsg, tea.ClipboardMsg, respawnedMsg, worktreeEndedMsg, reconnectMsg, reconnectedMsg, escrowedMsg, handedOverMsg:
		return false
	}
	return true
}

// press sends one key press (and settles what follows).
func press(t *testing.T, m *Model, k tea.Key) {
	t.Helper()
	_, cmd := m.Update(tea.KeyPressMsg(k))
	settle(t, m, cmd)
}

// typeText presses each rune as a typed key.
func typeText(t *testing.T, m *Model, s string) {
	t.Helper()
	for _, r := range s {
		press(t, m, tea.Key{Code: r, Text: string(r)})
	}
}

// prefix presses the default prefix (C-Space).
func prefix(t *testing.T, m *Model) {
	t.Helper()
	press(t, m, tea.Key{Code: tea.KeySpace, Mod: tea.ModCtrl})
}

// frame sends a full frame of text rows to pane id.
func frame(t *testing.T, m *Model, id string, cols, rows int, modes proto.FrameModes, lines ...string) {
	t.Helper()
	f := &proto.ScreenFrame{Pane: id, Cols: uint16(cols), Rows: uint16(rows), Full: true, Modes: modes,
		Cursor: proto.FrameCursor{Visible: true}}
	for y := 0; y < rows; y++ {
		row := proto.FrameRow{Y: uint16(y)}
		if y < len(lines) {
			for _, r := range lines[y] {
				row.Cells = append(row.Cells, proto.FrameCell{Text: string(r), Width: 1})
			}
			f.Cursor.Y, f.Cursor.X = uint16(y), uint16(len(lines[y]))
		}
		f.Lines = append(f.Lines, row)
	}
	_, cmd := m.Update(mailMsg{frames: map[string]*proto.ScreenFrame{id: f}})
	settle(t, m, cmd)
}

// running returns a running shell pane's description.
func running(id, name string) proto.PaneInfo {
	return proto.PaneInfo{ID: id, Name: name, Kind: "shell", State: "running", Attention: "idle",
		Cwd: "/work/" + name, Argv: []string{"/bin/sh"}}
}

// streamOf returns the open stream of pane id.
func streamOf(t *testing.T, m *Model, id string) *fakeStream {
	t.Helper()
	p := m.panes[id]
	if p == nil || p.stream == nil {
		t.Fatalf("pane %s has no stream", id)
	}
	return p.stream.(*fakeStream)
}

// teaWindowSize builds a window size message.
func teaWindowSize(w, h int) tea.Msg { return tea.WindowSizeMsg{Width: w, Height: h} }
