package vtgrid

import (
	"strings"
	"testing"
)

// TestHistoryTextNeedsNoExpansion: capture renders scrollback text from
// the compact rows directly (no cells allocated, outside the pane lock);
// it must equal the text of the expanded cells for every kind of row.
func TestHistoryTextNeedsNoExpansion(t *testing.T) {
	term := New(20, 3, Options{ScrollbackLines: 100})
	rows := []string{
		"plain ascii", "\x1b[31mred\x1b[0m and \x1b[1mbold\x1b[0m", "wide 日本語 chars", "e\u0301 cluster",
		"\x1b[44m   \x1b[0m", "trailing   ", "", "a\tb", strings.Repeat("w", 25), "\x1b[7mreverse tail   \x1b[0m",
	}
	for _, r := range rows {
		term.Write([]byte(r + "\r\n"))
	}
	term.Write([]byte("\n\n\n"))
	s := term.SnapshotScrollback(-1)
	if s.HistoryLen() < len(rows) {
		t.Fatalf("scrollback holds %d rows, want at least %d", s.HistoryLen(), len(rows))
	}
	for i := range s.history {
		got := string(s.history[i].appendText(nil))
		want := string(appendRowText(nil, s.HistoryRow(i)))
		if got != want {
			t.Errorf("row %d: text %q, from its cells %q", i, got, want)
		}
	}
}

// TestHistoryANSIRowsEndInLF: `capture --ansi` prints HistoryANSI, and its
// rows end as HistoryText's do, with LF (as tmux's capture-pane -e): a CR
// before each LF broke every `grep 'x$'` and line count of a saved capture.
// ANSI, the form fed back to a terminal, keeps CR LF.
func TestHistoryANSIRowsEndInLF(t *testing.T) {
	term := New(12, 3, Options{ScrollbackLines: 10})
	term.Write([]byte("\x1b[31mone\x1b[0m\r\ntwo\r\nthree\r\nfour\r\nfive"))
	s := term.SnapshotScrollback(-1)
	got := s.HistoryANSI()
	if strings.Contains(got, "\r") {
		t.Fatalf("HistoryANSI has a CR: %q", got)
	}
	if n, want := strings.Count(got, "\n")+1, s.HistoryLen()+s.Rows(); n != want {
		t.Fatalf("HistoryANSI has %d lines, want %d (history and screen): %q", n, want, got)
	}
	if text := s.HistoryText(); strings.Count(text, "\n") != strings.Count(got, "\n") {
		t.Fatalf("HistoryANSI and HistoryText differ in lines:\n%q\n%q", got, text)
	}
	if a := s.ANSI(); strings.Count(a, "\r\n") != s.Rows()-1 {
		t.Fatalf("ANSI rows are not joined with CR LF: %q", a)
	}
}

// TestScreenTextNeedsNoSnapshot: a wait for a text reads the screen's
// text under the pane's lock on every change; AppendText builds it from
// the rows as they are (no snapshot, no cells) and must equal the
// snapshot's Text after every kind of write, holes and alternate screen
// included.
func TestScreenTextNeedsNoSnapshot(t *testing.T) {
	term := New(20, 4, Options{ScrollbackLines: 100})
	writes := []string{
		"plain ascii\r\n", "\x1b[31mred\x1b[0m and \x1b[1mbold\x1b[0m\r\n", "wide 日本語 chars\r\n", "e\u0301 cluster",
		"\x1b[2;10Hhole", "\x1b[3;5H\x1b[K", "\x1b[1;3H\x1b[2X", strings.Repeat("w", 25), "\x1b[44m   \x1b[0m",
		"trailing   \r\n", "a\tb", "\x1b[?1049h\x1b[Halt screen", "\x1b[?1049l", "\x1b[2J", "",
	}
	var buf []byte
	for i, w := range writes {
		term.Write([]byte(w))
		buf = term.AppendText(buf[:0])
		if want := term.Snapshot().Text(); string(buf) != want {
			t.Fatalf("after write %d (%q): AppendText %q, the snapshot's Text %q", i, w, buf, want)
		}
	}
}
