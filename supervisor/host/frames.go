// Screen frames: a vtgrid snapshot as protocol rows. A subscriber gets a
// full frame first (and after a resize), then only the rows whose contents
// changed since the frame it last got: snapshots share unchanged rows, so
// "changed" is a pointer comparison, per subscriber. While the program is
// inside a synchronized update (mode 2026) its frames are held, so no client
// draws a half-drawn screen. Frames are paced to a display refresh while
// the pane floods (framePace).

package host

import (
	"time"

	"clowder/supervisor/proto"
	"clowder/vtgrid"
)

// syncHoldMax bounds how long frames are held for one synchronized update
// (CSI ? 2026 h ... l), so a program that dies or forgets to end it does not
// freeze its pane. Terminals use 150 ms (Alacritty's vte,
// SYNC_UPDATE_TIMEOUT) to 1 s (Ghostty, sync_reset_ms in termio); the host
// takes the long end, since it sees output later than a local terminal.
const syncHoldMax = time.Second

// syncHold is one subscriber's view of the pane's synchronized update.
type syncHold struct {
	since time.Time // when this subscriber first saw the update; zero outside one
}

// held reports whether the frame of s must wait because the program is
// inside a synchronized update that began less than syncHoldMax ago, and if
// so whether the hold just started (the caller then arms a wake-up at the
// timeout, for a program that goes quiet inside the update).
func (h *syncHold) held(s *vtgrid.Snapshot, now time.Time) (hold, started bool) {
	if !s.Modes().SyncOutput {
		h.since = time.Time{}
		return false, false
	}
	if h.since.IsZero() {
		h.since = now
		started = true
	}
	return now.Sub(h.since) < syncHoldMax, started
}

// screenFramePeriod is one display refresh (60 Hz): after a big frame a
// subscriber's next frame waits this long from it, so a flooding pane costs
// one frame per refresh instead of one per PTY read (issue 12).
const screenFramePeriod = time.Second / 60

// bigFrameRows: a frame with more changed rows than this (a scroll, a
// redraw) paces the next one; an echo or a status line does not.
const bigFrameRows = 4

// screenFrameSettle is how long a pane must be quiet for a paced frame to
// go before its period ends (the flush rule): the last picture of a flood
// goes once the output stops, not when the period's timer fires. A quarter
// of a period, so a flood with short pauses still costs at most two frames
// per period.
const screenFrameSettle = screenFramePeriod / 4

// screenFrameSettle is the settle time of this host's paced frames.
func (h *Server) screenFrameSettle() time.Duration {
	if h.frameSettle > 0 {
		return h.frameSettle
	}
	return screenFrameSettle
}

// screenFramePeriod is the pacing period of this host's screen frames.
func (h *Server) screenFramePeriod() time.Duration {
	if h.framePeriod > 0 {
		return h.framePeriod
	}
	return screenFramePeriod
}

// framePace paces one subscriber's screen frames. A frame after a quiet
// period (an echoed key) goes at once; after a big frame the next waits for
// the end of the period, and then carries every row changed meanwhile,
// since frames are diffs against the last frame sent. The flush rule cuts
// the wait short once the pane has been quiet for the settle time
// (streamPane), so the last picture of a flood goes when the output stops.
type framePace struct {
	period time.Duration
	due    time.Time // when the next frame may go; zero: at once
}

// wait is how long the next frame must wait at now; 0: it may go.
func (fp *framePace) wait(now time.Time) time.Duration {
	if fp.due.IsZero() || !now.Before(fp.due) {
		return 0
	}
	return fp.due.Sub(now)
}

// flush lets the next frame go at once.
func (fp *framePace) flush() { fp.due = time.Time{} }

// quietFor is how long the pane has printed nothing, at now.
func (p *pane) quietFor(now time.Time) time.Duration {
	p.mu.Lock()
	defer p.mu.Unlock()
	return now.Sub(p.lastOut)
}

// sent records f as sent at now.
func (fp *framePace) sent(f *proto.ScreenFrame, now time.Time) {
	fp.due = time.Time{}
	if !f.Full && len(f.Lines) > bigFrameRows {
		fp.due = now.Add(fp.period)
	}
}

