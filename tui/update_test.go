package tui

import (
	"encoding/json"
	"errors"
	"os"
	"slices"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"clowder/layout"
	"clowder/persist"
	"clowder/supervisor/proto"
)

func TestFirstStartSpawnsShellAndCompanionWhenAdapterMissing(t *testing.T) {
	m, h := newTestModel(t, nil, func(c *persist.Config) {
		c.TUI.DefaultAdapter = "ghost"
		c.Agents["ghost"] = persist.AgentConfig{Command: []string{"/nonexistent/ghost-agent"}}
	})
	if len(h.spawned) != 2 {
		t.Fatalf("spawned %d panes, want 2", len(h.spawned))
	}
	for i, req := range h.spawned {
		if req.Kind != "shell" || req.Cwd != "/work" || !slices.Equal(req.Argv, []string{"/bin/sh"}) {
			t.Errorf("spawn %d = %+v, want a shell in /work", i, req)
		}
	}
	if got := m.tree.String(); got != `(h 0.5 "n101" "n102") focus=n101 zoom=` { // the first pane (the agent) keeps the keyboard
		t.Errorf("tree = %s", got)
	}
}

func TestFirstStartSpawnsInstalledDefaultAgent(t *testing.T) {
	_, h := newTestModel(t, nil, func(c *persist.Config) {
		c.TUI.DefaultAdapter = "fake"
		c.Agents["fake"] = persist.AgentConfig{Command: []string{"sh", "-c", "true"}}
	})
	if len(h.spawned) != 2 || h.spawned[0].Kind != "agent" || h.spawned[0].Adapter != "fake" || h.spawned[1].Kind != "shell" {
		t.Fatalf("spawned %+v, want agent fake then a shell", h.spawned)
	}
}

