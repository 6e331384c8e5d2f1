package vtgrid

import "testing"

// TestAlternateScreenIsAllocatedWhenEntered pins issue 12's memory goal: a
// terminal used to allocate both screens at New; a shell that never enters
// the alternate screen now holds only the main one.
func TestAlternateScreenIsAllocatedWhenEntered(t *testing.T) {
	term := New(80, 24, Options{})
	_, _ = term.Write([]byte("$ ls\r\nfile\r\n\x1bc$ ")) // output and a reset (RIS)
	term.Resize(100, 30)
	if term.alt != nil {
		t.Fatalf("alternate screen allocated before it was entered")
	}
	_, _ = term.Write([]byte("\x1b[?1049h\x1b[Hvim"))
	if term.alt == nil || term.scr != term.alt {
		t.Fatalf("entering the alternate screen did not make it the active one")
	}
	if got := rowText(term, 0); got != "vim" {
		t.Fatalf("alternate row 0 %q; want \"vim\"", got)
	}
}

// TestAlternateScreenKeepsItsRowsAcrossLeaving proves mode 47, which does
// not clear on entry, still finds what it left on the alternate screen.
func TestAlternateScreenKeepsItsRowsAcrossLeaving(t *testing.T) {
	term := New(20, 5, Options{})
	_, _ = term.Write([]byte("\x1b[?47hkept\x1b[?47lmain\x1b[?47h"))
	if got := rowText(term, 0); got != "kept" {
		t.Fatalf("alternate row 0 after re-entering %q; want \"kept\"", got)
	}
}

// rowText is row y of the active screen, trailing blanks dropped.
func rowText(term *Terminal, y int) string {
	var b []rune
	for _, c := range term.scr.row(y).appendCells(nil) {
		r := c.r
		if r == 0 {
			r = ' '
		}
		b = append(b, r)
	}
	for len(b) > 0 && b[len(b)-1] == ' ' {
		b = b[:len(b)-1]
	}
	return string(b)
}