// wakeAfter wakes the pane's subscribers and waiters after d.
func (p *pane) wakeAfter(d time.Duration) {
	time.AfterFunc(d, func() {
		p.mu.Lock()
		defer p.mu.Unlock()
		p.broadcastLocked()
	})
}

// screenFrame builds the frame for s, sending only rows that differ from
// prev (nil: everything).
func screenFrame(pane string, seq uint64, s, prev *vtgrid.Snapshot) *proto.ScreenFrame {
	return screenFrameFrom(pane, seq, s, prev, nil)
}

// screenFrameFrom is screenFrame taking its rows' cells from rc (nil: new
// cells). Cells from rc are rc's until its next conversion: the frame must
// be encoded before that.
func screenFrameFrom(pane string, seq uint64, s, prev *vtgrid.Snapshot, rc *rowCells) *proto.ScreenFrame {
	f := &proto.ScreenFrame{Pane: pane, Seq: seq, Cols: uint16(s.Cols()), Rows: uint16(s.Rows())}
	full := prev == nil || prev.Cols() != s.Cols() || prev.Rows() != s.Rows()
	f.Full = full
	x, y, visible := s.Cursor()
	m := s.Modes()
	f.Cursor = proto.FrameCursor{X: uint16(x), Y: uint16(y), Visible: visible, Style: uint8(m.CursorStyle)}
	f.Modes = frameModes(m)
	changed := s.Rows()
	if !full {
		changed = changedRows(s, prev)
	}
	if changed > bigFrameRows {
		rc = nil // rc keeps fewer rows than such a frame carries
	}
	var slab []proto.FrameCell
	if rc == nil {
		slab = make([]proto.FrameCell, s.Cols()*changed) // one allocation for the frame's rows, not one per row, nor for rows it does not carry
	}
	f.Lines = make([]proto.FrameRow, 0, changed)
	for row := 0; row < s.Rows(); row++ {
		if !full && sameRow(s.Row(row), prev.Row(row)) {
			continue
		}
		var cells []proto.FrameCell
		if rc != nil {
			cells = rc.convert(row, s.Row(row), s.Cols())
		} else {
			cells = frameCellsInto(slab[:s.Cols():s.Cols()], s.Row(row))
			slab = slab[s.Cols():]
		}
		f.Lines = append(f.Lines, proto.FrameRow{Y: uint16(row), Wrapped: s.Wrapped(row), Cells: cells})
	}
	return f
}

// rowCells keeps the frame cells of the rows last converted, at most
// bigFrameRows of them, for the echo's fast path (echo.go): the next echo
// of a row converts only its cells that changed, and several subscribers
// of one echo share one conversion (issue 12: the conversion was a fifth
// of an echo's work on the reader). Snapshot rows never change once taken,
// so a row converted is known by its cells' address.
type rowCells struct {
	rows []convRow // the oldest first
}

// convRow is one converted row.
type convRow struct {
	y   int
	src []vtgrid.Cell     // the snapshot row converted
	out []proto.FrameCell // its frame cells, padded with blanks to the columns
}

// convert is frameCellsInto for row y of a snapshot with cols columns; the
// cells returned are rc's until its next conversion.
func (rc *rowCells) convert(y int, row []vtgrid.Cell, cols int) []proto.FrameCell {
	cr := rc.slot(y)
	switch {
	case sameRow(row, cr.src) && len(cr.out) == max(cols, len(row)):
		return cr.out // this echo's other subscriber converted it
	case len(row) == len(cr.src) && len(cr.out) == max(cols, len(row)):
		for i, c := range row {
			if c != cr.src[i] {
				cr.out[i] = frameCell(c)
			}
		}
	default:
		if cap(cr.out) < max(cols, len(row)) {
			cr.out = make([]proto.FrameCell, max(cols, len(row)))
		}
		cr.out = frameCellsInto(cr.out[:max(cols, len(row))], row)
	}
	cr.src = row
	return cr.out
}

// slot is the converted row at y, or the oldest one's place for it (its
// buffers kept, its cells no longer trusted).
func (rc *rowCells) slot(y int) *convRow {
	for i := range rc.rows {
		if rc.rows[i].y == y {
			return &rc.rows[i]
		}
	}
	if len(rc.rows) < bigFrameRows {
		rc.rows = append(rc.rows, convRow{y: y})
		return &rc.rows[len(rc.rows)-1]
	}
	old := rc.rows[0]
	copy(rc.rows, rc.rows[1:])
	rc.rows[len(rc.rows)-1] = convRow{y: y, out: old.out[:0]}
	return &rc.rows[len(rc.rows)-1]
}

