package host

// This file closes a split paste (docs/protocol.md, paste: parts) that
// its client left open by going away between the first part and the
// last: the program would otherwise stay inside a bracketed paste and
// swallow every key typed after it, until something sent ESC[201~. The
// TUI and attach open and close their pastes this way (parts with no
// text) around a body they write to the PTY master themselves, so one
// killed in the middle of a paste is covered too. A connection told of
// an upgrade in place is not one that went away: its client sends the
// rest to the new host.

import (
	"context"

	"clowder/supervisor/proto"
)

// notePastePart records, once a part was pasted with the result err,
// that this connection's split paste into p began (its first part went)
// or ended (its last). A first part that failed opened nothing, so there
// is nothing to close if its client goes away.
func (c *conn) notePastePart(p *pane, part string, err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	switch part {
	case proto.PastePartFirst:
		if err != nil {
			return
		}
		if c.openPastes == nil {
			c.openPastes = map[*pane]bool{}
		}
		c.openPastes[p] = true
	case proto.PastePartLast:
		delete(c.openPastes, p)
	}
}

// closeOpenPastes ends the split pastes the connection left open; the
// connection has ended, so no part of them comes any more. Not called for
// a connection that hung up to follow an upgrade in place: its client
// sends the next parts to the new host.
func (c *conn) closeOpenPastes() {
	c.mu.Lock()
	open := c.openPastes
	c.openPastes = nil
	c.mu.Unlock()
	for p := range open {
		if err := p.endPaste(); err != nil {
			c.h.log.Printf("close the paste a client left open in pane %s: %v", p.id, err)
		}
	}
}

// endPaste closes a paste cut short: the closing bracket if the program
// asked for bracketed paste; an adopted tmux pane's gathered parts,
// which tmux has not seen, are dropped.
func (p *pane) endPaste() error {
	if l := p.tmuxOf(); l != nil {
		p.mu.Lock()
		l.paste = nil
		p.mu.Unlock()
		return nil
	}
	if !p.modes().BracketedPaste {
		return nil
	}
	return p.paste(context.Background(), &proto.PasteReq{Part: proto.PastePartLast})
}
