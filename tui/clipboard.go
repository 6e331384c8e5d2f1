package tui

// This file is the system clipboard: wl-copy/wl-paste under Wayland, xclip
// under X11, where installed. Copies also go to the outer terminal as OSC
// 52 (tea.SetClipboard), which works over ssh; a paste with no tool asks
// the outer terminal (tea.ReadClipboard), whose answer arrives as a
// tea.ClipboardMsg.

import (
	"context"
	"os"
	"os/exec"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

// Clipboard reads and writes the system clipboard. Both methods block and
// run in Cmds. ok is false when no clipboard tool is available.
type Clipboard interface {
	Copy(text string) (ok bool, err error)
	Paste() (text string, ok bool, err error)
}

// clipboardMsg carries what the system clipboard held.
type clipboardMsg struct {
	text string
	ok   bool
	err  error
}

// clipTimeout bounds a clipboard tool run.
const clipTimeout = 3 * time.Second

// systemClipboard uses the tools on PATH.
type systemClipboard struct{}

// tool returns the argv of the first usable tool for copy or paste.
func (systemClipboard) tool(paste bool) []string {
	type cand struct {
		env  string
		argv []string
	}
	cands := []cand{{"WAYLAND_DISPLAY", []string{"wl-copy"}}, {"DISPLAY", []string{"xclip", "-selection", "clipboard", "-in"}}}
	if paste {
		cands = []cand{{"WAYLAND_DISPLAY", []string{"wl-paste", "--no-newline"}}, {"DISPLAY", []string{"xclip", "-selection", "clipboard", "-out"}}}
	}
	for _, c := range cands {
		if os.Getenv(c.env) == "" {
			continue
		}
		if _, err := exec.LookPath(c.argv[0]); err == nil {
			return c.argv
		}
	}
	return nil
}

// Copy implements Clipboard.
func (c systemClipboard) Copy(text string) (bool, error) {
	argv := c.tool(false)
	if argv == nil {
		return false, nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), clipTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Stdin = strings.NewReader(text)
	return true, cmd.Run()
}

// Paste implements Clipboard.
func (c systemClipboard) Paste() (string, bool, error) {
	argv := c.tool(true)
	if argv == nil {
		return "", false, nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), clipTimeout)
	defer cancel()
	out, err := exec.CommandContext(ctx, argv[0], argv[1:]...).Output()
	return string(out), true, err
}

// pasteClipboard reads the clipboard for the focused pane.
func (m *Model) pasteClipboard() tea.Cmd {
	c := m.opts.Clipboard
	return func() tea.Msg {
		text, ok, err := c.Paste()
		return clipboardMsg{text: text, ok: ok, err: err}
	}
}

// onClipboard pastes what the clipboard held, or asks the outer terminal.
func (m *Model) onClipboard(msg clipboardMsg) tea.Cmd {
	switch {
	case !msg.ok:
		return m.termCommand(ansi.RequestSystemClipboard, tea.ReadClipboard)
	case msg.err != nil:
		m.setStatus("paste: "+msg.err.Error(), true)
		return nil
	}
	return m.pasteText(msg.text)
}

// copyText puts text on the outer terminal's clipboard (OSC 52) and the
// system one.
func (m *Model) copyText(text string) tea.Cmd {
	c := m.opts.Clipboard
	sys := func() tea.Msg {
		_, err := c.Copy(text)
		return doneMsg{op: "copy", err: err}
	}
	return tea.Batch(m.termCommand(ansi.SetSystemClipboard(text), tea.SetClipboard(text)), sys)
}

// termCommand writes seq to the outer terminal through tui/terminal.go,
// between frames; without it (tests) it is bubbletea's own cmd.
func (m *Model) termCommand(seq string, fallback tea.Cmd) tea.Cmd {
	if m.command == nil {
		return fallback
	}
	m.command(seq)
	return nil
}
