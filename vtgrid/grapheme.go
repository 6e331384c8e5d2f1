package vtgrid

// This file holds character widths and the intern table of multi-rune
// graphemes (a base character with combining marks, emoji ZWJ sequences).

import (
	"sync"
	"sync/atomic"
	"unicode/utf8"

	"github.com/rivo/uniseg"
)

// maxClusters bounds the intern table; past it a new grapheme keeps only its
// base character. Real output uses a few hundred distinct clusters.
const maxClusters = 1 << 20

// clusterTable interns graphemes of more than one code point. It is the one
// package-level table: a Cell must render without its Terminal (snapshots
// cross goroutines and outlive terminals), and the set of clusters that real
// programs print is small. Entries are never changed once added, so readers
// need no lock: they load the slice header atomically and index below its
// length.
type clusterTable struct {
	mu   sync.Mutex
	ids  map[string]int32
	list atomic.Pointer[[]string]
}

var clusters = &clusterTable{ids: map[string]int32{}}

// intern returns the cell rune for grapheme s, or utf8.RuneError if the table
// is full (the caller then keeps the base rune).
func (c *clusterTable) intern(s string) (rune, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if id, ok := c.ids[s]; ok {
		return clusterBase + rune(id), true
	}
	var list []string
	if p := c.list.Load(); p != nil {
		list = *p
	}
	if len(list) >= maxClusters {
		return utf8.RuneError, false
	}
	list = append(list, s)
	c.ids[s] = int32(len(list) - 1)
	c.list.Store(&list)
	return clusterBase + rune(len(list)-1), true
}

// get returns interned grapheme id.
func (c *clusterTable) get(id rune) string {
	p := c.list.Load()
	if p == nil || int(id) >= len(*p) {
		return "\uFFFD"
	}
	return (*p)[id]
}

// appendRune appends the text of cell rune r to b.
func appendRune(b []byte, r rune) []byte {
	switch {
	case r < utf8.RuneSelf:
		return append(b, byte(r))
	case r < clusterBase:
		return utf8.AppendRune(b, r)
	}
	return append(b, clusters.get(r-clusterBase)...)
}

// Text is the grapheme in the cell: "" for an empty cell and for the
// continuation cell of a wide character.
func (c Cell) Text() string {
	if c.r == 0 {
		return ""
	}
	if c.r < utf8.RuneSelf {
		return asciiStrings[c.r]
	}
	return string(appendRune(nil, c.r))
}

// asciiStrings avoids an allocation per ASCII cell in Cell.Text.
var asciiStrings = func() (t [utf8.RuneSelf]string) {
	for i := range t {
		t[i] = string(rune(i))
	}
	return t
}()

// widthTable caches the width of every BMP code point as 2 bits (0, 1 or 2
// columns), computed once on first use.
var (
	widthOnce  sync.Once
	widthTable [65536 / 4]uint8
)

func buildWidthTable() {
	var buf [4]byte
	for r := rune(0); r < 65536; r++ {
		n := utf8.EncodeRune(buf[:], r)
		w := uniseg.StringWidth(string(buf[:n]))
		widthTable[r>>2] |= uint8(w&3) << (uint(r&3) * 2)
	}
}

// runeWidth is the number of columns r takes: 0 for combining marks and
// other zero-width characters, 2 for East Asian wide and emoji presentation
// characters, 1 otherwise. Control characters never reach it.
func runeWidth(r rune) int {
	if r < 0x300 {
		return 1
	}
	if r < 65536 {
		widthOnce.Do(buildWidthTable)
		return int(widthTable[r>>2] >> (uint(r&3) * 2) & 3)
	}
	return wideRuneWidth(r)
}

// wideRuneWidth handles the planes above the BMP: emoji, CJK extensions,
// variation selectors and tags.
func wideRuneWidth(r rune) int {
	switch {
	case r >= 0xE0000 && r <= 0xE0FFF: // tags and variation selectors supplement
		return 0
	case r >= 0x1F1E6 && r <= 0x1F1FF: // regional indicators
		return 1
	}
	var buf [4]byte
	n := utf8.EncodeRune(buf[:], r)
	return uniseg.StringWidth(string(buf[:n]))
}
