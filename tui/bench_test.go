package tui

import (
	"context"
	"fmt"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	uv "github.com/charmbracelet/ultraviolet"
	"github.com/creack/pty"

	"clowder/supervisor/proto"
)

// BenchmarkFrameBuild8Panes is issue 4's frame figure: 8 panes in a 200x60
// window while one of them floods. Each iteration applies the coalesced
// frame of the flooding pane (every row changed) and builds the view.
func BenchmarkFrameBuild8Panes(b *testing.B) {
	var infos []proto.PaneInfo
	for i := 1; i <= 8; i++ {
		infos = append(infos, running(fmt.Sprintf("p%d", i), fmt.Sprintf("pane%d", i)))
	}
	m, _ := newTestModel(b, infos, nil)
	m.Update(tea.WindowSizeMsg{Width: 200, Height: 60})
	for id, p := range m.panes {
		cols, rows := p.size.W, p.size.H
		m.Update(mailMsg{frames: map[string]*proto.ScreenFrame{id: floodFrame(id, cols, rows, 0)}})
	}
	// As tui.Run draws: the canvas's cells are copied into the terminal's
	// buffer, no string built.
	buf := uv.NewScreenBuffer(200, 60)
	m.draw = func(_ tea.View, cv *lipgloss.Canvas, _ damage) { cv.Draw(buf, buf.Bounds()) }
	cols, rows := m.panes["p1"].size.W, m.panes["p1"].size.H
	frames := make([]*proto.ScreenFrame, 16)
	for i := range frames {
		frames[i] = floodFrame("p1", cols, rows, i+1)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		m.Update(mailMsg{frames: map[string]*proto.ScreenFrame{"p1": frames[i%len(frames)]}})
	}
}

// floodFrame is a full frame of coloured text, different for each n.
func floodFrame(id string, cols, rows, n int) *proto.ScreenFrame {
	f := &proto.ScreenFrame{Pane: id, Cols: uint16(cols), Rows: uint16(rows), Full: true,
		Cursor: proto.FrameCursor{Visible: true}}
	for y := 0; y < rows; y++ {
		row := proto.FrameRow{Y: uint16(y), Cells: make([]proto.FrameCell, cols)}
		for x := range row.Cells {
			row.Cells[x] = proto.FrameCell{Text: string(rune('a' + (x+y+n)%26)), Width: 1,
				Fg: proto.IndexColor(uint8((x + n) % 16))}
		}
		f.Lines = append(f.Lines, row)
	}
	return f
}

// BenchmarkTerminalDrawsAFloodedPane is the terminal's share of a flood
// (issue 12): each iteration copies every row of a 160x48 canvas whose text
// changed (a scrolling pane) into the terminal's buffer and renders it.
func BenchmarkTerminalDrawsAFloodedPane(b *testing.B) {
	ptm, tty, err := pty.Open()
	if err != nil {
		b.Fatal(err)
	}
	defer ptm.Close()
	defer tty.Close()
	if err := pty.Setsize(ptm, &pty.Winsize{Cols: 160, Rows: 48}); err != nil {
		b.Fatal(err)
	}
	term, err := startTerminal(tty, tty, io.Discard, []string{"TERM=xterm-256color"}, newFakeClock())
	if err != nil {
		b.Fatal(err)
	}
	defer term.close()
	var canvases [2]*lipgloss.Canvas
	rows := make([]int, 48)
	for i := range canvases {
		canvases[i] = lipgloss.NewCanvas(160, 48)
		for y := range rows {
			rows[y] = y
			putText(canvases[i], 0, y, 160, fmt.Sprintf("%08d %s", y+i, strings.Repeat("lorem ipsum ", 12)), cellStyle(&blankCell))
		}
	}
	term.drawMu.Lock()
	defer term.drawMu.Unlock()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		f := &drawing{cells: canvases[i%2], dmg: damage{rows: rows}, view: tea.View{Cursor: tea.NewCursor(0, 47)}}
		term.encode(f)
		term.write(f)
	}
}

// BenchmarkUpdateTypesAKey is the TUI's own work for a typed key (issue
// 12): Update routes a plain key press, encodes it for the focused pane and
// writes it to the pane's master (a pipe here, drained as cat would).
func BenchmarkUpdateTypesAKey(b *testing.B) {
	m, h := newTestModel(b, []proto.PaneInfo{running("p1", "one"), running("p2", "two")}, nil)
	h.mu.Lock()
	streams := append([]*fakeStream(nil), h.streams...)
	h.mu.Unlock()
	for _, s := range streams {
		if s.r != nil {
			go func() { _, _ = io.Copy(io.Discard, s.r) }() // ends when the model closes the master
		}
	}
	key := tea.KeyPressMsg{Code: 'a', Text: "a"}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		m.Update(key)
	}
}

