// Operations on one pane: lookup by id or name, input, resize, signals,
// capture and history.

package host

import (
	"context"
	"fmt"
	"syscall"
	"unsafe"

	"clowder/panes"
	"clowder/persist"
	"clowder/supervisor"
	"clowder/supervisor/proto"
	"clowder/vtgrid"
)

// allPanes returns the panes in creation order.
func (h *Server) allPanes() []*pane {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]*pane(nil), h.panes...)
}

// find resolves a pane id or unique name.
func (h *Server) find(ref string) (*pane, error) {
	var byName []*pane
	for _, p := range h.allPanes() {
		if p.id == ref {
			return p, nil
		}
		if p.name() == ref {
			byName = append(byName, p)
		}
	}
	switch len(byName) {
	case 0:
		return nil, &proto.ErrorReply{Code: proto.CodeNotFound, Message: fmt.Sprintf("no pane %q; see clowder ls", ref)}
	case 1:
		return byName[0], nil
	}
	return nil, &proto.ErrorReply{Code: proto.CodeAmbiguous, Message: fmt.Sprintf("%d panes are named %q; use the pane id from clowder ls", len(byName), ref)}
}

func (p *pane) name() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.rec.Name
}

// modes are the screen's current modes, for encoding input.
func (p *pane) modes() vtgrid.Modes {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.term.Modes()
}

// runningLocked reports whether this host runs the pane's tree.
func (p *pane) runningLocked() bool {
	return p.run != nil && p.rec.State == persist.StateRunning
}

// writeInput writes to the child's terminal; the pane then works until it
// is judged again (tookInputLocked).
func (p *pane) writeInput(b []byte) error {
	if p.tmuxOf() != nil {
		return p.tmuxWrite(b)
	}
	p.mu.Lock()
	run, running := p.run, p.runningLocked()
	p.mu.Unlock()
	if !running {
		return &proto.ErrorReply{Code: proto.CodeExited, Message: fmt.Sprintf("pane %s is not running; nothing reads input", p.id)}
	}
	if _, err := run.WriteInput(b); err != nil {
		return &proto.ErrorReply{Code: proto.CodeTimeout, Message: fmt.Sprintf("pane %s does not read its input (%v); the pane keeps running: try again later", p.id, err)}
	}
	p.mu.Lock()
	p.tookInputLocked()
	p.mu.Unlock()
	return nil
}

// input writes an input request's data and keys, encoded for the pane's
// modes (an adopted tmux pane's go through tmux, which encodes them).
func (p *pane) input(req *proto.InputReq) error {
	if p.tmuxOf() != nil {
		return p.tmuxInput(req)
	}
	keys, err := panes.ParseKeys(req.Keys)
	if err != nil {
		return &proto.ErrorReply{Code: proto.CodeBadRequest, Message: err.Error()}
	}
	data := append([]byte(nil), req.Data...)
	data = append(data, panes.EncodeKeys(keys, p.modes(), p.adapter.EncodeOptions())...)
	return p.writeInput(data)
}

// paste pastes a request's text, bracketed as the pane asked, and submits
// it when asked (an adopted tmux pane's through tmux's own paste).
func (p *pane) paste(ctx context.Context, req *proto.PasteReq) error {
	opts, err := req.PasteOptions()
	if err != nil {
		return &proto.ErrorReply{Code: proto.CodeBadRequest, Message: err.Error()}
	}
	if p.tmuxOf() != nil {
		return p.tmuxPaste(req)
	}
	if !req.PasteSubmits() {
		b, err := panes.Paste(req.PasteText(), p.modes(), opts)
		if err != nil {
			return &proto.ErrorReply{Code: proto.CodeBadRequest, Message: err.Error()}
		}
		return p.writeInput(b)
	}
	s, err := panes.Submit(req.PasteText(), p.modes(), &p.adapter, opts)
	if err != nil {
		return &proto.ErrorReply{Code: proto.CodeBadRequest, Message: err.Error()}
	}
	return p.submit(ctx, s, req.PasteText(), proto.DurationMS(req.WaitMS))
}

