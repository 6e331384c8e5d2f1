// A pane as the host holds it: its run (nil for a pane known only from
// agents.json), its raw ring, its vtgrid screen, its attention state and the
// waiters for its changes. Output reaches ring and screen through pane.Write
// (output.go), on the run's reader goroutine or a parse goroutine, under
// pane.mu; everything else reads under pane.mu.

package host

import (
	"sync"
	"sync/atomic"
	"time"

	"clowder/panes"
	"clowder/persist"
	"clowder/supervisor"
	"clowder/supervisor/proto"
	"clowder/vtgrid"
)

// pane is one pane of the host.
type pane struct {
	h       *Server
	id      string
	ring    *Ring
	out     outQueue      // output read and not yet parsed (output.go)
	adapter panes.Adapter // attention rules and key options, resolved once
	specSum [32]byte      // hash of the spawn request, to tell a retry from a nonce reused for another spec

	mu       sync.Mutex
	rec      persist.PaneRecord // the durable record (name, argv, state, exit...)
	run      *supervisor.Run
	term     *vtgrid.Terminal
	title    string // the program's newest title (OSC 0/2), for PaneInfo
	replies  []byte // answers vtgrid produced, written back to the child after each chunk
	lastOut  time.Time
	attn     attention
	in       inputState    // input and submissions (submit.go)
	changed  chan struct{} // closed at the next change: the broadcast to waiters; nil while nobody waits
	echoSubs []*screenSub  // screen subscribers the reader may write to itself (echo.go); never written in place
	watchers atomic.Int32  // subscriptions streaming the pane's output or screen (procs.go)
	echoRows echoCells     // the frame cells of the rows the reader's echoes converted last (echo.go)
	idleTick *time.Timer   // re-evaluates attention once output stops
	judge    judgeDue      // when idleTick should judge, and when it fires (attention.go)
	launch   *launch       // what the run was started with (memory only); nil if adopted from agents.json
	orphan   *orphan       // the tree an earlier host left, while adopted (orphans.go)
	tmux     *tmuxLink     // the tmux pane it is, if adopted from tmux (tmux.go)
	// handedOver marks a pane an earlier image of this host ran (upgrade.go):
	// its output and screen are this host's even once its run is gone.
	handedOver bool
	// ties counts the connections a kill_on_disconnect run is tied to
	// (conn.own): it is killed when the last of them ends.
	ties int

	// onTextCheck, when set, runs as a wait matches its regexp against a
	// screen: a test seam that proves the match runs outside mu.
	onTextCheck atomic.Pointer[func()]
	// onParse, when set, runs on the parse goroutine before each batch it
	// takes from the output queue: a test seam that holds the parse back.
	onParse atomic.Pointer[func()]
}

func newPane(h *Server, rec persist.PaneRecord) *pane {
	return newPaneSized(h, rec, int(h.opts.Config.Host.RingBytes), int(rec.Size.Cols), int(rec.Size.Rows))
}

// newPaneSized is newPane with the ring and screen sizes given (see
// adoptRecord, whose panes never get output).
func newPaneSized(h *Server, rec persist.PaneRecord, ringBytes, cols, rows int) *pane {
	p := &pane{h: h, id: rec.ID, rec: rec, adapter: h.adapterFor(rec)}
	p.ring = NewRing(ringBytes)
	p.term = p.newTerm(cols, rows, h.currentColorsLocked()) // under h.mu, or before Serve accepts clients
	p.attn.state = attnStarting
	return p
}

// newTerm makes a screen for the pane (a new pane's, or a re-adopted
// one's, escrow.go).
func (p *pane) newTerm(cols, rows int, colors vtgrid.Colors) *vtgrid.Terminal {
	return vtgrid.New(max(cols, 1), max(rows, 1), vtgrid.Options{
		ScrollbackLines: max(p.h.opts.Config.Host.ScrollbackLines, -1),
		Reply:           func(b []byte) { p.replies = append(p.replies, b...) },
		Event:           p.onTermEvent,
		Colors:          colors,
	})
}

