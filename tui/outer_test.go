package tui

import (
	"fmt"
	"image/color"
	"io"
	"math/rand"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/colorprofile"
	uv "github.com/charmbracelet/ultraviolet"
	"github.com/charmbracelet/x/ansi"

	"clowder/vtgrid"
)

// trueColorEnv is an outer terminal that takes every colour as it is.
var trueColorEnv = []string{"TERM=xterm-256color", "COLORTERM=truecolor"}

// testStyles are the styles the random canvases use: the default, colours
// of each kind, attributes, and a reverse blank (never erased with EL).
var testStyles = []uv.Style{
	{},
	{Fg: ansi.BasicColor(1)},
	{Fg: ansi.BasicColor(12), Attrs: uv.AttrBold},
	{Fg: ansi.IndexedColor(200), Bg: ansi.IndexedColor(17)},
	{Fg: ansi.RGBColor{R: 10, G: 200, B: 30}, Attrs: uv.AttrItalic | uv.AttrFaint},
	{Bg: ansi.RGBColor{R: 250, G: 1, B: 2}, Underline: uv.UnderlineSingle},
	{Attrs: uv.AttrReverse},
	{Attrs: uv.AttrStrikethrough, Fg: ansi.BasicColor(3)},
}

// randomRow paints row y of cv: runs of narrow and wide text in random
// styles, then a blank tail of random length.
func randomRow(r *rand.Rand, cv *lipgloss.Canvas, y int) {
	w := cv.Width()
	for x := 0; x < w; x++ {
		cv.SetCell(x, y, &uv.EmptyCell)
	}
	end := r.Intn(w + 1)
	style := testStyles[r.Intn(len(testStyles))]
	for x := r.Intn(3); x < end; {
		if r.Intn(6) == 0 {
			style = testStyles[r.Intn(len(testStyles))]
		}
		c := uv.Cell{Content: string(rune('a' + r.Intn(26))), Width: 1, Style: style}
		if r.Intn(5) == 0 {
			c.Content, c.Width = string([]rune("漢字かな한국")[r.Intn(6)]), 2
		}
		if r.Intn(7) == 0 {
			c.Content = " "
			c.Width = 1
		}
		cv.SetCell(x, y, &c)
		x += c.Width
	}
}

// vtColor is the vtgrid colour an SGR of c sets.
func vtColor(c color.Color) vtgrid.Color {
	switch c := c.(type) {
	case nil:
		return 0
	case ansi.BasicColor:
		return vtgrid.IndexedColor(uint8(c))
	case ansi.IndexedColor:
		return vtgrid.IndexedColor(uint8(c))
	case ansi.RGBColor:
		return vtgrid.RGBColor(c.R, c.G, c.B)
	}
	panic(fmt.Sprintf("colour %T", c))
}

// vtStyle is the vtgrid style of a canvas style.
func vtStyle(s uv.Style) vtgrid.Style {
	v := vtgrid.Style{Fg: vtColor(s.Fg), Bg: vtColor(s.Bg), UnderlineColor: vtColor(s.UnderlineColor),
		Underline: vtgrid.UnderlineStyle(s.Underline)}
	for _, a := range []struct {
		from uint8
		to   vtgrid.Attr
	}{{uv.AttrBold, vtgrid.AttrBold}, {uv.AttrFaint, vtgrid.AttrDim}, {uv.AttrItalic, vtgrid.AttrItalic},
		{uv.AttrReverse, vtgrid.AttrReverse}, {uv.AttrStrikethrough, vtgrid.AttrStrike}} {
		if s.Attrs&a.from != 0 {
			v.Attrs |= a.to
		}
	}
	return v
}

// sameScreen reports the first cell where the emulator's screen differs
// from the canvas ("" when none).
func sameScreen(vt *vtgrid.Terminal, cv *lipgloss.Canvas) string {
	snap := vt.Snapshot()
	for y := 0; y < cv.Height(); y++ {
		for x := 0; x < cv.Width(); x++ {
			want, got := cv.CellAt(x, y), snap.Cell(x, y)
			if want.Width == 0 {
				if got.Width() != 0 {
					return fmt.Sprintf("(%d,%d): want the second half of a wide character, got %q", x, y, got.Text())
				}
				continue
			}
			text := got.Text()
			if text == "" {
				text = " "
			}
			if text != want.Content || got.Style() != vtStyle(want.Style) {
				return fmt.Sprintf("(%d,%d): want %q %+v, got %q %+v\nrow: %q", x, y, want.Content, vtStyle(want.Style),
					text, got.Style(), rowOf(snap, y))
			}
		}
	}
	return ""
}

func rowOf(s *vtgrid.Snapshot, y int) string {
	var b strings.Builder
	for _, c := range s.Row(y) {
		b.WriteString(c.Text())
	}
	return b.String()
}