// resize sets the PTY size (the child gets SIGWINCH) and the screen's (an
// adopted tmux pane's through tmux).
func (p *pane) resize(cols, rows int) error {
	if p.tmuxOf() != nil {
		return p.tmuxResize(cols, rows)
	}
	if err := panes.ValidateSize(persist.Size{Cols: cols, Rows: rows}); err != nil {
		return proto.Invalid("cols/rows", "%v", err)
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.runningLocked() {
		if err := p.run.Resize(supervisor.Size{Cols: uint16(cols), Rows: uint16(rows)}); err != nil {
			return err
		}
	}
	p.term.Resize(cols, rows)
	p.broadcastLocked()
	return nil
}

// signal sends one signal to the pane's process group.
func (p *pane) signal(expected supervisor.Identity, sig syscall.Signal) error {
	p.mu.Lock()
	run, o, t := p.run, p.orphan, p.tmux
	p.mu.Unlock()
	if t != nil {
		return p.tmuxSignal(expected, sig)
	}
	if run == nil && o != nil && p.live() {
		return p.signalOrphan(o, expected, sig)
	}
	if run == nil {
		return &proto.ErrorReply{Code: proto.CodeExited, Message: fmt.Sprintf("pane %s has no process of this host", p.id)}
	}
	if expected.IsZero() {
		expected = run.Identity()
	}
	return identityError(run.Signal(expected, sig))
}

// capture renders the screen (and scrollback) as text or ANSI.
func (p *pane) capture(req *proto.CaptureReq) *proto.CapturedReply {
	p.mu.Lock()
	var s *vtgrid.Snapshot
	if req.Scrollback != 0 {
		s = p.term.SnapshotScrollback(req.Scrollback)
	} else {
		s = p.term.Snapshot()
	}
	p.mu.Unlock()
	var text []byte
	if req.ANSI {
		text = s.AppendHistoryANSI(nil)
	} else {
		text = s.AppendHistoryText(nil)
	}
	text = append(text, '\n')
	x, y, _ := s.Cursor()
	return &proto.CapturedReply{
		// text is this capture's own and never written again: a history of
		// half a megabyte is not copied into a string.
		Pane: p.id, Text: unsafe.String(&text[0], len(text)), Cols: uint16(s.Cols()), Rows: uint16(s.Rows()),
		CursorX: uint16(x), CursorY: uint16(y),
	}
}

// captureAnswer is the reply to req: captured-text, a binary body, when the
// client asked for it, else captured (JSON).
func (p *pane) captureAnswer(req *proto.CaptureReq) proto.Message {
	r := p.capture(req)
	if req.TextBody {
		return proto.CapturedTextOf(r)
	}
	return r
}

// historyRows returns a page of scrollback rows by absolute number.
func (p *pane) historyRows(req *proto.HistoryReq) *proto.HistoryRows {
	p.mu.Lock()
	defer p.mu.Unlock()
	cols, _ := p.term.Size()
	oldest, end := p.term.ScrollbackBounds()
	count := min(max(req.Count, 0), proto.MaxScreenCells/max(cols, 1))
	from := req.From
	if req.FromEnd {
		from = end - min(uint64(count), end-oldest)
	}
	rows, wrapped, first := p.term.ScrollbackRows(from, count)
	out := &proto.HistoryRows{Pane: p.id, Oldest: oldest, End: end, First: first, Cols: uint16(cols)}
	for i, r := range rows {
		out.Lines = append(out.Lines, proto.FrameRow{Wrapped: wrapped[i], Cells: frameCells(r, cols)})
	}
	return out
}

// attnOf is the attention of a pane loaded from the registry.
func attnOf(s persist.State) panes.Attention {
	if s == persist.StateOrphaned {
		return panes.Idle
	}
	return panes.Exited
}

// syscallSignal converts a recorded signal number.
func syscallSignal(n int) syscall.Signal { return syscall.Signal(n) }
