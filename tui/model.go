package tui

// This file is the model: everything the TUI knows, which only Update
// changes. Host I/O happens in Cmds (conn.go) that return messages, with
// one exception: keystrokes go to the pane's input queue from Update
// (input.go, inputqueue.go), so that they reach the pane in order and at
// once.

import (
	"os"
	"sync"
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"clowder/layout"
	"clowder/panes"
	"clowder/persist"
	"clowder/supervisor/client"
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
	help  helpOverlay // the help overlay component
	mail  *mailbox
	saver *layoutSaver

	tree   *layout.Tree
	geo    geoCache // the tree's last layout (geometry)
	echo   bool     // what redraw draws next is the echo of typed input (mailMsg.echo)
	panes  map[string]*pane
	width  int
	height int

	mode      inputMode
	repeatSeq int                          // identifies the current repeat window
	presetIdx int                          // the preset next-preset applied last
	prompt    *prompt                      // the open prompt component, or nil
	answer    func(*Model, string) tea.Cmd // what the open prompt's answer is for
	copy      *copyMode
	drag      *dragState

	started    bool          // the start reconciliation ran
	spawning   int           // spawns in flight
	unplaced   []string      // host panes announced while spawns were in flight
	typingTo   *keyTarget    // the focus-taking spawn in flight that gets typed keys, or nil
	pendingSeq int           // numbers pending panes (pending.go)
	spawnIn    []*inputQueue // the input queues of spawns in flight (closed on quit)
	nextToken  int
	saveSeq    int
	status     string // the last message for the status bar
	statusErr  bool
	statusSeq  int // counts status messages; a timer clears only its own
	// statusArmed is the statusSeq whose expiry timer runs.
	statusArmed int
	// after is a timer: msg after d (tick; tests record timers instead).
	after    func(d time.Duration, msg tea.Msg) tea.Cmd
	hostDown string // why the connection to the host ended, "" while up
	// reconnecting: the connection was lost and the TUI is reaching a
	// host and handing the panes' masters back (escrow.go).
	reconnecting bool
	handingOver  bool   // a quit waits for a host to hold the panes' terminals (escrow.go)
	eventsToken  int    // tells the current events stream's end from an older one's
	pasteBuf     string // clowder's own paste buffer: the last copy (clipboard.go)
	// clipSeq numbers OSC 52 reads; clipWaiting is the one a paste waits
	// for (0: none); termNoClipboard: the outer terminal did not answer.
	clipSeq, clipWaiting int
	termNoClipboard      bool
	events               Stream    // the pane-event subscription, nil while none is open
	eventsAt             time.Time // when the last event subscription was asked for
	eventsErrSeq         int       // statusSeq of the events' error shown, cleared when they are back
	quitting             bool
	notes                notifier // which panes wait, since when (notify.go)

	dirty bool
	// damaged are the panes whose screens changed since the last render
	// when nothing else did (dirty false), with the cells that changed,
	// row by row: render repaints only those (repaint.go). A pane whose
	// frame changed only its cursor is here with no spans.
	damaged map[string][]span
	// draw shows a new view on the terminal (terminal.show): the cells of
	// canvas (the rows in damage), and the cursor and mouse mode of the
	// view, whose Content then stays empty. Nil in tests, which read
	// view.Content.
	draw func(tea.View, *lipgloss.Canvas, damage)
	// canvas is the window's cells, painted by render and read by the
	// terminal's goroutine under canvasMu (nil in tests: no terminal).
	canvas   *lipgloss.Canvas
	canvasMu *sync.Mutex
	// mailByLoop: the event loop delivers the mailbox (loop.go), so no
	// Cmd waits on it.
	mailByLoop bool
	// command writes a terminal command between frames (terminal.command);
	// nil in tests, where bubbletea's own clipboard cmds stand in.
	command func(string)
	// alive reports whether a pane's leader (pid, start time) still runs
	// (client.LeaderAlive; tests of fake panes stand in).
	alive func(pid int, start uint64) bool
	view  tea.View
	outer outerColors // the outer terminal's colours, for the host (colors.go)
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
		opts.Adapters = panes.NewAdaptersFromConfig(opts.Config, os.Getenv("SHELL"))
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
	m := &Model{opts: opts, host: opts.Host, km: km, theme: theme, help: newHelpOverlay(km, theme),
		mail: newMailbox(), saver: &layoutSaver{path: layoutPath(opts.Paths)},
		tree: &layout.Tree{}, panes: map[string]*pane{}, dirty: true, after: tick, notes: newNotifier(), alive: client.LeaderAlive}
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
	return tea.Batch(m.startCmd(), m.eventsCmd(false), m.waitMail(), m.askColors())
}