// The rows the TUI writes to the outer terminal, replayed by a terminal
// emulator, are the canvas: text, wide characters, colours of every kind
// and attributes, over many frames that each change a few random rows.
func TestOuterRowsReplayToTheCanvas(t *testing.T) {
	for seed := int64(1); seed <= 20; seed++ {
		r := rand.New(rand.NewSource(seed))
		const w, h = 60, 12
		o := newOuter(io.Discard, append([]string{"TTY_FORCE=1"}, trueColorEnv...))
		vt := vtgrid.New(w, h, vtgrid.Options{})
		_, _ = vt.Write(o.clear(nil, w, h))
		cv := lipgloss.NewCanvas(w, h)
		for frame := 0; frame < 40; frame++ {
			var out []byte
			for range 1 + r.Intn(4) {
				y := r.Intn(h)
				randomRow(r, cv, y)
				out = o.row(out, cv, y)
			}
			out = o.moveTo(out, r.Intn(w), r.Intn(h)) // where the view's cursor goes
			_, _ = vt.Write(out)
			if diff := sameScreen(vt, cv); diff != "" {
				t.Fatalf("seed %d, frame %d: %s\nwrote %q", seed, frame, diff, out)
			}
		}
	}
}

// A frame that changes one row writes that row's changed cells and a
// cursor position, nothing of the rows around it.
func TestAFrameWritesOnlyTheCellsItChanged(t *testing.T) {
	term, log, clk := testTerminal(t)
	f := bigFrame("$ a")
	showAndWait(t, term, log, f)
	vt := vtgrid.New(80, 24, vtgrid.Options{})
	for _, b := range log.writes {
		_, _ = vt.Write(b)
	}
	putText(f.cells, 10, 12, 5, "hello", uv.Style{Fg: ansi.BasicColor(2)})
	clk.advance(framePeriod)
	n := log.count()
	term.show(f.view, f.cells, damage{rows: []int{12}})
	waitUntil(t, "the frame written", func() bool { return log.count() > n })
	out := log.last()
	_, _ = vt.Write(out)
	if diff := sameScreen(vt, f.cells); diff != "" {
		t.Fatalf("after the frame: %s", diff)
	}
	// "hello" in green (5 + 5 bytes) plus the moves there and back.
	if len(out) > 5+10+16 {
		t.Errorf("one changed row of five cells wrote %d bytes: %q", len(out), out)
	}
}

// Issue 12: an echo cost the key, a blank after it and a backspace (the
// renderer wrote one cell past the key, then moved back): three bytes
// where tmux writes one. Now the cursor is already where the key goes
// and ends where the view puts it.
func TestAnEchoIsTheKeyAlone(t *testing.T) {
	term, log, _ := testTerminal(t)
	showAndWait(t, term, log, shellFrame("$ "))
	for _, s := range []string{"$ a", "$ ab", "$ abc"} {
		f := shellFrame(s)
		n := log.count()
		term.show(f.view, f.cells, damage{rows: []int{0}})
		waitUntil(t, "the echo written", func() bool { return log.count() > n })
		if got, want := string(log.last()), s[len(s)-1:]; got != want {
			t.Errorf("typing %q wrote %q, want %q", s, got, want)
		}
	}
}

// A wide character half overwritten, a row cut short and the cursor
// placed after them: the emulator sees the canvas, and the cursor where
// the view puts it.
func TestTheTerminalDrawsWideCharactersAndTheCursor(t *testing.T) {
	term, log, clk := testTerminal(t)
	f := shellFrame("漢字 wide")
	showAndWait(t, term, log, f)
	putText(f.cells, 1, 0, 10, "x", uv.Style{}) // the second half of 漢
	putText(f.cells, 4, 0, 4, "    ", uv.Style{})
	f.view.Cursor = tea.NewCursor(3, 0)
	clk.advance(framePeriod)
	n := log.count()
	term.show(f.view, f.cells, damage{rows: []int{0}})
	waitUntil(t, "the frame written", func() bool { return log.count() > n })
	vt := vtgrid.New(80, 24, vtgrid.Options{})
	for _, b := range log.writes {
		_, _ = vt.Write(b)
	}
	if diff := sameScreen(vt, f.cells); diff != "" {
		t.Fatal(diff)
	}
	if x, y, _ := vt.Snapshot().Cursor(); x != 3 || y != 0 {
		t.Errorf("cursor at (%d, %d), want (3, 0)", x, y)
	}
}

// Regression (issue 12): the renderer detected the colour profile from the
// buffer it rendered into, which is no terminal, so it wrote no colour and
// no attribute at all: panes' colours, the focused border, the badges, all
// drawn plain. The profile is the outer terminal's.
func TestTheTerminalDrawsColours(t *testing.T) {
	term, log, _ := testTerminal(t)
	f := shellFrame("$ ")
	putText(f.cells, 0, 1, 10, "red", uv.Style{Fg: ansi.BasicColor(1), Attrs: uv.AttrBold})
	putText(f.cells, 0, 2, 10, "rgb", uv.Style{Bg: ansi.IndexedColor(100)})
	showAndWait(t, term, log, f)
	vt := vtgrid.New(80, 24, vtgrid.Options{})
	for _, b := range log.writes {
		_, _ = vt.Write(b)
	}
	if diff := sameScreen(vt, f.cells); diff != "" {
		t.Fatal(diff)
	}
}

