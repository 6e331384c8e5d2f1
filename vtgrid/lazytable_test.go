package vtgrid

import (
	"sync"
	"testing"
)

// TestParseTableIsBuiltOnceUnderConcurrentUse: the parse table is built
// by the first New, not at init (issue 12: every CLI process built it);
// terminals made and fed at once on many goroutines all parse with the
// whole table (the race detector checks the build is published safely).
func TestParseTableIsBuiltOnceUnderConcurrentUse(t *testing.T) {
	var wg sync.WaitGroup
	texts := make([]string, 8)
	for i := range texts {
		wg.Add(1)
		go func() {
			defer wg.Done()
			term := New(20, 2, Options{})
			_, _ = term.Write([]byte("\x1b[31mred\x1b[0m \x1b]0;title\x07ok"))
			texts[i] = term.Snapshot().Text()
		}()
	}
	wg.Wait()
	for i, got := range texts {
		if want := "red ok\n"; got != want { // two rows, the second blank
			t.Errorf("terminal %d shows %q, want %q", i, got, want)
		}
	}
	if parseTable != buildParseTable() {
		t.Error("the parse table New built differs from buildParseTable's")
	}
}

// TestCellTextOfEveryASCIIRune: Cell.Text slices a constant for ASCII;
// each rune's text is that rune.
func TestCellTextOfEveryASCIIRune(t *testing.T) {
	for r := rune(1); r < 0x80; r++ {
		if got := (Cell{r: r}).Text(); got != string(r) {
			t.Errorf("Cell{%#x}.Text() = %q, want %q", r, got, string(r))
		}
	}
}
