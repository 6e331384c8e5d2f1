package tui

// This file is what the TUI knows of one pane: the host's description, the
// TUI's own label, its picture, its subscription and master fd, and the
// size last asked of the host.

import (
	"fmt"

	"clowder/layout"
	"clowder/persist"
	"clowder/supervisor/client"
	"clowder/supervisor/proto"
)

// paneState is a pane's life as the TUI sees it.
type paneState uint8

const (
	paneStarting paneState = iota // spawned, not yet reported running
	paneRunning                   // the process runs
	paneExited                    // the process ended; the host still has it
	paneMissing                   // in layout.json but the host has no such pane
	panePending                   // asked for: has its place and the keyboard; the host has not answered
)

var paneStateNames = [...]string{"starting", "running", "exited", "missing", "pending"}

// String names the state.
func (s paneState) String() string {
	if int(s) < len(paneStateNames) {
		return paneStateNames[s]
	}
	return fmt.Sprintf("paneState(%d)", uint8(s))
}

// gone reports whether the pane has no process (respawn applies).
func (s paneState) gone() bool { return s == paneExited || s == paneMissing }

// pane is one pane of the layout.
type pane struct {
	id    string
	info  proto.PaneInfo // as the host last described it
	meta  paneMeta       // what layout.json keeps, for respawn and labels
	state paneState
	scr   screen

	stream Stream         // the screen subscription, nil when none
	token  int            // identifies stream in the mailbox
	master *client.Master // PTY master dup from the subscription, nil when none
	held   *client.Master // the master kept after the connection was lost, until a host takes it back (escrow.go)
	in     *inputQueue    // what is typed for the pane, in order (inputqueue.go); nil until used

	size   layout.Size // the size last asked of the host
	sizing bool        // a resize call is in flight
	want   layout.Size // the size the layout gives the pane now
}

// stateOf maps the host's state string.
func stateOf(info proto.PaneInfo) paneState {
	switch info.State {
	case "exited", "lost": // no process: respawn applies
		return paneExited
	case "starting":
		return paneStarting
	}
	return paneRunning
}

// newPane makes a pane from the host's description.
func newPane(info proto.PaneInfo) *pane {
	p := &pane{id: info.ID}
	p.update(info)
	return p
}

// update takes a newer description from the host.
func (p *pane) update(info proto.PaneInfo) {
	p.info, p.state = info, stateOf(info)
	label := p.meta.Label
	p.meta = metaOf(info)
	p.meta.Label = label
}

// name is what borders and the status bar call the pane: the TUI label,
// else the host's name, else its id.
func (p *pane) name() string {
	switch {
	case p.meta.Label != "":
		return p.meta.Label
	case p.meta.Name != "":
		return p.meta.Name
	}
	return p.id
}

// kind is the pane's kind ("agent", "shell", "run"), or the adapter name
// for agents.
func (p *pane) kind() string {
	if p.meta.Adapter != "" {
		return p.meta.Adapter
	}
	if p.meta.Kind == "" {
		return persist.KindShell.String()
	}
	return p.meta.Kind
}

// attention is the host's attention state, or "exited"/"lost"/"missing".
func (p *pane) attention() string {
	if p.state == paneExited && p.info.State == "lost" {
		return p.info.State
	}
	if p.state.gone() {
		return p.state.String()
	}
	return p.info.Attention
}

// needsInput reports whether the pane waits for its user.
func (p *pane) needsInput() bool { return !p.state.gone() && p.info.Attention == "needs-input" }

// close ends the pane's subscription and its input queue: it leaves the
// model.
func (p *pane) close() {
	p.closeStream()
	p.closeInput()
	if p.held != nil {
		_ = p.held.Close() // best effort: leaving without a host to hand it to
		p.held = nil
	}
}

// closeInput drops what waits to be typed into the pane.
func (p *pane) closeInput() {
	if p.in != nil {
		p.in.close()
		p.in = nil
	}
}

// closeStream ends the pane's subscription (and with it the master dup).
func (p *pane) closeStream() {
	if p.stream != nil {
		_ = p.stream.Close() // best effort: the host ends it when we leave anyway
	}
	p.stream, p.master = nil, nil
}