// BenchmarkRepaintAFloodedPane is Update's share of a coloured flood
// (issue 12): each iteration applies a partial frame that changes every
// row of a 158x46 pane, in truecolor runs, and repaints those rows.
func BenchmarkRepaintAFloodedPane(b *testing.B) {
	m, _ := newTestModel(b, []proto.PaneInfo{running("p1", "one")}, nil)
	m.Update(tea.WindowSizeMsg{Width: 160, Height: 48})
	m.draw = func(tea.View, *lipgloss.Canvas, damage) {}
	p := m.panes["p1"]
	cols, rows := p.size.W, p.size.H
	m.Update(mailMsg{frames: map[string]*proto.ScreenFrame{"p1": floodFrame("p1", cols, rows, 0)}})
	frames := make([]*proto.ScreenFrame, 4)
	for i := range frames {
		f := floodFrame("p1", cols, rows, i+1)
		f.Full = false
		for _, l := range f.Lines {
			for x := range l.Cells {
				l.Cells[x].Fg = proto.RGBColor(uint8(x/8), uint8(i), 200)
			}
		}
		frames[i] = f
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		m.Update(mailMsg{frames: map[string]*proto.ScreenFrame{"p1": frames[i%len(frames)]}})
	}
}

// BenchmarkEchoDraw is the draw step of a keystroke (issue 12, "Update →
// repaint → terminal write"): Update applies a frame that echoes one key
// in a pane of the default layout and writes it to a real PTY.
func BenchmarkEchoDraw(b *testing.B) {
	ptm, tty, err := pty.Open()
	if err != nil {
		b.Fatal(err)
	}
	defer ptm.Close()
	defer tty.Close()
	if err := pty.Setsize(ptm, &pty.Winsize{Cols: 160, Rows: 48}); err != nil {
		b.Fatal(err)
	}
	go func() { _, _ = io.Copy(io.Discard, ptm) }() // the outer terminal reads
	term, err := startTerminal(tty, tty, tty, []string{"TERM=xterm-256color"}, &leapClock{})
	if err != nil {
		b.Fatal(err)
	}
	defer term.close()
	m, _ := newTestModel(b, []proto.PaneInfo{running("p1", "one"), running("p2", "two")}, nil)
	m.draw, m.canvasMu = term.show, &term.canvasMu
	m.Update(tea.WindowSizeMsg{Width: 160, Height: 48})
	p := m.panes["p1"]
	cols, rows := p.size.W, p.size.H
	line := strings.Repeat("x", cols-10)
	frames := make([]*proto.ScreenFrame, len(line))
	for i := range frames {
		frames[i] = echoFrame("p1", cols, rows, 5, line[:1+i])
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		m.Update(mailMsg{frames: map[string]*proto.ScreenFrame{"p1": frames[i%len(frames)]}})
	}
}

// leapClock moves a second each time it is read, so every frame's turn
// has come: a benchmark draws each one.
type leapClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *leapClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(time.Second)
	return c.now
}

func (c *leapClock) At(time.Time) <-chan time.Time {
	ch := make(chan time.Time, 1)
	ch <- c.Now()
	return ch
}

// nopModel is a model whose Update does nothing.
type nopModel struct{}

func (nopModel) Init() tea.Cmd                         { return nil }
func (nopModel) View() tea.View                        { return tea.View{} }
func (m nopModel) Update(tea.Msg) (tea.Model, tea.Cmd) { return m, nil }

// BenchmarkAKeyDecodedAndHandled is the TUI's own cost of a key before
// the model's: decoded from the terminal's bytes and handed to Update on
// the reader's goroutine, the loop idle (issue 12: no hop; isIgnored by
// the type's identity, 60 ns a key less).
func BenchmarkAKeyDecodedAndHandled(b *testing.B) {
	l := newEventLoop(context.Background())
	l.m = nopModel{}
	var s inputScanner
	emit := func(ev uv.Event) { l.sendInput(context.Background(), ev) }
	in := []byte("a")
	b.ReportAllocs()
	for b.Loop() {
		s.feed(in, emit)
	}
}
