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
		return asciiChars[c.r : c.r+1]
	}
	return string(appendRune(nil, c.r))
}

// asciiChars avoids an allocation per ASCII cell in Cell.Text: each is
// a slice of it. A constant, so no process builds it (a table of 128
// strings was built at init, 128 allocations in every CLI command).
const asciiChars = "\x00\x01\x02\x03\x04\x05\x06\x07\x08\x09\x0a\x0b\x0c\x0d\x0e\x0f\x10\x11\x12\x13\x14\x15\x16\x17\x18\x19\x1a\x1b\x1c\x1d\x1e\x1f\x20\x21\x22\x23\x24\x25\x26\x27\x28\x29\x2a\x2b\x2c\x2d\x2e\x2f\x30\x31\x32\x33\x34\x35\x36\x37\x38\x39\x3a\x3b\x3c\x3d\x3e\x3f\x40\x41\x42\x43\x44\x45\x46\x47\x48\x49\x4a\x4b\x4c\x4d\x4e\x4f\x50\x51\x52\x53\x54\x55\x56\x57\x58\x59\x5a\x5b\x5c\x5d\x5e\x5f\x60\x61\x62\x63\x64\x65\x66\x67\x68\x69\x6a\x6b\x6c\x6d\x6e\x6f\x70\x71\x72\x73\x74\x75\x76\x77\x78\x79\x7a\x7b\x7c\x7d\x7e\x7f"

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