// followSizeLocked resizes the screen to the PTY's size when a client
// changed it through its dup of the master.
func (p *pane) followSizeLocked() {
	if p.run == nil {
		return
	}
	cols, rows, ok := p.run.TermSize()
	if !ok {
		return
	}
	if sz := (persist.Size{Cols: cols, Rows: rows}); panes.ValidateSize(sz) != nil {
		// A client set the PTY out of bounds through its master dup: the
		// screen and the PTY take the nearest allowed size instead.
		sz = panes.ClampSize(sz)
		cols, rows = sz.Cols, sz.Rows
		_ = p.run.Resize(supervisor.Size{Cols: uint16(cols), Rows: uint16(rows)}) // best effort: the screen is bounded either way
	}
	if c, r := p.term.Size(); c != cols || r != rows {
		p.term.Resize(cols, rows)
	}
}

// broadcastLocked wakes every waiter and subscriber.
func (p *pane) broadcastLocked() {
	p.broadcastExceptLocked(nil)
}

// broadcastExceptLocked wakes every waiter and subscriber but the screen
// subscribers the reader has just sent the change to (echo.go).
func (p *pane) broadcastExceptLocked(served []bool) {
	if p.changed != nil { // no waiter, no channel: output with nobody watching allocates nothing
		close(p.changed)
		p.changed = nil
	}
	for i, ss := range p.echoSubs {
		if i >= len(served) || !served[i] {
			ss.signal()
		}
	}
}

// watch returns a channel closed at the pane's next change.
func (p *pane) watch() <-chan struct{} {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.changed == nil {
		p.changed = make(chan struct{})
	}
	return p.changed
}

// onTermEvent handles vtgrid events; it runs under p.mu (from Write).
func (p *pane) onTermEvent(e vtgrid.Event) {
	switch e.Kind {
	case vtgrid.EventTitle:
		p.title = e.Text
		p.h.events.publish(proto.PaneEvent{Kind: proto.EventTitle, Pane: p.id, Title: e.Text})
	case vtgrid.EventBell, vtgrid.EventNotify:
		p.attn.notified = true
	}
}

// hasRun reports whether this host started the pane, or adopted it from
// tmux (it may have exited).
func (p *pane) hasRun() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.run != nil || p.tmux != nil || p.handedOver
}

// ours reports whether this host runs the pane's tree.
func (p *pane) ours() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.runningLocked()
}

// live reports whether the pane's process tree may be running (ours, or an
// orphan of an earlier host).
func (p *pane) live() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.rec.State == persist.StateStarting || p.rec.State == persist.StateRunning || p.rec.State == persist.StateOrphaned
}

// info is the pane as PaneInfo.
func (p *pane) info() proto.PaneInfo {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.infoLocked()
}

func (p *pane) infoLocked() proto.PaneInfo {
	r := &p.rec
	_, end := p.ring.Bounds()
	cols, rows := p.sizeLocked()
	in := proto.PaneInfo{
		ID: r.ID, Name: r.Name, Kind: r.Kind.String(), Adapter: r.Adapter,
		State: r.State.String(), Attention: p.attn.state.String(),
		Pid: r.PID, PidStart: r.PIDStart, BootID: r.BootID, Cwd: r.Cwd, Argv: r.Argv,
		Cols: uint16(cols), Rows: uint16(rows), CreatedMS: r.Created.UnixMilli(), Seq: end,
	}
	if p.run != nil {
		c := p.run.Containment()
		in.Containment, in.ContainmentFallback = c.Kind, c.Fallback
	}
	if p.tmux != nil {
		in.Containment = p.tmuxContainmentLocked()
	}
	in.CwdNow = p.cwdNowLocked()
	in.Title = p.title
	in.Worktree = r.Worktree
	in.Note = r.Note
	in.Survivors = p.survivorsLocked()
	in.Session = r.Session
	if r.Exit != nil {
		in.ExitCode = r.Exit.Code
		in.ExitReason = r.Exit.Reason.String()
		if r.Exit.Signal != 0 {
			in.ExitSignal = supervisor.SignalName(syscallSignal(r.Exit.Signal))
		}
	}
	return in
}

// identity is the leader's identity as recorded.
func (p *pane) identity() supervisor.Identity {
	p.mu.Lock()
	defer p.mu.Unlock()
	return supervisor.Identity{PID: p.rec.PID, Start: p.rec.PIDStart, BootID: p.rec.BootID}
}
