package vtgrid

// This file holds the colours a terminal reports when a program asks: OSC 10
// (foreground), 11 (background), 12 (cursor) and 4 (palette entries). vtgrid
// never draws, so these colours only answer queries; a client that knows
// the real terminal's colours sets them with SetColors. Setting colours
// through OSC (OSC 10;#fff) is ignored: the program's screen is drawn by
// clients on terminals of their own.

import (
	"bytes"
	"strconv"
)

// Colors are what a terminal answers to colour queries. Each is an RGB
// colour or the zero value, which means unknown: an unknown foreground
// answers DefaultForeground, an unknown background DefaultBackground, an
// unknown cursor the foreground, and an unknown palette entry the standard
// xterm value (XtermPalette).
type Colors struct {
	Foreground, Background, Cursor Color
	// Palette holds the 256 indexed colours (OSC 4;N); 0-15 are the ANSI
	// colours.
	Palette [256]Color
}

// The headless defaults: what a terminal no client ever told its colours
// answers (a light grey on black, as xterm's reverse-video-free default).
var (
	DefaultForeground = RGBColor(0xd0, 0xd0, 0xd0)
	DefaultBackground = RGBColor(0, 0, 0)
)

// SetColors changes the colours the terminal reports from now on. Entries
// that are not RGB are unknown and fall back to the defaults.
func (t *Terminal) SetColors(c Colors) {
	t.colors = nil // the zero Colors: nothing held (a palette is 1 kB a pane)
	if c != (Colors{}) {
		t.colors = new(Colors) // not &c: c would move to the heap on every call
		*t.colors = c
	}
}

// Colors returns the colours last set (Options.Colors or SetColors).
func (t *Terminal) Colors() Colors {
	if t.colors == nil {
		return Colors{}
	}
	return *t.colors
}

// noColors is what a terminal with no colours set reports from.
var noColors Colors

// colorsSet is the colours to answer with.
func (t *Terminal) colorsSet() *Colors {
	if t.colors == nil {
		return &noColors
	}
	return t.colors
}

// colorDispatch answers the colour queries of OSC n (4, 10, 11 or 12).
func (t *Terminal) colorDispatch(n int, rest []byte, end byte) {
	if n == 4 {
		t.paletteQuery(rest, end)
		return
	}
	t.colorQuery(n, rest, end)
}

// foreground, background and cursor are the colours OSC 10, 11 and 12
// report.
func (c *Colors) foreground() Color { return orColor(c.Foreground, DefaultForeground) }
func (c *Colors) background() Color { return orColor(c.Background, DefaultBackground) }
func (c *Colors) cursor() Color     { return orColor(c.Cursor, c.foreground()) }

// palette is the colour OSC 4;i reports.
func (c *Colors) palette(i uint8) Color { return orColor(c.Palette[i], XtermPalette(i)) }

// orColor is c if it is RGB, else def.
func orColor(c, def Color) Color {
	if c.Kind() == ColorRGB {
		return c
	}
	return def
}

// ansi16 is xterm's default for the 16 ANSI colours.
var ansi16 = [16]Color{
	RGBColor(0x00, 0x00, 0x00), RGBColor(0xcd, 0x00, 0x00), RGBColor(0x00, 0xcd, 0x00), RGBColor(0xcd, 0xcd, 0x00),
	RGBColor(0x00, 0x00, 0xee), RGBColor(0xcd, 0x00, 0xcd), RGBColor(0x00, 0xcd, 0xcd), RGBColor(0xe5, 0xe5, 0xe5),
	RGBColor(0x7f, 0x7f, 0x7f), RGBColor(0xff, 0x00, 0x00), RGBColor(0x00, 0xff, 0x00), RGBColor(0xff, 0xff, 0x00),
	RGBColor(0x5c, 0x5c, 0xff), RGBColor(0xff, 0x00, 0xff), RGBColor(0x00, 0xff, 0xff), RGBColor(0xff, 0xff, 0xff),
}

// XtermPalette is xterm's default for palette entry i: the 16 ANSI
// colours, the 6x6x6 colour cube (16-231) and the grey ramp (232-255).
func XtermPalette(i uint8) Color {
	switch {
	case i < 16:
		return ansi16[i]
	case i < 232:
		n := i - 16
		return RGBColor(cubeLevel(n/36), cubeLevel(n/6%6), cubeLevel(n%6))
	}
	g := 8 + 10*(i-232)
	return RGBColor(g, g, g)
}

// cubeLevel is the intensity of step n (0-5) of xterm's colour cube.
func cubeLevel(n uint8) uint8 {
	if n == 0 {
		return 0
	}
	return 55 + 40*n
}

// colorQuery answers OSC 10, 11 and 12 queries. As in xterm, each further
// ";?" asks for the next dynamic colour (OSC 10;?;? is 10 and 11); a value
// other than "?" (a program setting its colour) is skipped. The answer ends
// the way the query did.
func (t *Terminal) colorQuery(n int, rest []byte, end byte) {
	for _, v := range bytes.Split(rest, []byte{';'}) {
		if string(v) == "?" && n <= 12 {
			t.replyColor(strconv.Itoa(n), t.dynamicColor(n), end)
		}
		n++
	}
}

// dynamicColor is the colour of OSC n (10, 11 or 12).
func (t *Terminal) dynamicColor(n int) Color {
	switch n {
	case 10:
		return t.colorsSet().foreground()
	case 11:
		return t.colorsSet().background()
	}
	return t.colorsSet().cursor()
}

// paletteQuery answers OSC 4;N;? for every "N;?" pair in rest; pairs that
// set a colour, and bad indexes, are skipped as xterm does.
func (t *Terminal) paletteQuery(rest []byte, end byte) {
	parts := bytes.Split(rest, []byte{';'})
	for i := 0; i+1 < len(parts); i += 2 {
		n, err := strconv.Atoi(string(parts[i]))
		if err != nil || n < 0 || n > 255 || string(parts[i+1]) != "?" {
			continue
		}
		t.replyColor("4;"+strconv.Itoa(n), t.colorsSet().palette(uint8(n)), end)
	}
}

// replyColor answers one colour query in xterm's form, OSC head ;
// rgb:rrrr/gggg/bbbb, terminated by BEL if the query was, else by ST.
func (t *Terminal) replyColor(head string, c Color, end byte) {
	r, g, b := c.RGB()
	buf := make([]byte, 0, 32)
	buf = append(buf, "\x1b]"...)
	buf = append(buf, head...)
	buf = append(buf, ";rgb:"...)
	buf = appendHex16(buf, r)
	buf = append(buf, '/')
	buf = appendHex16(buf, g)
	buf = append(buf, '/')
	buf = appendHex16(buf, b)
	if end == 0x07 {
		buf = append(buf, 0x07)
	} else {
		buf = append(buf, "\x1b\\"...)
	}
	t.reply(string(buf))
}

// appendHex16 appends an 8-bit component scaled to 16 bits (cd → cdcd), as
// xterm reports it.
func appendHex16(dst []byte, v uint8) []byte {
	const hex = "0123456789abcdef"
	h, l := hex[v>>4], hex[v&0xf]
	return append(dst, h, l, h, l)
}