// View implements tea.Model. The view is built in Update when something
// changed (render.go), so an unchanged model costs nothing here.
func (m *Model) View() tea.View { return m.view }

// area is the part of the screen the panes share: below the top border
// row (which carries the titles of the top panes) and above the status bar.
func (m *Model) area() layout.Rect {
	return layout.Rect{X: 0, Y: 1, W: max(m.width, 0), H: max(m.height-2, 0)}
}

// geometry lays the tree out on the area: the last layout again while
// neither changed. Callers only read it.
func (m *Model) geometry() layout.Geometry {
	a := m.area()
	if c := &m.geo; c.tree != nil && c.area == a && c.tree.Equal(m.tree) {
		return c.geo
	}
	m.geo = geoCache{tree: m.tree.Clone(), area: a, geo: m.tree.Rects(a, minPane)}
	return m.geo.geo
}

// geoCache is a layout and what it was computed from. Every echo laid
// the tree out twice (its repaint and the cursor), a quarter of its draw
// with eight panes (issue 12); comparing the tree with a copy of it
// allocates nothing.
type geoCache struct {
	tree *layout.Tree // a copy of the tree laid out
	area layout.Rect
	geo  layout.Geometry
}

// focused returns the focused pane, or nil.
func (m *Model) focused() *pane { return m.panes[m.tree.Focus()] }

// How long a status-bar message stays: errors a little longer.
const (
	statusTTL    = 5 * time.Second
	statusErrTTL = 10 * time.Second
)

// statusExpiredMsg clears the status message it was armed for.
type statusExpiredMsg struct{ seq int }

// setStatus shows a message in the status bar until it expires (Update
// arms its timer) or a newer one replaces it.
func (m *Model) setStatus(msg string, isErr bool) {
	m.status, m.statusErr, m.dirty = msg, isErr, true
	m.statusSeq++
}

// statusTimer arms the expiry of the newest status message, once.
func (m *Model) statusTimer() tea.Cmd {
	if m.statusArmed == m.statusSeq || m.status == "" {
		return nil
	}
	m.statusArmed = m.statusSeq
	ttl := statusTTL
	if m.statusErr {
		ttl = statusErrTTL
	}
	return m.after(ttl, statusExpiredMsg{seq: m.statusSeq})
}

// onStatusExpired clears the status message unless a newer one came.
func (m *Model) onStatusExpired(msg statusExpiredMsg) tea.Cmd {
	if msg.seq == m.statusSeq && m.status != "" {
		m.status, m.statusErr, m.dirty = "", false, true
	}
	return nil
}

// tick is after's default: a bubbletea timer.
func tick(d time.Duration, msg tea.Msg) tea.Cmd {
	return tea.Tick(d, func(time.Time) tea.Msg { return msg })
}

// Close ends every stream and the mailbox; panes keep running. Run calls
// it after the program ends.
func (m *Model) Close() {
	for _, p := range m.panes {
		p.close()
	}
	if m.events != nil {
		_ = m.events.Close() // best effort: the host ends it when we leave anyway
	}
	for _, q := range m.spawnIn {
		q.close()
	}
	m.mail.close()
}