func TestRestoreShowsMissingPanesAndAddsUnknownOnes(t *testing.T) {
	dir := t.TempDir()
	tree := layout.New("gone")
	if err := tree.Split("gone", "p1", layout.Horizontal, layout.After); err != nil {
		t.Fatal(err)
	}
	doc, err := encodeLayout(tree, map[string]*pane{
		"gone": {id: "gone", meta: paneMeta{Name: "old", Kind: "shell", Argv: []string{"/bin/sh"}, Cwd: "/old", Label: "mine"}},
		"p1":   {id: "p1", meta: paneMeta{Name: "a"}},
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := persist.SaveLayout(dir+"/layout.json", doc); err != nil {
		t.Fatal(err)
	}
	h := &fakeHost{infos: []proto.PaneInfo{running("p1", "a"), running("p2", "b")}, next: 100}
	c := persist.DefaultConfig()
	m, err := New(Options{Host: h, Config: c, Paths: persist.Paths{StateDir: dir}, Cwd: "/work", Clipboard: &fakeClipboard{}})
	if err != nil {
		t.Fatal(err)
	}
	m.mail.close()
	t.Cleanup(m.Close)
	m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	settle(t, m, m.startCmd())
	if got := m.tree.Leaves(); !slices.Equal(got, []string{"gone", "p1", "p2"}) {
		t.Fatalf("leaves = %v, want gone p1 p2", got)
	}
	if p := m.panes["gone"]; p.state != paneMissing || p.name() != "mine" {
		t.Errorf("gone pane: state %s name %s, want missing, mine", p.state, p.name())
	}
	// Respawn puts the same command in the same place.
	_ = m.tree.SetFocus("gone")
	prefix(t, m)
	typeText(t, m, "R")
	if len(h.spawned) != 1 || h.spawned[0].Cwd != "/old" || !slices.Equal(h.spawned[0].Argv, []string{"/bin/sh"}) {
		t.Fatalf("respawn sent %+v", h.spawned)
	}
	if got := m.tree.Leaves(); !slices.Equal(got, []string{"n101", "p1", "p2"}) || m.tree.Focus() != "n101" {
		t.Errorf("after respawn leaves = %v focus %s", got, m.tree.Focus())
	}
	if m.panes["n101"].name() != "mine" {
		t.Errorf("respawned pane lost its label: %s", m.panes["n101"].name())
	}
}

func twoPanes(t *testing.T) (*Model, *fakeHost) {
	t.Helper()
	m, h := newTestModel(t, []proto.PaneInfo{running("p1", "left"), running("p2", "right")}, nil)
	if got := m.tree.Leaves(); !slices.Equal(got, []string{"p1", "p2"}) {
		t.Fatalf("leaves = %v", got)
	}
	return m, h
}

func TestSplitRightSpawnsShellInFocusedPanesCwd(t *testing.T) {
	m, h := twoPanes(t)
	_ = m.tree.SetFocus("p2")
	prefix(t, m)
	typeText(t, m, "%")
	if len(h.spawned) != 1 || h.spawned[0].Cwd != "/work/right" || h.spawned[0].Kind != "shell" {
		t.Fatalf("spawned %+v", h.spawned)
	}
	if m.tree.Focus() != "n101" || !m.tree.Has("n101") {
		t.Errorf("new pane not focused: %s", m.tree)
	}
	raw, err := persist.LoadLayout(m.saver.path, nil)
	if err != nil || !strings.Contains(string(raw), "n101") {
		t.Errorf("layout.json not written with the new pane: %v %s", err, raw)
	}
}

func TestSplitOpensWhereTheFocusedPaneIsNow(t *testing.T) {
	m, h := twoPanes(t)
	_ = m.tree.SetFocus("p2")
	h.mu.Lock()
	h.infos[1].CwdNow = "/work/right/sub"
	h.mu.Unlock()
	prefix(t, m)
	typeText(t, m, "%")
	if len(h.spawned) != 1 || h.spawned[0].Cwd != "/work/right/sub" {
		t.Fatalf("spawned %+v, want the shell in the pane's current directory", h.spawned)
	}
}

func TestKeysReachPaneEncodedForItsModes(t *testing.T) {
	m, _ := twoPanes(t)
	focus := m.tree.Focus()
	s := streamOf(t, m, focus)
	frame(t, m, focus, 39, 22, proto.FrameModes{Flags: proto.ModeAppCursor | proto.ModeBracketedPaste}, "$")
	press(t, m, tea.Key{Code: tea.KeyUp})
	if got := s.read(t, 3); got != "\x1bOA" {
		t.Errorf("Up under DECCKM sent %q, want ESC O A", got)
	}
	_, cmd := m.Update(tea.PasteMsg{Content: "a\nb"})
	settle(t, m, cmd)
	if got := s.read(t, 15); got != "\x1b[200~a\rb\x1b[201~" {
		t.Errorf("paste sent %q, want it bracketed", got)
	}
	typeText(t, m, "x")
	if got := s.read(t, 1); got != "x" {
		t.Errorf("x sent %q", got)
	}
}

func TestShiftEnterFollowsThePanesKeyboardMode(t *testing.T) {
	m, _ := twoPanes(t)
	focus := m.tree.Focus()
	s := streamOf(t, m, focus)
	frame(t, m, focus, 39, 22, proto.FrameModes{KittyKeys: 1}, "$")
	press(t, m, tea.Key{Code: tea.KeyEnter, Mod: tea.ModShift})
	if got := s.read(t, 7); got != "\x1b[13;2u" {
		t.Errorf("Shift+Enter under kitty flags sent %q, want CSI 13;2u", got)
	}
}

func TestPrefixTwiceSendsThePrefixKey(t *testing.T) {
	m, _ := twoPanes(t)
	s := streamOf(t, m, m.tree.Focus())
	prefix(t, m)
	if m.mode != modePrefix {
		t.Fatalf("mode = %s after the prefix", m.mode)
	}
	prefix(t, m)
	if got := s.read(t, 1); got != "\x00" || m.mode != modeNormal {
		t.Errorf("prefix twice sent %q (mode %s), want NUL", got, m.mode)
	}
}

func TestFocusMovesByDirectionNumberAndNext(t *testing.T) {
	m, _ := twoPanes(t)
	_ = m.tree.SetFocus("p1")
	prefix(t, m)
	typeText(t, m, "l")
	if m.tree.Focus() != "p2" {
		t.Errorf("focus right: %s", m.tree.Focus())
	}
	prefix(t, m)
	typeText(t, m, "1")
	if m.tree.Focus() != "p1" {
		t.Errorf("focus 1: %s", m.tree.Focus())
	}
	prefix(t, m)
	typeText(t, m, "o")
	if m.tree.Focus() != "p2" {
		t.Errorf("focus next: %s", m.tree.Focus())
	}
}

func TestZoomTogglesAndResizesThePane(t *testing.T) {
	m, h := twoPanes(t)
	prefix(t, m)
	typeText(t, m, "z")
	if m.tree.Zoomed() != m.tree.Focus() {
		t.Fatalf("not zoomed: %s", m.tree)
	}
	if last := h.resizes[len(h.resizes)-1]; !strings.HasSuffix(last, " 80x22") {
		t.Errorf("zoomed pane resized to %s, want 80x22", last)
	}
	prefix(t, m)
	typeText(t, m, "z")
	if m.tree.Zoomed() != "" {
		t.Errorf("still zoomed: %s", m.tree)
	}
}

func TestResizeKeysRepeatWithoutThePrefix(t *testing.T) {
	m, _ := twoPanes(t)
	_ = m.tree.SetFocus("p1")
	before, _ := m.geometry().Pane("p1")
	prefix(t, m)
	_, cmd := m.Update(tea.KeyPressMsg{Code: 'L', Text: "L"})
	_ = cmd // holds the repeat timer; not run here
	_, _ = m.Update(tea.KeyPressMsg{Code: 'L', Text: "L"})
	after, _ := m.geometry().Pane("p1")
	if after.W != before.W+2*resizeStep || m.mode != modeRepeat {
		t.Errorf("width %d → %d (mode %s), want +%d", before.W, after.W, m.mode, 2*resizeStep)
	}
	m.Update(repeatEndMsg{seq: m.repeatSeq})
	if m.mode != modeNormal {
		t.Errorf("repeat window did not close: %s", m.mode)
	}
}

func TestCloseAsksFirstThenRemovesOnHost(t *testing.T) {
	m, h := twoPanes(t)
	_ = m.tree.SetFocus("p2")
	prefix(t, m)
	typeText(t, m, "x")
	if m.prompt == nil || m.prompt.kind != promptConfirm {
		t.Fatal("close of a running pane did not ask")
	}
	typeText(t, m, "n")
	if !m.tree.Has("p2") || len(h.removed) != 0 {
		t.Fatal("n closed the pane")
	}
	prefix(t, m)
	typeText(t, m, "x")
	typeText(t, m, "y")
	if m.tree.Has("p2") || !slices.Equal(h.removed, []string{"p2"}) {
		t.Errorf("y did not close p2: %s removed %v", m.tree, h.removed)
	}
}

func TestKillAsksThenKillsOnHost(t *testing.T) {
	m, h := twoPanes(t)
	prefix(t, m)
	typeText(t, m, "X")
	typeText(t, m, "y")
	if !slices.Equal(h.killed, []string{m.tree.Focus()}) {
		t.Errorf("killed %v", h.killed)
	}
}

func TestNextAttentionFocusesPaneNeedingInput(t *testing.T) {
	m, _ := twoPanes(t)
	_ = m.tree.SetFocus("p2")
	_, cmd := m.Update(mailMsg{events: []proto.PaneEvent{{Kind: proto.EventAttention, Pane: "p1", Attention: "needs-input"}}})
	settle(t, m, cmd)
	prefix(t, m)
	typeText(t, m, "n")
	if m.tree.Focus() != "p1" {
		t.Errorf("focus %s, want p1", m.tree.Focus())
	}
}

func TestRenameKeepsTheLabelInLayoutJSON(t *testing.T) {
	m, h := twoPanes(t)
	id := m.tree.Focus()
	prefix(t, m)
	typeText(t, m, ",")
	press(t, m, tea.Key{Code: 'u', Mod: tea.ModCtrl})
	typeText(t, m, "build")
	press(t, m, tea.Key{Code: tea.KeyEnter})
	if m.panes[id].name() != "build" {
		t.Fatalf("name %s", m.panes[id].name())
	}
	raw, err := persist.LoadLayout(m.saver.path, nil)
	if err != nil {
		t.Fatal(err)
	}
	var d layoutDoc
	if err := json.Unmarshal(raw, &d); err != nil || d.Panes[id].Label != "build" {
		t.Errorf("layout.json label = %+v (%v)", d.Panes[id], err)
	}
	if !slices.Equal(h.renamed, []string{id + "=build"}) {
		t.Errorf("host renames %v, want the pane renamed on the host too", h.renamed)
	}
}

func TestRenamedEventShowsTheHostsName(t *testing.T) {
	m, _ := twoPanes(t)
	info := running("p1", "renamed-elsewhere")
	_, cmd := m.Update(mailMsg{events: []proto.PaneEvent{{Kind: proto.EventRenamed, Pane: "p1", Info: &info}}})
	settle(t, m, cmd)
	if got := m.panes["p1"].name(); got != "renamed-elsewhere" {
		t.Fatalf("name after a renamed event: %s", got)
	}
}

func TestSendKeysPromptEncodesTmuxNames(t *testing.T) {
	m, _ := twoPanes(t)
	s := streamOf(t, m, m.tree.Focus())
	prefix(t, m)
	typeText(t, m, "S")
	typeText(t, m, "C-c Enter")
	press(t, m, tea.Key{Code: tea.KeyEnter})
	if got := s.read(t, 2); got != "\x03\r" {
		t.Errorf("send-keys sent %q", got)
	}
}

func TestExitedEventMarksPaneAndKeysDoNotReachIt(t *testing.T) {
	m, h := twoPanes(t)
	id := m.tree.Focus()
	info := running(id, "x")
	info.State, info.ExitReason = "exited", "completed"
	_, cmd := m.Update(mailMsg{events: []proto.PaneEvent{{Kind: proto.EventExited, Pane: id, Info: &info}}})
	settle(t, m, cmd)
	typeText(t, m, "a")
	if m.panes[id].state != paneExited || len(h.inputs) != 0 {
		t.Errorf("state %s inputs %v", m.panes[id].state, h.inputs)
	}
}

func TestRemovedEventDropsThePane(t *testing.T) {
	m, _ := twoPanes(t)
	_, cmd := m.Update(mailMsg{events: []proto.PaneEvent{{Kind: proto.EventRemoved, Pane: "p1"}}})
	settle(t, m, cmd)
	if m.tree.Has("p1") || m.panes["p1"] != nil {
		t.Errorf("p1 still there: %s", m.tree)
	}
}

func TestAddedEventFromAnotherClientJoinsTheLayout(t *testing.T) {
	m, _ := twoPanes(t)
	info := running("p3", "extra")
	_, cmd := m.Update(mailMsg{events: []proto.PaneEvent{{Kind: proto.EventAdded, Pane: "p3", Info: &info}}})
	settle(t, m, cmd)
	if !m.tree.Has("p3") {
		t.Errorf("p3 not added: %s", m.tree)
	}
}

func TestDetachQuitsWithoutKillingAnything(t *testing.T) {
	m, h := twoPanes(t)
	prefix(t, m)
	typeText(t, m, "d")
	if !m.quitting || len(h.killed)+len(h.removed) != 0 {
		t.Errorf("quitting %v killed %v removed %v", m.quitting, h.killed, h.removed)
	}
}

func TestKillAllRemovesEveryPaneThenQuits(t *testing.T) {
	m, h := twoPanes(t)
	prefix(t, m)
	typeText(t, m, "Q")
	typeText(t, m, "y")
	slices.Sort(h.removed)
	if !slices.Equal(h.removed, []string{"p1", "p2"}) || !m.quitting {
		t.Errorf("removed %v quitting %v", h.removed, m.quitting)
	}
}

func TestResizeCallsStayOneInFlightPerPane(t *testing.T) {
	m, h := twoPanes(t)
	n := len(h.resizes)
	_, cmd1 := m.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
	_, cmd2 := m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	if cmd2 != nil {
		t.Fatal("a second resize went out while the first was in flight")
	}
	settle(t, m, cmd1)
	last := h.resizes[len(h.resizes)-2:]
	if len(h.resizes)-n != 4 || !strings.HasSuffix(last[0], "x38") {
		t.Errorf("resizes %v, want the 100x30 pair then the 120x40 pair", h.resizes[n:])
	}
}

func TestPasteActionReadsTheClipboard(t *testing.T) {
	m, _ := twoPanes(t)
	s := streamOf(t, m, m.tree.Focus())
	prefix(t, m)
	typeText(t, m, "]")
	if got := s.read(t, len("from clipboard")); got != "from clipboard" {
		t.Errorf("pasted %q", got)
	}
}

func TestMouseClickFocusesAndBorderDragResizes(t *testing.T) {
	m, _ := twoPanes(t)
	_ = m.tree.SetFocus("p2")
	_, cmd := m.Update(tea.MouseClickMsg{X: 3, Y: 5, Button: tea.MouseLeft})
	settle(t, m, cmd)
	if m.tree.Focus() != "p1" {
		t.Fatalf("click focused %s", m.tree.Focus())
	}
	r, _ := m.geometry().Pane("p1")
	border := r.X + r.W
	m.Update(tea.MouseClickMsg{X: border, Y: 5, Button: tea.MouseLeft})
	m.Update(tea.MouseMotionMsg{X: border + 10, Y: 5, Button: tea.MouseLeft})
	_, cmd = m.Update(tea.MouseReleaseMsg{X: border + 10, Y: 5, Button: tea.MouseLeft})
	settle(t, m, cmd)
	if after, _ := m.geometry().Pane("p1"); after.W != r.W+10 {
		t.Errorf("drag: width %d → %d, want +10", r.W, after.W)
	}
	if _, err := os.Stat(m.saver.path); err != nil {
		t.Errorf("drag end did not save: %v", err)
	}
}

func TestWheelPassesThroughWhenPaneAskedForMouse(t *testing.T) {
	m, _ := twoPanes(t)
	_ = m.tree.SetFocus("p1")
	s := streamOf(t, m, "p1")
	frame(t, m, "p1", 39, 22, proto.FrameModes{Mouse: 2, MouseEncoding: 2}, "$")
	_, cmd := m.Update(tea.MouseWheelMsg{X: 2, Y: 3, Button: tea.MouseWheelUp})
	settle(t, m, cmd)
	if got := s.read(t, len("\x1b[<64;3;3M")); got != "\x1b[<64;3;3M" {
		t.Errorf("wheel sent %q", got)
	}
	if m.copy != nil {
		t.Error("wheel entered copy mode on a mouse-reporting pane")
	}
}

func TestWheelScrollsIntoCopyMode(t *testing.T) {
	bothModes(t, func(t *testing.T, mode cmdMode) {
		m, h := twoPanes(t)
		h.history = historyRows(100, 50)
		frame(t, m, "p1", 39, 22, proto.FrameModes{}, "$")
		d := newDriver(t, m, mode)
		d.send(tea.MouseWheelMsg{X: 2, Y: 3, Button: tea.MouseWheelUp})
		d.settle()
		if m.copy == nil || m.copy.pane != "p1" || m.copy.history != 50 {
			t.Fatalf("copy mode: %+v", m.copy)
		}
		if m.copy.top != 50-wheelLines {
			t.Errorf("top %d, want %d", m.copy.top, 50-wheelLines)
		}
	})
}

// TestWheelScrollsBeforeHistoryArrivesAreKept: wheel steps that come
// while the first page of history is on its way (concurrently, before or
// after it lands) all count once it is there.
func TestWheelScrollsBeforeHistoryArrivesAreKept(t *testing.T) {
	bothModes(t, func(t *testing.T, mode cmdMode) {
		m, h := twoPanes(t)
		h.history = historyRows(100, 50)
		frame(t, m, "p1", 39, 22, proto.FrameModes{}, "$")
		d := newDriver(t, m, mode)
		for range 3 {
			d.send(tea.MouseWheelMsg{X: 2, Y: 3, Button: tea.MouseWheelUp})
		}
		d.settle()
		if m.copy == nil || m.copy.history != 50 || m.copy.top != 50-3*wheelLines {
			t.Fatalf("copy mode after three wheel steps up: %+v, want top %d", m.copy, 50-3*wheelLines)
		}
	})
}

// historyRows is a page of n lines "line N" ending at absolute line end.
func historyRows(end, n int) *proto.HistoryRows {
	h := &proto.HistoryRows{Pane: "p1", Oldest: uint64(end - n), End: uint64(end), First: uint64(end - n), Cols: 39}
	for i := end - n; i < end; i++ {
		var row proto.FrameRow
		for _, r := range "line " + itoa3(i) {
			row.Cells = append(row.Cells, proto.FrameCell{Text: string(r), Width: 1})
		}
		h.Lines = append(h.Lines, row)
	}
	return h
}

func itoa3(i int) string {
	return string(rune('0'+i/100%10)) + string(rune('0'+i/10%10)) + string(rune('0'+i%10))
}

func TestCopyModeSearchesSelectsAndCopies(t *testing.T) {
	bothModes(t, func(t *testing.T, mode cmdMode) {
		m, h := twoPanes(t)
		h.history = historyRows(100, 50)
		_ = m.tree.SetFocus("p1")
		frame(t, m, "p1", 39, 22, proto.FrameModes{}, "$ echo done")
		d := newDriver(t, m, mode)
		d.prefix()
		d.typeText("[")
		d.settle() // the history is in: what follows is typed ahead of every Cmd
		if m.copy == nil || len(m.copy.lines) != 72 {
			t.Fatalf("copy mode lines: %+v", m.copy)
		}
		d.typeText("?")
		d.typeText("line 060")
		d.press(tea.Key{Code: tea.KeyEnter})
		if m.copy.cur != (textPos{y: 10, x: 0}) {
			t.Fatalf("search back: cursor %+v, want line 10", m.copy.cur)
		}
		if !strings.Contains(stripped(m), "line 060") {
			t.Error("match not shown")
		}
		d.typeText("v")
		d.typeText("j$")
		d.typeText("y")
		d.settle()
		clip := m.opts.Clipboard.(*fakeClipboard)
		if m.copy != nil || len(clip.copied) != 1 || clip.copied[0] != "line 060\nline 061" {
			t.Errorf("copied %q (copy mode %v)", clip.copied, m.copy != nil)
		}
	})
}

func TestMergeFramesKeepsNewestRows(t *testing.T) {
	row := func(y uint16, s string) proto.FrameRow {
		return proto.FrameRow{Y: y, Cells: []proto.FrameCell{{Text: s, Width: 1}}}
	}
	a := &proto.ScreenFrame{Cols: 5, Rows: 3, Full: true, Lines: []proto.FrameRow{row(0, "a"), row(1, "b"), row(2, "c")}}
	b := &proto.ScreenFrame{Cols: 5, Rows: 3, Lines: []proto.FrameRow{row(1, "B")}}
	got := mergeFrames(mergeFrames(nil, a), b)
	if !got.Full || len(got.Lines) != 3 || got.Lines[1].Cells[0].Text != "B" || got.Lines[2].Cells[0].Text != "c" {
		t.Errorf("merged %+v", got)
	}
}

func TestMailboxCoalescesAFloodIntoOneMessage(t *testing.T) {
	b := newMailbox()
	for i := range 100 {
		b.putFrame("p1", &proto.ScreenFrame{Cols: 2, Rows: 1, Full: true, Seq: uint64(i),
			Lines: []proto.FrameRow{{}}})
	}
	msg := b.wait().(mailMsg)
	if len(msg.frames) != 1 || msg.frames["p1"].Seq != 99 {
		t.Errorf("got %d frames, seq %d", len(msg.frames), msg.frames["p1"].Seq)
	}
	select {
	case <-b.ready:
		t.Error("a second wake-up was pending after one take")
	default:
	}
}

func TestKeyMapOverridesAndRejectsUnknownActions(t *testing.T) {
	km, err := NewKeyMap("C-a", map[string]persist.KeyList{"split-right": {"v"}, "zoom": {"M-z", "Z"}})
	if err != nil {
		t.Fatal(err)
	}
	if got := km.Bindings[ActSplitRight].Keys(); !slices.Equal(got, []string{"v"}) {
		t.Errorf("split-right keys %v", got)
	}
	if got := km.Bindings[ActZoom].Keys(); !slices.Equal(got, []string{"alt+z", "Z"}) {
		t.Errorf("zoom keys %v", got)
	}
	if got := km.Prefix.Keys(); !slices.Equal(got, []string{"ctrl+a"}) {
		t.Errorf("prefix %v", got)
	}
	if _, err := NewKeyMap("C-Space", map[string]persist.KeyList{"splt": {"v"}}); err == nil || !strings.Contains(err.Error(), "splt") {
		t.Errorf("unknown action error = %v", err)
	}
}

// TestEventsEndSubscribesAgainAndListsAfresh pins issue 7 §2: when the
// host ended the event subscription, the TUI said the host was gone and
// attention, exit and removal updates stopped for good.
func TestEventsEndSubscribesAgainAndListsAfresh(t *testing.T) {
	m, h := twoPanes(t)
	exited := running("p1", "left")
	exited.State, exited.ExitReason = "exited", "completed"
	h.mu.Lock()
	h.infos = []proto.PaneInfo{exited, running("p3", "new")} // what happened meanwhile
	h.mu.Unlock()
	_, cmd := m.Update(mailMsg{ended: []streamEnd{{pane: "", err: errors.New("subscriber fell behind")}}})
	settle(t, m, cmd)
	if m.hostDown != "" || m.events == nil {
		t.Fatalf("host down %q, events %v: want a new subscription", m.hostDown, m.events)
	}
	if m.panes["p1"].state != paneExited || m.tree.Has("p2") || !m.tree.Has("p3") {
		t.Errorf("after the new list: p1 %s, tree %s; want p1 exited, p2 gone, p3 added", m.panes["p1"].state, m.tree)
	}
}

// TestStatusMessagesExpire pins issue 7 §2: `spawn failed: …` stayed in
// the status bar until the TUI was restarted. A message expires; the
// timer of an older one never clears a newer one.
func TestStatusMessagesExpire(t *testing.T) {
	m, h := twoPanes(t)
	h.timers.take()
	m.Update(spawnedMsg{err: errors.New("no such shell")})
	if !strings.Contains(m.status, "spawn failed") {
		t.Fatalf("status %q", m.status)
	}
	first := h.timers.take()
	prefix(t, m)
	typeText(t, m, "n") // no pane needs input: a newer message
	newer := m.status
	second := h.timers.take()
	if len(first) != 1 || len(second) != 1 {
		t.Fatalf("timers armed: %v then %v, want one per message", first, second)
	}
	m.Update(first[0])
	if m.status != newer {
		t.Fatalf("the older message's timer cleared the newer one: %q", m.status)
	}
	m.Update(second[0])
	if m.status != "" || strings.Contains(stripped(m), newer) {
		t.Errorf("status %q after its timer, want it gone", m.status)
	}
}

// TestPasteWithoutClipboardTakesClowdersBuffer pins issue 7 §2: with no
// xclip/wl-paste and an outer terminal that does not answer an OSC 52
// read (inside tmux, over ssh), prefix ] did nothing and said nothing.
// Now y fills clowder's own buffer, and ] pastes it once the terminal
// has not answered in time; the next ] does not wait for it again.
func TestPasteWithoutClipboardTakesClowdersBuffer(t *testing.T) {
	m, h := twoPanes(t)
	m.opts.Clipboard.(*fakeClipboard).noTool = true
	_ = m.tree.SetFocus("p1")
	s := streamOf(t, m, "p1")
	prefix(t, m)
	typeText(t, m, "]")
	wait := clipboardWaits(h.timers.take())
	if len(wait) != 1 {
		t.Fatalf("] armed %v, want one wait for the terminal's answer", wait)
	}
	settle(t, m, func() tea.Msg { return wait[0] }) // the terminal never answers
	if !strings.Contains(m.status, "nothing to paste") {
		t.Fatalf("] with nothing anywhere: status %q, want it to say so", m.status)
	}
	frame(t, m, "p1", 39, 22, proto.FrameModes{}, "$ echo copied-text")
	prefix(t, m)
	typeText(t, m, "[")
	typeText(t, m, "0v$y") // the screen's first line: "$ echo copied-text"
	prefix(t, m)
	typeText(t, m, "]")
	if got := s.read(t, len("$ echo copied-text")); got != "$ echo copied-text" {
		t.Errorf("pasted %q, want clowder's buffer", got)
	}
}

// TestPasteWaitsForTheTerminalsClipboardFirst: where the outer terminal
// answers an OSC 52 read in time, its clipboard wins over clowder's buffer,
// and a late answer pastes nothing twice.
func TestPasteWaitsForTheTerminalsClipboardFirst(t *testing.T) {
	m, h := twoPanes(t)
	m.opts.Clipboard.(*fakeClipboard).noTool = true
	m.pasteBuf = "from buffer"
	s := streamOf(t, m, m.tree.Focus())
	h.timers.take()
	prefix(t, m)
	typeText(t, m, "]")
	wait := clipboardWaits(h.timers.take())
	if len(wait) != 1 {
		t.Fatalf("] armed %v, want one wait for the terminal's answer", wait)
	}
	_, cmd := m.Update(tea.ClipboardMsg{Content: "from terminal"})
	settle(t, m, cmd)
	settle(t, m, func() tea.Msg { return wait[0] }) // the wait ends after the answer: nothing more
	typeText(t, m, "|")
	if got := s.read(t, len("from terminal|")); got != "from terminal|" {
		t.Errorf("pasted %q, want the terminal's clipboard once", got)
	}
}

// clipboardWaits keeps the clipboard waits of armed timers.
func clipboardWaits(armed []tea.Msg) []tea.Msg {
	return slices.DeleteFunc(armed, func(msg tea.Msg) bool {
		_, ok := msg.(clipboardWaitMsg)
		return !ok
	})
}
