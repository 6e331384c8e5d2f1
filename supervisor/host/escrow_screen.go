// Repainting a re-adopted pane: the screen a client last drew (a full
// screen frame) as the terminal output that draws it again on a fresh
// vtgrid, modes included, so the pane's picture, key encoding and mouse
// mode carry over a host crash. Soft wraps, hyperlinks and scrollback do
// not travel: a frame does not hold them.

package host

import (
	"strconv"

	"clowder/supervisor/proto"
)

// repaint returns the bytes that draw f on a blank terminal of its size.
func repaint(f *proto.ScreenFrame) []byte {
	var b []byte
	if f.Modes.Flags&proto.ModeAltScreen != 0 {
		b = append(b, "\x1b[?1049h"...)
	}
	b = append(b, "\x1b[?7l\x1b[H\x1b[2J"...) // no autowrap while painting: the last column must not wrap
	for _, l := range f.Lines {
		b = paintRow(b, l)
	}
	b = append(b, "\x1b[0m"...)
	b = appendModes(b, f.Modes)
	return appendCursor(b, f)
}

// paintRow draws one row from its first column, every cell of it.
func paintRow(b []byte, l proto.FrameRow) []byte {
	b = append(b, "\x1b["...)
	b = strconv.AppendInt(b, int64(l.Y)+1, 10)
	b = append(b, ";1H"...)
	return paintCells(b, l.Cells, true) // upgrade.go
}

func sameCellStyle(a, b *proto.FrameCell) bool {
	return a.Fg == b.Fg && a.Bg == b.Bg && a.UL == b.UL && a.Attrs == b.Attrs
}

// appendSGR sets c's style from scratch.
func appendSGR(b []byte, c *proto.FrameCell) []byte {
	b = append(b, "\x1b[0"...)
	for _, a := range []struct {
		bit  proto.FrameAttr
		code string
	}{{proto.AttrBold, "1"}, {proto.AttrDim, "2"}, {proto.AttrItalic, "3"}, {proto.AttrBlink, "5"},
		{proto.AttrReverse, "7"}, {proto.AttrHidden, "8"}, {proto.AttrStrike, "9"}} {
		if c.Attrs&a.bit != 0 {
			b = append(b, ';')
			b = append(b, a.code...)
		}
	}
	if u := c.Attrs.Underline(); u != 0 {
		b = append(b, ";4:"...)
		b = strconv.AppendInt(b, int64(u), 10)
	}
	b = appendColor(b, "38", c.Fg)
	b = appendColor(b, "48", c.Bg)
	b = appendColor(b, "58", c.UL)
	return append(b, 'm')
}

// appendColor adds ";38;5;N" or ";38;2;R;G;B" for a non-default colour.
func appendColor(b []byte, base string, c proto.FrameColor) []byte {
	if i, ok := c.Index(); ok {
		b = append(b, ';')
		b = append(b, base...)
		b = append(b, ";5;"...)
		return strconv.AppendInt(b, int64(i), 10)
	}
	if r, g, bl, ok := c.RGB(); ok {
		b = append(b, ';')
		b = append(b, base...)
		b = append(b, ";2"...)
		for _, v := range []uint8{r, g, bl} {
			b = append(b, ';')
			b = strconv.AppendInt(b, int64(v), 10)
		}
	}
	return b
}

// mouseModes are the DECSET numbers of FrameModes.Mouse 1-4 and of
// MouseEncoding 1-3.
var (
	mouseModes    = [...]string{1: "9", 2: "1000", 3: "1002", 4: "1003"}
	mouseEncModes = [...]string{1: "1005", 2: "1006", 3: "1015"}
)

// appendModes sets the modes the frame reports (they start reset).
func appendModes(b []byte, m proto.FrameModes) []byte {
	for _, d := range []struct {
		bit proto.ModeFlags
		seq string
	}{{proto.ModeAppCursor, "\x1b[?1h"}, {proto.ModeAppKeypad, "\x1b="}, {proto.ModeBracketedPaste, "\x1b[?2004h"},
		{proto.ModeFocusReport, "\x1b[?1004h"}, {proto.ModeAutowrap, "\x1b[?7h"}, {proto.ModeInsert, "\x1b[4h"}} {
		if m.Flags&d.bit != 0 {
			b = append(b, d.seq...)
		}
	}
	if int(m.Mouse) < len(mouseModes) && m.Mouse > 0 {
		b = append(b, "\x1b[?"+mouseModes[m.Mouse]+"h"...)
	}
	if int(m.MouseEncoding) < len(mouseEncModes) && m.MouseEncoding > 0 {
		b = append(b, "\x1b[?"+mouseEncModes[m.MouseEncoding]+"h"...)
	}
	if m.KittyKeys != 0 {
		b = append(b, "\x1b[="+strconv.Itoa(int(m.KittyKeys))+";1u"...)
	}
	if m.ModifyOtherKeys != 0 {
		b = append(b, "\x1b[>4;"+strconv.Itoa(int(m.ModifyOtherKeys))+"m"...)
	}
	return b
}

// appendCursor puts the cursor where the frame has it, in its shape and
// visibility. A pending wrap (X = cols) is kept as the last column.
func appendCursor(b []byte, f *proto.ScreenFrame) []byte {
	x := min(int(f.Cursor.X), max(int(f.Cols)-1, 0))
	b = append(b, "\x1b["+strconv.Itoa(int(f.Cursor.Y)+1)+";"+strconv.Itoa(x+1)+"H"...)
	b = append(b, "\x1b["+strconv.Itoa(int(f.Cursor.Style))+" q"...)
	if !f.Cursor.Visible {
		b = append(b, "\x1b[?25l"...)
	}
	return b
}
