package streamgen

import "strconv"

// sgr appends one Select Graphic Rendition sequence: a reset or an attribute,
// then a foreground in one of the three colour forms and sometimes a
// background.
func (g *Generator) sgr(b []byte) []byte {
	b = append(b, "\x1b["...)
	b = append(b, pick(&g.r, []string{"0", "1", "3", "4", "2", "0;1", "22", "7"})...)
	b = append(b, ';')
	b = g.colour(b, 30)
	if g.r.chance(20) {
		b = append(b, ';')
		b = g.colour(b, 40)
	}
	return append(b, 'm')
}

// colour appends a colour parameter for base 30 (foreground) or 40
// (background): 16-colour 50%, 256-colour 25%, truecolor 25%.
func (g *Generator) colour(b []byte, base int) []byte {
	switch k := g.r.intn(4); {
	case k < 2:
		if g.r.chance(50) {
			base += 60 // bright: 90-97, 100-107
		}
		return appendInt(b, base+g.r.intn(8))
	case k == 2:
		b = appendInt(b, base+8)
		b = append(b, ";5;"...)
		return appendInt(b, g.r.intn(256))
	default:
		b = appendInt(b, base+8)
		b = append(b, ";2;"...)
		b = appendInt(b, g.r.intn(256))
		b = append(b, ';')
		b = appendInt(b, g.r.intn(256))
		b = append(b, ';')
		return appendInt(b, g.r.intn(256))
	}
}

func appendInt(b []byte, n int) []byte { return strconv.AppendInt(b, int64(n), 10) }