// The SGR the terminal writes between any two test styles takes an
// emulator from the one to the other, whatever came before.
func TestSGRTakesThePenFromAnyStyleToAnother(t *testing.T) {
	for i, from := range testStyles {
		for j, to := range testStyles {
			vt := vtgrid.New(4, 1, vtgrid.Options{})
			seq := appendSGR(nil, &uv.Style{}, &from)
			seq = append(seq, 'a')
			seq = appendSGR(seq, &from, &to)
			seq = append(seq, 'b')
			_, _ = vt.Write(seq)
			snap := vt.Snapshot()
			if got := snap.Cell(0, 0).Style(); got != vtStyle(from) {
				t.Errorf("style %d: %+v, want %+v (%q)", i, got, vtStyle(from), seq)
			}
			if got := snap.Cell(1, 0).Style(); got != vtStyle(to) {
				t.Errorf("style %d to %d: %+v, want %+v (%q)", i, j, got, vtStyle(to), seq)
			}
		}
	}
}

// Colours are downsampled to the outer terminal's profile: truecolor to
// the 256-colour palette when that is all it takes, as ultraviolet did.
func TestColoursAreDownsampledToTheProfile(t *testing.T) {
	p := palette{profile: colorprofile.ANSI256}
	s := p.style(uv.Style{Fg: ansi.RGBColor{R: 255, G: 0, B: 0}})
	if _, ok := s.Fg.(ansi.IndexedColor); !ok {
		t.Errorf("truecolor red in a 256-colour terminal is %T %v", s.Fg, s.Fg)
	}
	if again := p.style(uv.Style{Fg: ansi.RGBColor{R: 255, G: 0, B: 0}}); again != s {
		t.Errorf("the same colour converted twice: %v then %v", s, again)
	}
}

// A truecolor flood brings a new colour every few cells, and finding the
// nearest palette entry is a search: each 15-bit cube is converted once,
// to the entry its middle is nearest to (issue 12).
func TestTruecolorIsConvertedOncePerCube(t *testing.T) {
	for _, profile := range []colorprofile.Profile{colorprofile.ANSI256, colorprofile.ANSI} {
		p := palette{profile: profile}
		for _, c := range []ansi.RGBColor{{R: 255}, {G: 200, B: 10}, {R: 100, G: 100, B: 100}, {R: 3, G: 250, B: 128}} {
			mid := ansi.RGBColor{R: c.R&^7 | 4, G: c.G&^7 | 4, B: c.B&^7 | 4}
			want := profile.Convert(mid)
			if got := p.color(c); got != want {
				t.Errorf("%v in %v: %T %v, want %T %v", c, profile, got, got, want, want)
			}
			if got := p.color(c); got != want {
				t.Errorf("%v in %v the second time: %v, want %v", c, profile, got, want)
			}
		}
	}
}

// Regression: a wide character whose first half was the last cell that
// changed left the cursor model one column short (the write ended at the
// span's end, the terminal's cursor past the character), so the next
// relative move landed one column off.
func TestTheCursorIsPastAWideCharacterWritten(t *testing.T) {
	o := newOuter(io.Discard, append([]string{"TTY_FORCE=1"}, trueColorEnv...))
	vt := vtgrid.New(10, 2, vtgrid.Options{})
	out := o.clear(nil, 10, 2)
	cv := lipgloss.NewCanvas(10, 2)
	cv.SetCell(0, 0, &uv.Cell{Content: "漢", Width: 2})
	out = o.row(out, cv, 0)
	cv.SetCell(0, 0, &uv.Cell{Content: "字", Width: 2})
	out = o.row(out, cv, 0)
	out = o.moveTo(out, 2, 0)
	_, _ = vt.Write(out)
	if x, y, _ := vt.Snapshot().Cursor(); x != 2 || y != 0 {
		t.Errorf("cursor at (%d, %d), want (2, 0) after %q", x, y, out)
	}
}

// The terminal compares only the cells the model says it repainted: an
// echo's draw reads one cell of its row, not the row.
func TestTheTerminalReadsOnlyTheDamagedSpan(t *testing.T) {
	term, log, _ := testTerminal(t)
	showAndWait(t, term, log, shellFrame("$ "))
	f := shellFrame("$ a")
	putText(f.cells, 20, 0, 5, "stale", uv.Style{}) // not in the damage: never painted by the model
	n := log.count()
	term.show(f.view, f.cells, damage{rows: []int{0}, cols: [][2]int{{2, 3}}})
	waitUntil(t, "the echo written", func() bool { return log.count() > n })
	if got := string(log.last()); got != "a" {
		t.Errorf("the echo wrote %q, want the one cell of its span", got)
	}
}
