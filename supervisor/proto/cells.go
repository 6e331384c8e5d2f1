// This file is the cell model of screen frames and its compact binary row
// encoding (docs/protocol.md, "Rows and cells"). These are the protocol's
// own small types; the host maps vtgrid cells onto them, so the wire format
// does not change when the emulator's internals do.
//
// A row is a count of runs; a run is one head byte, the style fields the
// head announces, then the cells. Runs share one style, so a plain ASCII
// row costs its text plus a few bytes.

package proto

import (
	"errors"
	"fmt"
	"unicode/utf8"
)

// FrameColor is a colour: 0 is the default colour; 0x01_0000_II is palette
// index II (0-255); 0x02_RRGGBB is a truecolor value. Other values are
// invalid.
type FrameColor uint32

// ColorDefault is the terminal's default foreground, background or
// underline colour.
const ColorDefault FrameColor = 0

// IndexColor is palette colour i (0-15 are the ANSI colours).
func IndexColor(i uint8) FrameColor { return 1<<24 | FrameColor(i) }

// RGBColor is a truecolor value.
func RGBColor(r, g, b uint8) FrameColor {
	return 2<<24 | FrameColor(r)<<16 | FrameColor(g)<<8 | FrameColor(b)
}

// Index returns the palette index of an indexed colour.
func (c FrameColor) Index() (uint8, bool) { return uint8(c), c>>24 == 1 }

// RGB returns the components of a truecolor value.
func (c FrameColor) RGB() (r, g, b uint8, ok bool) {
	return uint8(c >> 16), uint8(c >> 8), uint8(c), c>>24 == 2
}

// Valid reports whether c is one of the three forms.
func (c FrameColor) Valid() bool {
	switch c >> 24 {
	case 0:
		return c == 0
	case 1:
		return c&0x00FFFF00 == 0
	case 2:
		return true
	}
	return false
}

// FrameAttr holds a cell's attribute bits; bits 3-5 are the underline
// style. Bits 10-15 are reserved: sent as zero, kept if received.
type FrameAttr uint16

// Attribute bits.
const (
	AttrBold    FrameAttr = 1 << 0
	AttrDim     FrameAttr = 1 << 1
	AttrItalic  FrameAttr = 1 << 2
	AttrBlink   FrameAttr = 1 << 6
	AttrReverse FrameAttr = 1 << 7
	AttrHidden  FrameAttr = 1 << 8
	AttrStrike  FrameAttr = 1 << 9

	attrULShift = 3
	attrULMask  = FrameAttr(7) << attrULShift
)

// Underline styles, as in SGR 4:n.
const (
	UnderlineNone   uint8 = 0
	UnderlineSingle uint8 = 1
	UnderlineDouble uint8 = 2
	UnderlineCurly  uint8 = 3
	UnderlineDotted uint8 = 4
	UnderlineDashed uint8 = 5
)

// Underline returns the underline style (0-5; 6 and 7 draw as single).
func (a FrameAttr) Underline() uint8 { return uint8((a & attrULMask) >> attrULShift) }

// WithUnderline returns a with underline style s (masked to 3 bits).
func (a FrameAttr) WithUnderline(s uint8) FrameAttr {
	return a&^attrULMask | FrameAttr(s&7)<<attrULShift
}

// FrameCell is one screen cell. Width is 1 for a normal cell, 2 for the
// first half of a wide character and 0 for the continuation cell that
// follows it (Text empty). A blank (erased) cell is {Width: 1} with empty
// Text; note the zero FrameCell is a continuation cell, not a blank. Text is
// one grapheme cluster (at most maxCellText bytes). Link is a hyperlink id
// (0 none), whose URL travels separately.
type FrameCell struct {
	Text       string
	Width      uint8
	Fg, Bg, UL FrameColor
	Attrs      FrameAttr
	Link       uint32
}

// blankCell is a blank of the default style.
var blankCell = FrameCell{Width: 1}

// maxCellText bounds one cell's grapheme in bytes.
const maxCellText = 255

// Run kinds, the low two bits of a run's head byte.
const (
	runBlank   = 0 // n blank cells
	runNarrow  = 1 // UTF-8 text, one rune per width-1 cell
	runWide    = 2 // UTF-8 text, one rune per width-2 cell + continuation
	runCluster = 3 // n cells, each: width byte, varint length, text
)

// Head byte bits saying which style fields follow (absent = 0).
const (
	headFg       = 1 << 2
	headBg       = 1 << 3
	headUL       = 1 << 4
	headAttrs    = 1 << 5
	headLink     = 1 << 6
	headReserved = 1 << 7
)

var errCell = errors.New("invalid cell")

// checkCell enforces the cell invariants on both encode and decode.
func checkCell(c *FrameCell) error {
	switch {
	case c.Width > 2:
		return fmt.Errorf("%w: width %d", errCell, c.Width)
	case c.Width == 0 && c.Text != "":
		return fmt.Errorf("%w: continuation cell with text %q", errCell, c.Text)
	case len(c.Text) > maxCellText:
		return fmt.Errorf("%w: %d bytes of text exceed %d", errCell, len(c.Text), maxCellText)
	case !c.Fg.Valid() || !c.Bg.Valid() || !c.UL.Valid():
		return fmt.Errorf("%w: bad colour %#x/%#x/%#x", errCell, c.Fg, c.Bg, c.UL)
	}
	return nil
}

// sameStyle reports whether two cells can share a run.
func sameStyle(a, b *FrameCell) bool {
	return a.Fg == b.Fg && a.Bg == b.Bg && a.UL == b.UL && a.Attrs == b.Attrs && a.Link == b.Link
}

// oneRune reports whether s is exactly one valid UTF-8 rune.
func oneRune(s string) bool {
	r, n := utf8.DecodeRuneInString(s)
	return n == len(s) && n > 0 && (r != utf8.RuneError || n > 1)
}

// cellKind classifies cells[i] and says how many cells it covers.
func cellKind(cells []FrameCell, i int) (kind, step int) {
	c := &cells[i]
	switch {
	case c.Width == 1 && c.Text == "":
		return runBlank, 1
	case c.Width == 1 && len(c.Text) == 1 && c.Text[0] < utf8.RuneSelf: // ASCII, most text: no decoding
		return runNarrow, 1
	case c.Width == 1 && oneRune(c.Text):
		return runNarrow, 1
	case c.Width == 2 && oneRune(c.Text) && i+1 < len(cells) &&
		cells[i+1].Width == 0 && sameStyle(c, &cells[i+1]):
		return runWide, 2
	}
	return runCluster, 1
}

// nextRun returns the kind and end of the run that starts at cells[i].
func nextRun(cells []FrameCell, i int) (kind, end int) {
	kind, step := cellKind(cells, i)
	end = i + step
	if cells[i] == blankCell { // the rest of most rows: one comparison a cell
		for end < len(cells) && cells[end] == blankCell {
			end++
		}
		return kind, end
	}
	for end < len(cells) && sameStyle(&cells[i], &cells[end]) {
		k, s := cellKind(cells, end)
		if k != kind {
			break
		}
		end += s
	}
	return kind, end
}
