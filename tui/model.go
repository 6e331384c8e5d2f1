package tui

// This file is the model: everything the TUI knows, which only Update
// changes. Host I/O happens in Cmds (conn.go) that return messages, with
// one exception: keystrokes are written to the focused pane's PTY master
// inside Update (input.go), with a short deadline, so that they reach the
// pane in order and at once.

import (
	"os"

	"charm.land/bubbles/v2/help"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"clowder/layout"
	"clowder/panes"
	"clowder/persist"
)

// minPane is the smallest pane the layout gives out (panes.MinCols/Rows).
var minPane = layout.Size{W: panes.MinCols, H: panes.MinRows}

// Options configure a Model. Host is required; the rest have defaults.
type Options struct {
	Host     Host
	Config   persist.Config // [tui] and [keys]; zero means persist.DefaultConfig
	Paths    persist.Paths  // where layout.json lives; zero saves nothing
	Adapters *panes.Adapters
	Cwd      string   // where first-start panes and new panes without a cwd run
	Env      []string // the environment spawns pass on (os.Environ)
	// Clipboard reads and writes the system clipboard; nil means the
	// xclip/wl-clipboard tools where present (clipboard.go).
	Clipboard Clipboard
}

// inputMode is who gets the next key press.
type inputMode uint8

const (
	modeNormal inputMode = iota // keys go to the focused pane
	modePrefix                  // the prefix was pressed: the next key is an action
	modeRepeat                  // a repeatable action ran: its keys repeat without the prefix
)

var inputModeNames = [...]string{"normal", "prefix", "repeat"}

// String names the mode.
func (m inputMode) String() string {
	if int(m) < len(inputModeNames) {
		return inputModeNames[m]
	}
	return "inputMode(?)"
}

// Model is the TUI's state. Build it with New; it implements tea.Model.
type Model struct {
	opts  Options
	host  Host
	km    KeyMap
	theme Theme
	help  help.Model
	mail  *mailbox
	saver *layoutSaver

	tree   *layout.Tree
	panes  map[string]*pane
	width  int
	height int

	mode      inputMode
	repeatSeq int // identifies the current repeat window
	presetIdx int // the preset next-preset applied last
	overlay   overlay
	prompt    *prompt
	copy      *copyMode
	drag      *dragState

	started   bool     // the start reconciliation ran
	spawning  int      // spawns in flight
	unplaced  []string // host panes announced while spawns were in flight
	nextToken int
	saveSeq   int
	status    string // the last message for the status bar
	statusErr bool
	hostDown  string // why the connection to the host ended, "" while up
	quitting  bool

	dirty bool
	// draw shows a new view on the terminal (terminal.show): the cells of
	// canvas, and the cursor and mouse mode of the view, whose Content then
	// stays empty. Nil in tests, which read view.Content.
	draw   func(tea.View, *lipgloss.Canvas)
	canvas *lipgloss.Canvas
	// recycle returns a canvas the terminal has finished drawing from, or
	// nil (terminal.reuse); nil in tests.
	recycle func() *lipgloss.Canvas
	// command writes a terminal command between frames (terminal.command);
	// nil in tests, where bubbletea's own clipboard cmds stand in.
	command func(string)
	view    tea.View
	outer   outerColors // the outer terminal's colours, for the host (colors.go)
}

// overlay is what covers the panes.
type overlay uint8

const (
	overlayNone overlay = iota
	overlayHelp
	overlayPrompt
)

var overlayNames = [...]string{"none", "help", "prompt"}

// String names the overlay.
func (o overlay) String() string {
	if int(o) < len(overlayNames) {
		return overlayNames[o]
	}
	return "overlay(?)"
}

// New builds the model. It fails on a bad keymap or theme in the config.
func New(opts Options) (*Model, error) {
	if opts.Config.TUI.Prefix == "" {
		def := persist.DefaultConfig()
		opts.Config.TUI = def.TUI
		if opts.Config.Keys == nil {
			opts.Config.Keys = def.Keys
		}
	}
	if opts.Adapters == nil {
		opts.Adapters = panes.NewAdapters(opts.Config.Agents, os.Getenv("SHELL"))
	}
	if opts.Clipboard == nil {
		opts.Clipboard = systemClipboard{}
	}
	km, err := NewKeyMap(opts.Config.TUI.Prefix, opts.Config.Keys)
	if err != nil {
		return nil, err
	}
	theme, err := LoadTheme(opts.Config.TUI.Theme)
	if err != nil {
		return nil, err
	}
	m := &Model{opts: opts, host: opts.Host, km: km, theme: theme, help: newHelp(theme),
		mail: newMailbox(), saver: &layoutSaver{path: layoutPath(opts.Paths)},
		tree: &layout.Tree{}, panes: map[string]*pane{}, dirty: true}
	m.help.ShowAll = true
	return m, nil
}

// layoutPath is layout.json's path, or "" when no state dir is set.
func layoutPath(p persist.Paths) string {
	if p.StateDir == "" {
		return ""
	}
	return p.LayoutFile()
}

// Init implements tea.Model: load the layout and the host's panes, open
// the event stream, and start listening to the mailbox.
func (m *Model) Init() tea.Cmd {
	return tea.Batch(m.startCmd(), m.eventsCmd(), m.waitMail(), m.askColors())
}

// View implements tea.Model. The view is built in Update when something
// changed (render.go), so an unchanged model costs nothing here.
func (m *Model) View() tea.View { return m.view }

// area is the part of the screen the panes share: below the top border
// row (which carries the titles of the top panes) and above the status bar.
func (m *Model) area() layout.Rect {
	return layout.Rect{X: 0, Y: 1, W: max(m.width, 0), H: max(m.height-2, 0)}
}

// geometry lays the tree out on the area.
func (m *Model) geometry() layout.Geometry { return m.tree.Rects(m.area(), minPane) }

// focused returns the focused pane, or nil.
func (m *Model) focused() *pane { return m.panes[m.tree.Focus()] }

// setStatus shows a message in the status bar.
func (m *Model) setStatus(msg string, isErr bool) {
	m.status, m.statusErr, m.dirty = msg, isErr, true
}

// Close ends every stream and the mailbox; panes keep running. Run calls
// it after the program ends.
func (m *Model) Close() {
	for _, p := range m.panes {
		p.closeStream()
	}
	m.mail.close()
}
