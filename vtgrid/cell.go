package vtgrid

// This file defines what one grid cell holds: a grapheme, a style and a
// hyperlink id. Cells are small values (24 bytes) copied freely; a grapheme of
// more than one code point is interned in the terminal's cluster table and the
// cell carries its index.

// ColorKind says how a Color is to be read.
type ColorKind uint8

// The kinds of colour a cell can carry.
const (
	ColorDefault ColorKind = iota // the terminal's default foreground or background
	ColorIndexed                  // one of the 256 palette entries
	ColorRGB                      // 24-bit truecolor
)

// Color is a packed colour: the kind in bits 24-25, a palette index or an RGB
// triple below. The zero value is the default colour.
type Color uint32

// IndexedColor returns palette colour i (0-15 are the ANSI colours).
func IndexedColor(i uint8) Color { return Color(uint32(ColorIndexed)<<24 | uint32(i)) }

// RGBColor returns a truecolor value.
func RGBColor(r, g, b uint8) Color {
	return Color(uint32(ColorRGB)<<24 | uint32(r)<<16 | uint32(g)<<8 | uint32(b))
}

// Kind reports whether c is the default, a palette index or RGB.
func (c Color) Kind() ColorKind { return ColorKind(c >> 24 & 3) }

// Index is the palette index of an indexed colour.
func (c Color) Index() uint8 { return uint8(c) }

// RGB returns the components of a truecolor value.
func (c Color) RGB() (r, g, b uint8) { return uint8(c >> 16), uint8(c >> 8), uint8(c) }

// Attr is a set of character attributes.
type Attr uint16

// Character attributes set by SGR.
const (
	AttrBold Attr = 1 << iota
	AttrDim
	AttrItalic
	AttrBlink
	AttrReverse
	AttrHidden
	AttrStrike
	AttrOverline
)

// UnderlineStyle is the SGR 4 / 4:n underline shape.
type UnderlineStyle uint8

// Underline styles, numbered as in SGR 4:n.
const (
	UnderlineNone UnderlineStyle = iota
	UnderlineSingle
	UnderlineDouble
	UnderlineCurly
	UnderlineDotted
	UnderlineDashed
)

// Style is everything SGR sets. It is comparable with ==; the zero value is
// the default style.
type Style struct {
	Fg, Bg, UnderlineColor Color
	Attrs                  Attr
	Underline              UnderlineStyle
}

// cellFlags mark the two halves of a wide character and DECSCA protection.
type cellFlags uint8

const (
	flagWide      cellFlags = 1 << iota // first cell of a two-column character
	flagCont                            // second cell of a two-column character
	flagProtected                       // DECSCA 1: selective erase (DECSED, DECSEL) leaves it
)

// clusterBase is where interned multi-rune graphemes start in Cell.r; it is
// above every Unicode code point.
const clusterBase = 0x200000

// Cell is one position of the grid. The zero value is an empty cell in the
// default style.
type Cell struct {
	r     rune // 0 = empty; a code point; or clusterBase+index of an interned grapheme
	style Style
	link  uint16 // hyperlink id (index+1 in the link table), 0 = none
	flags cellFlags
}

// Style is the cell's SGR style.
func (c Cell) Style() Style { return c.style }

// Width is 2 for the first cell of a wide character, 0 for its continuation
// cell and 1 otherwise.
func (c Cell) Width() int {
	switch {
	case c.flags&flagWide != 0:
		return 2
	case c.flags&flagCont != 0:
		return 0
	}
	return 1
}

// Protected reports whether the cell was written under DECSCA 1, so that
// selective erase (CSI ? J, CSI ? K) leaves it; ordinary erases ignore it.
func (c Cell) Protected() bool { return c.flags&flagProtected != 0 }

// Empty reports whether nothing was ever written to the cell (erased cells
// are empty too; they may still carry a background colour).
func (c Cell) Empty() bool { return c.r == 0 && c.flags&flagCont == 0 }
