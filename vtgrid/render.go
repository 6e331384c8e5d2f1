package vtgrid

// This file renders snapshots as plain text (like `tmux capture-pane -p`) and
// as ANSI (like `capture-pane -p -e`): rows joined by newlines, trailing
// blanks trimmed.

import (
	"slices"
	"strconv"
	"strings"
)

// Text returns the visible screen as text: each row's trailing blanks
// trimmed, rows joined with "\n", no final newline.
func (s *Snapshot) Text() string { return string(s.appendScreenText(nil)) }

// appendScreenText appends Text to b.
func (s *Snapshot) appendScreenText(b []byte) []byte {
	for y := 0; y < s.rows; y++ {
		if y > 0 {
			b = append(b, '\n')
		}
		b = appendRowText(b, s.grid[y])
	}
	return b
}

// HistoryText is Text for the scrollback rows the snapshot carries followed
// by the screen.
func (s *Snapshot) HistoryText() string { return string(s.AppendHistoryText(nil)) }

// AppendHistoryText appends HistoryText to b, growing it once for the
// whole (a capture of 10,000 lines built it in four copies: issue 12).
func (s *Snapshot) AppendHistoryText(b []byte) []byte {
	size := s.rows * (s.cols + 1) // ASCII rows; wider text grows it again
	for i := range s.history {
		size += int(s.history[i].n) + 1
	}
	b = slices.Grow(b, size)
	for i := range s.history {
		b = s.history[i].appendText(b)
		b = append(b, '\n')
	}
	return s.appendScreenText(b)
}

// appendRowText appends a row's characters with trailing blanks trimmed.
func appendRowText(b []byte, row []Cell) []byte {
	start := len(b)
	for _, c := range row {
		if c.flags&flagCont != 0 {
			continue
		}
		b = appendRune(b, max(c.r, ' '))
	}
	end := len(b)
	for end > start && b[end-1] == ' ' {
		end--
	}
	return b[:end]
}

// ANSI returns the visible screen with SGR sequences and OSC 8 hyperlinks,
// rows joined with "\r\n". Feeding it to a fresh terminal of the same size
// reproduces every cell's text and style, even one in raw mode.
func (s *Snapshot) ANSI() string {
	var w ansiWriter
	w.links = s.links
	w.screen(s, "\r\n")
	return string(w.b)
}

// HistoryANSI is the carried scrollback rows followed by the screen, with
// SGR sequences and OSC 8 hyperlinks, rows joined with "\n" as
// HistoryText's are: the form `capture --ansi` prints, and tmux's
// capture-pane -e, for a file or a pipe whose lines end in LF.
func (s *Snapshot) HistoryANSI() string { return string(s.AppendHistoryANSI(nil)) }

// AppendHistoryANSI appends HistoryANSI to b.
func (s *Snapshot) AppendHistoryANSI(b []byte) []byte {
	w := ansiWriter{b: b, links: s.links}
	var cells []Cell // reused: each row is written before the next is decoded
	for i := range s.history {
		cells = s.history[i].appendCells(cells[:0])
		w.row(cells)
		w.b = append(w.b, '\n')
	}
	w.screen(s, "\n")
	return w.b
}

// screen writes the visible rows joined with sep and resets the style.
func (w *ansiWriter) screen(s *Snapshot, sep string) {
	for y := 0; y < s.rows; y++ {
		if y > 0 {
			w.b = append(w.b, sep...)
		}
		w.row(s.grid[y])
	}
	w.setStyle(Style{}, 0)
}

// ansiWriter tracks the style already emitted so it writes only changes.
type ansiWriter struct {
	b     []byte
	st    Style
	link  uint16
	links []string
}

func (w *ansiWriter) row(cells []Cell) {
	n := len(cells)
	for n > 0 && cells[n-1] == (Cell{}) {
		n--
	}
	for _, c := range cells[:n] {
		if c.flags&flagCont != 0 {
			continue
		}
		w.setStyle(c.style, c.link)
		w.b = appendRune(w.b, max(c.r, ' '))
	}
	w.setStyle(Style{}, 0)
}

func (w *ansiWriter) setStyle(st Style, link uint16) {
	if st != w.st {
		w.b = appendSGR(w.b, st)
		w.st = st
	}
	if link != w.link {
		uri := ""
		params := ""
		if link != 0 && int(link) <= len(w.links) {
			params, uri, _ = cutLink(w.links[link-1])
		}
		w.b = append(w.b, "\x1b]8;"+params+";"+uri+"\x1b\\"...)
		w.link = link
	}
}

// appendSGR appends one SGR sequence that sets exactly st from any state.
func appendSGR(b []byte, st Style) []byte {
	b = append(b, "\x1b[0"...)
	for _, a := range sgrAttrs {
		if st.Attrs&a.attr != 0 {
			b = append(b, a.code...)
		}
	}
	switch st.Underline {
	case UnderlineNone:
	case UnderlineSingle:
		b = append(b, ";4"...)
	default:
		b = append(b, ";4:"...)
		b = strconv.AppendInt(b, int64(st.Underline), 10)
	}
	b = appendColor(b, st.Fg, "30", "90", "38")
	b = appendColor(b, st.Bg, "40", "100", "48")
	b = appendColor(b, st.UnderlineColor, "", "", "58")
	return append(b, 'm')
}

var sgrAttrs = []struct {
	attr Attr
	code string
}{
	{AttrBold, ";1"}, {AttrDim, ";2"}, {AttrItalic, ";3"}, {AttrBlink, ";5"},
	{AttrReverse, ";7"}, {AttrHidden, ";8"}, {AttrStrike, ";9"}, {AttrOverline, ";53"},
}

// appendColor appends c as ;30+i / ;90+i for the 16 colours (when base and
// bright are given), else ;38:5:i or ;38:2::r:g:b.
func appendColor(b []byte, c Color, base, bright, ext string) []byte {
	switch c.Kind() {
	case ColorIndexed:
		i := int(c.Index())
		if base != "" && i < 16 {
			code := base
			if i >= 8 {
				code, i = bright, i-8
			}
			n, _ := strconv.Atoi(code)
			return strconv.AppendInt(append(b, ';'), int64(n+i), 10)
		}
		b = append(b, ";"+ext+":5:"...)
		return strconv.AppendInt(b, int64(i), 10)
	case ColorRGB:
		r, g, bl := c.RGB()
		b = append(b, ";"+ext+":2::"...)
		return append(b, strings.Join([]string{
			strconv.Itoa(int(r)), strconv.Itoa(int(g)), strconv.Itoa(int(bl))}, ":")...)
	}
	return b
}
