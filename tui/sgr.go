package tui

// This file writes SGR sequences: the change from the terminal's pen to a
// cell's style, appended to the frame without an allocation, and colours
// downsampled to the outer terminal's profile once per colour. A coloured
// flood changes the pen every few cells; ultraviolet's diff built a string
// per change and converted every colour again (issue 12).

import (
	"image/color"
	"strconv"

	"github.com/charmbracelet/colorprofile"
	uv "github.com/charmbracelet/ultraviolet"
	"github.com/charmbracelet/x/ansi"
)

// sgrCodes are the SGR parameters that set each attribute bit, in bit
// order (uv.AttrBold first).
var sgrCodes = [8]string{"1", "2", "3", "5", "6", "7", "8", "9"}

// appendSGR appends the sequence that takes the terminal from style from
// to style to (both already in the terminal's profile): only the colours
// that change, unless an attribute goes away, which resets first.
func appendSGR(dst []byte, from, to *uv.Style) []byte {
	if *to == (uv.Style{}) {
		return append(dst, "\x1b[m"...)
	}
	reset := from.Attrs&^to.Attrs != 0 || (from.Underline != 0 && to.Underline != from.Underline)
	if reset {
		from = &uv.Style{}
	}
	dst = append(dst, "\x1b["...)
	n := len(dst)
	if reset {
		dst = append(dst, '0', ';')
	}
	for i, code := range sgrCodes {
		if bit := uint8(1) << i; to.Attrs&bit != 0 && from.Attrs&bit == 0 {
			dst = append(dst, code...)
			dst = append(dst, ';')
		}
	}
	if to.Underline != from.Underline {
		dst = appendUnderline(dst, to.Underline)
	}
	if to.Fg != from.Fg {
		dst = appendColor(dst, to.Fg, 30)
	}
	if to.Bg != from.Bg {
		dst = appendColor(dst, to.Bg, 40)
	}
	if to.UnderlineColor != from.UnderlineColor {
		dst = appendColor(dst, to.UnderlineColor, 50)
	}
	if len(dst) == n { // nothing changed after all
		return dst[:n-2]
	}
	dst[len(dst)-1] = 'm' // the last separator
	return dst
}

// appendUnderline appends the underline style and a separator.
func appendUnderline(dst []byte, u uv.Underline) []byte {
	switch u {
	case uv.UnderlineNone:
		return append(dst, "24;"...)
	case uv.UnderlineSingle:
		return append(dst, "4;"...)
	}
	dst = append(dst, "4:"...)
	dst = strconv.AppendInt(dst, int64(u), 10)
	return append(dst, ';')
}

// appendColor appends colour c for base (30 foreground, 40 background, 50
// underline) and a separator; nil is the default colour.
func appendColor(dst []byte, c color.Color, base int) []byte {
	switch c := c.(type) {
	case nil:
		dst = strconv.AppendInt(dst, int64(base+9), 10)
	case ansi.BasicColor:
		switch {
		case base == 50:
			dst = appendIndexed(dst, base, uint8(c))
		case c < 8:
			dst = strconv.AppendInt(dst, int64(base+int(c)), 10)
		default:
			dst = strconv.AppendInt(dst, int64(base+60+int(c)-8), 10)
		}
	case ansi.IndexedColor:
		dst = appendIndexed(dst, base, uint8(c))
	default:
		r, g, b, _ := c.RGBA()
		dst = strconv.AppendInt(dst, int64(base+8), 10)
		dst = append(dst, ";2;"...)
		dst = strconv.AppendInt(dst, int64(r>>8), 10)
		dst = append(dst, ';')
		dst = strconv.AppendInt(dst, int64(g>>8), 10)
		dst = append(dst, ';')
		dst = strconv.AppendInt(dst, int64(b>>8), 10)
	}
	return append(dst, ';')
}

// appendIndexed appends palette colour i for base.
func appendIndexed(dst []byte, base int, i uint8) []byte {
	dst = strconv.AppendInt(dst, int64(base+8), 10)
	dst = append(dst, ";5;"...)
	return strconv.AppendInt(dst, int64(i), 10)
}

// palette downsamples colours to a profile, remembering each one it did:
// the nearest palette entry to a truecolor colour is a search, and a
// truecolor flood brings a new colour every few cells. Truecolor is
// looked up by 5 bits a channel (32768 entries, each converted from the
// middle of its cube once), well within the palette's own steps.
type palette struct {
	profile colorprofile.Profile
	seen    map[color.Color]color.Color
	rgb     []uint16 // by 15-bit colour: 0 not yet, else 1+index, plus 256 for a basic colour
}

// style is s in the profile.
func (p *palette) style(s uv.Style) uv.Style {
	switch p.profile {
	case colorprofile.TrueColor:
		return s
	case colorprofile.NoTTY:
		return uv.Style{}
	case colorprofile.Ascii:
		s.Fg, s.Bg, s.UnderlineColor = nil, nil, nil
		return s
	}
	s.Fg, s.Bg, s.UnderlineColor = p.color(s.Fg), p.color(s.Bg), p.color(s.UnderlineColor)
	return s
}

// color is c in the profile.
func (p *palette) color(c color.Color) color.Color {
	if c == nil {
		return nil
	}
	if rgb, ok := c.(ansi.RGBColor); ok {
		return p.fromRGB(rgb)
	}
	if got, ok := p.seen[c]; ok {
		return got
	}
	if p.seen == nil || len(p.seen) >= 4096 { // bounded: a program may print every colour there is
		p.seen = map[color.Color]color.Color{}
	}
	got := p.profile.Convert(c)
	p.seen[c] = got
	return got
}

// fromRGB is truecolor c in the profile, by its 15-bit cube.
func (p *palette) fromRGB(c ansi.RGBColor) color.Color {
	if p.rgb == nil {
		p.rgb = make([]uint16, 1<<15)
	}
	k := int(c.R>>3)<<10 | int(c.G>>3)<<5 | int(c.B>>3)
	switch v := p.rgb[k]; {
	case v > 256:
		return ansi.BasicColor(v - 257)
	case v > 0:
		return ansi.IndexedColor(v - 1)
	}
	got := p.profile.Convert(ansi.RGBColor{R: c.R&^7 | 4, G: c.G&^7 | 4, B: c.B&^7 | 4})
	switch g := got.(type) {
	case ansi.BasicColor:
		p.rgb[k] = 257 + uint16(g)
	case ansi.IndexedColor:
		p.rgb[k] = 1 + uint16(g)
	}
	return got
}