// sameRow reports whether two snapshot rows are the same row: snapshots of
// one terminal share the cells of rows that did not change.
func sameRow(a, b []vtgrid.Cell) bool {
	return len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0])
}

func frameModes(m vtgrid.Modes) proto.FrameModes {
	var fl proto.ModeFlags
	set := func(on bool, bit proto.ModeFlags) {
		if on {
			fl |= bit
		}
	}
	set(m.AppCursor, proto.ModeAppCursor)
	set(m.AppKeypad, proto.ModeAppKeypad)
	set(m.BracketedPaste, proto.ModeBracketedPaste)
	set(m.Focus, proto.ModeFocusReport)
	set(m.AltScreen, proto.ModeAltScreen)
	set(m.SyncOutput, proto.ModeSyncOutput)
	set(m.Autowrap, proto.ModeAutowrap)
	set(m.Origin, proto.ModeOrigin)
	set(m.Insert, proto.ModeInsert)
	return proto.FrameModes{
		Flags: fl, Mouse: uint8(m.Mouse), MouseEncoding: uint8(m.MouseEnc),
		KittyKeys: m.KittyKeyboard, ModifyOtherKeys: uint8(m.ModifyOtherKeys),
	}
}

// frameCells converts a row, padded with blanks to cols.
func frameCells(row []vtgrid.Cell, cols int) []proto.FrameCell {
	return frameCellsInto(make([]proto.FrameCell, max(cols, len(row))), row)
}

// frameCellsInto converts a row into out, padded with blanks; a row longer
// than out gets cells of its own.
func frameCellsInto(out []proto.FrameCell, row []vtgrid.Cell) []proto.FrameCell {
	if len(row) > len(out) {
		out = make([]proto.FrameCell, len(row))
	}
	for i := range out {
		if i >= len(row) {
			out[i] = proto.FrameCell{Width: 1}
			continue
		}
		out[i] = frameCell(row[i])
	}
	return out
}

func frameCell(c vtgrid.Cell) proto.FrameCell {
	st := c.Style()
	if st == (vtgrid.Style{}) && c.LinkID() == 0 { // plain text: the common case of a flood
		return proto.FrameCell{Text: c.Text(), Width: uint8(c.Width())}
	}
	return styledFrameCell(c)
}

// styledFrameCell is frameCell for any cell.
func styledFrameCell(c vtgrid.Cell) proto.FrameCell {
	st := c.Style()
	return proto.FrameCell{
		Text: c.Text(), Width: uint8(c.Width()),
		Fg: frameColor(st.Fg), Bg: frameColor(st.Bg), UL: frameColor(st.UnderlineColor),
		Attrs: frameAttrs(st), Link: uint32(c.LinkID()),
	}
}

func frameColor(c vtgrid.Color) proto.FrameColor {
	switch c.Kind() {
	case vtgrid.ColorIndexed:
		return proto.IndexColor(c.Index())
	case vtgrid.ColorRGB:
		r, g, b := c.RGB()
		return proto.RGBColor(r, g, b)
	}
	return proto.ColorDefault
}

// attrBits maps vtgrid attributes onto the protocol's bits.
var attrBits = []struct {
	from vtgrid.Attr
	to   proto.FrameAttr
}{
	{vtgrid.AttrBold, proto.AttrBold}, {vtgrid.AttrDim, proto.AttrDim}, {vtgrid.AttrItalic, proto.AttrItalic},
	{vtgrid.AttrBlink, proto.AttrBlink}, {vtgrid.AttrReverse, proto.AttrReverse}, {vtgrid.AttrHidden, proto.AttrHidden},
	{vtgrid.AttrStrike, proto.AttrStrike},
}

func frameAttrs(st vtgrid.Style) proto.FrameAttr {
	var a proto.FrameAttr
	for _, b := range attrBits {
		if st.Attrs&b.from != 0 {
			a |= b.to
		}
	}
	return a.WithUnderline(uint8(st.Underline))
}
