package tui

// This file passes the outer terminal's colours to the host, so that the
// programs in panes that ask their terminal's colours (OSC 10, 11, 12, 4:
// Codex paints its composer from the background) are told the user's real
// ones instead of the host's headless grey on black. At start the TUI asks
// the outer terminal its foreground, background and cursor colours and the
// 16 ANSI palette entries; bubbletea reads the answers like any input and
// they arrive here as messages. Each answer updates what is known, and the
// whole set goes to the host with one set-colors call in flight at a time,
// so a slower call never overwrites a newer set.

import (
	"context"
	"fmt"
	"image/color"
	"strconv"
	"strings"

	tea "charm.land/bubbletea/v2"
	uv "github.com/charmbracelet/ultraviolet"
	"github.com/charmbracelet/x/ansi"

	"clowder/supervisor/proto"
)

// paletteAsked is how many palette entries the TUI asks for: the 16 ANSI
// colours, the ones programs pick from; the rest keep xterm's values.
const paletteAsked = 16

// oscReply is an OSC answer bubbletea does not decode itself (OSC 4).
type oscReply = uv.UnknownOscEvent

// colorSetter is the part of Host that passes colours on; a host that
// lacks it (a test fake) is simply not told.
type colorSetter interface {
	SetColors(ctx context.Context, req proto.SetColorsReq) error
}

// SetColors implements colorSetter.
func (h *clientHost) SetColors(ctx context.Context, req proto.SetColorsReq) error {
	return h.c().SetColors(ctx, req)
}

// outerColors is what the TUI knows of the outer terminal's colours and
// whether the host has been told.
type outerColors struct {
	known    proto.SetColorsReq
	inFlight bool // a set-colors call is running
	pending  bool // known changed since that call was made
}

// colorsSentMsg says a set-colors call finished.
type colorsSentMsg struct{ err error }

// askColors asks the outer terminal its colours; the answers come back as
// tea.ForegroundColorMsg, tea.BackgroundColorMsg, tea.CursorColorMsg and
// oscReply (palette). Without terminal.go (tests) bubbletea's own requests
// stand in, for the first three.
func (m *Model) askColors() tea.Cmd {
	if m.command == nil {
		return tea.Batch(tea.RequestForegroundColor, tea.RequestBackgroundColor, tea.RequestCursorColor)
	}
	m.command(colorQueries())
	return nil
}

// onOuterColor records one answer of the outer terminal, or the end of a
// set-colors call, and tells the host what is known.
func (m *Model) onOuterColor(msg tea.Msg) tea.Cmd {
	c := &m.outer
	switch msg := msg.(type) {
	case colorsSentMsg:
		return m.onColorsSent(msg)
	case tea.ForegroundColorMsg:
		c.known.Foreground = hexColor(msg.Color)
	case tea.BackgroundColorMsg:
		c.known.Background = hexColor(msg.Color)
	case tea.CursorColorMsg:
		c.known.Cursor = hexColor(msg.Color)
	case oscReply:
		if !setAnswer(&c.known, oscPayload(string(msg))) {
			return nil
		}
	}
	return m.sendColors()
}

// sendColors tells the host the colours known now, unless a call is in
// flight, which sends them again when it ends.
func (m *Model) sendColors() tea.Cmd {
	c := &m.outer
	if c.inFlight {
		c.pending = true
		return nil
	}
	h, ok := m.host.(colorSetter)
	if !ok {
		return nil
	}
	c.inFlight = true
	req := c.known
	req.Palette = append([]string(nil), req.Palette...)
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), callTimeout)
		defer cancel()
		return colorsSentMsg{err: h.SetColors(ctx, req)}
	}
}

// onColorsSent sends again what changed meanwhile. A failure is not worth
// the status bar: panes then answer the host's default colours, as before
// (and a host older than set-colors answers unknown-type).
func (m *Model) onColorsSent(colorsSentMsg) tea.Cmd {
	c := &m.outer
	c.inFlight = false
	if !c.pending {
		return nil
	}
	c.pending = false
	return m.sendColors()
}

// setAnswer records one colour answer, given as its OSC payload
// ("11;rgb:ffff/ffff/ffff", "4;1;rgb:cdcd/0000/0000"); it reports whether
// it was one the TUI asks for.
func setAnswer(req *proto.SetColorsReq, payload string) bool {
	cmd, spec, _ := strings.Cut(payload, ";")
	if cmd == "4" {
		return setPaletteAnswer(req, spec)
	}
	hex := hexColor(ansi.XParseColor(spec))
	field := map[string]*string{"10": &req.Foreground, "11": &req.Background, "12": &req.Cursor}[cmd]
	if field == nil || hex == "" {
		return false
	}
	*field = hex
	return true
}

// setPaletteAnswer records "N;rgb:..." for an entry the TUI asks about.
func setPaletteAnswer(req *proto.SetColorsReq, s string) bool {
	idx, spec, _ := strings.Cut(s, ";")
	n, err := strconv.Atoi(idx)
	hex := hexColor(ansi.XParseColor(spec))
	if err != nil || n < 0 || n >= paletteAsked || hex == "" {
		return false
	}
	for len(req.Palette) <= n {
		req.Palette = append(req.Palette, "")
	}
	req.Palette[n] = hex
	return true
}

// oscPayload is an OSC sequence without its introducer and terminator.
func oscPayload(s string) string {
	s = strings.TrimSuffix(strings.TrimSuffix(s, "\x07"), "\x1b\\")
	return strings.TrimPrefix(s, "\x1b]")
}

// hexColor is c as "#rrggbb", or "" for no colour.
func hexColor(c color.Color) string {
	if c == nil {
		return ""
	}
	r, g, b, _ := c.RGBA()
	return fmt.Sprintf("#%02x%02x%02x", r>>8, g>>8, b>>8)
}
