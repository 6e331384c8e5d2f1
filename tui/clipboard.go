package tui

// This file is copy and paste. A copy (y in copy mode) goes to three
// places: clowder's own paste buffer, the outer terminal's clipboard as
// OSC 52 (tea.SetClipboard, which works over ssh), and the system
// clipboard through wl-copy (Wayland) or xclip (X11) where installed.
//
// A paste (prefix ]) takes, in order: the system clipboard through
// wl-paste or xclip, if one is installed; else the outer terminal's
// clipboard, asked with an OSC 52 read (tea.ReadClipboard), if it answers
// within clipboardWait; else clowder's own buffer, as tmux pastes its own
// buffer. A terminal that did not answer once is not asked again (inside
// tmux or over ssh most do not) until one of its answers comes late.

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

// clipboardWait is how long a paste waits for the outer terminal to answer
// an OSC 52 read before it takes clowder's own buffer.
const clipboardWait = 500 * time.Millisecond

// clipboardWaitMsg ends the wait for OSC 52 read number seq.
type clipboardWaitMsg struct{ seq int }

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

// onClipboard pastes what the system clipboard held; with no tool it asks
// the outer terminal, or takes clowder's buffer if the terminal does not
// answer such questions.
func (m *Model) onClipboard(msg clipboardMsg) tea.Cmd {
	switch {
	case !msg.ok && m.termNoClipboard:
		return m.pasteBuffer("")
	case !msg.ok:
		m.clipSeq++
		m.clipWaiting = m.clipSeq
		ask := m.termCommand(ansi.RequestSystemClipboard, tea.ReadClipboard)
		return tea.Batch(ask, m.after(clipboardWait, clipboardWaitMsg{seq: m.clipSeq}))
	case msg.err != nil:
		return m.pasteBuffer("the clipboard tool failed: " + msg.err.Error())
	case msg.text == "":
		return m.pasteBuffer("")
	}
	return m.pasteText(msg.text)
}

// onTermClipboard pastes the outer terminal's answer to an OSC 52 read if
// a paste still waits for it; a late answer only says the terminal does
// answer (the paste took the buffer already).
func (m *Model) onTermClipboard(msg tea.ClipboardMsg) tea.Cmd {
	m.termNoClipboard = false
	if m.clipWaiting == 0 {
		return nil
	}
	m.clipWaiting = 0
	if msg.Content == "" {
		return m.pasteBuffer("")
	}
	return m.pasteText(msg.Content)
}

// onClipboardWait gives up on the outer terminal's answer and pastes
// clowder's buffer.
func (m *Model) onClipboardWait(msg clipboardWaitMsg) tea.Cmd {
	if msg.seq != m.clipWaiting {
		return nil
	}
	m.clipWaiting, m.termNoClipboard = 0, true
	return m.pasteBuffer("")
}

// pasteBuffer pastes clowder's own buffer, or says why nothing is pasted
// (why is what went wrong first, if anything).
func (m *Model) pasteBuffer(why string) tea.Cmd {
	if m.pasteBuf != "" {
		return m.pasteText(m.pasteBuf)
	}
	if why == "" {
		why = "the clipboard is empty or unreadable (no wl-paste or xclip, and the terminal did not answer an OSC 52 read)"
	}
	m.setStatus("nothing to paste: "+why+"; y in copy mode fills clowder's buffer", true)
	return nil
}

// copyText puts text in clowder's paste buffer, on the outer terminal's
// clipboard (OSC 52) and on the system one.
func (m *Model) copyText(text string) tea.Cmd {
	m.pasteBuf = text
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
