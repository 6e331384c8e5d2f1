package vtgrid

// This file is the Terminal: its state, Write (the byte loop with the ASCII
// fast path and UTF-8 decoding) and the dispatch of parser actions.
// Coordinates are 0-based (x = column, y = row) within the visible screen.

import (
	"encoding/binary"
	"math/bits"
	"unicode/utf8"
)

// DefaultScrollbackLines is the scrollback bound when Options leaves it 0.
const DefaultScrollbackLines = 10000

// EventKind says what an Event reports.
type EventKind uint8

// Events the emulator reports.
const (
	EventTitle        EventKind = iota // OSC 0/2: Text is the new title
	EventCwd                           // OSC 7: Text is the file:// URL
	EventBell                          // BEL
	EventNotify                        // OSC 9 / OSC 777: Text is the body, Title the title (777)
	EventClipboard                     // OSC 52 set: Text is the decoded payload, Title the selection
	EventClipboardGet                  // OSC 52 query (answered only when clipboard is enabled)
)

// Event is something the program said that is not screen content.
type Event struct {
	Kind  EventKind
	Text  string
	Title string
}

// Options configure a Terminal. The zero value is usable.
type Options struct {
	// ScrollbackLines bounds the scrollback; 0 means DefaultScrollbackLines,
	// negative means none.
	ScrollbackLines int
	// Reply receives answers to queries (DA, DSR, DECRQM, ...) to be written
	// back to the program. It is called synchronously from Write and must
	// not call back into the Terminal. Nil drops replies.
	Reply func([]byte)
	// Event receives titles, bells, notifications and clipboard requests,
	// synchronously from Write. Nil drops events.
	Event func(Event)
	// Clipboard enables OSC 52 events (off by default: a program could
	// otherwise set the user's clipboard).
	Clipboard bool
	// Colors answer OSC 4, 10, 11 and 12 queries (colors.go); the zero
	// value answers the headless defaults. SetColors changes them later.
	Colors Colors
}

// termOptions is Options but its Colors, which a terminal holds only once
// set (the palette is 1 kB, an idle pane's heap is a few).
type termOptions struct {
	ScrollbackLines int
	Reply           func([]byte)
	Event           func(Event)
	Clipboard       bool
}

func (o Options) term() termOptions {
	return termOptions{ScrollbackLines: o.ScrollbackLines, Reply: o.Reply, Event: o.Event, Clipboard: o.Clipboard}
}

// options is the Options t was made with, its colours as set now.
func (t *Terminal) options() Options {
	o := t.opts
	return Options{ScrollbackLines: o.ScrollbackLines, Reply: o.Reply, Event: o.Event, Clipboard: o.Clipboard, Colors: t.Colors()}
}

// Terminal is one emulated screen. It is not safe for concurrent use: one
// goroutine writes and takes snapshots; snapshots may be handed to others.
type Terminal struct {
	opts       termOptions
	colors     *Colors // nil: none set (the headless defaults)
	cols, rows int

	main, alt *screen // alt is nil until the alternate screen is first entered (issue 12, memory)
	scr       *screen // the active one
	sb        scrollback

	cur   cursor
	saved [2]savedCursor // DECSC state for main and alt screens
	top   int            // scroll region, inclusive
	bot   int
	tabs  []bool
	modes Modes

	p      params
	state  pState
	str    []byte // OSC / DCS payload
	strCmd byte   // DCS final byte
	utf8   [utf8.UTFMax]byte
	nutf8  int
	last   rune // last printed ASCII character, for REP (0 after any control)
	join   bool // the last character was a zero width joiner

	title string
	cwd   string
	links linkTable

	ver      uint64 // bumped by each snapshot; a row modified after it carries the new value
	prevSnap *Snapshot
	replyBuf []byte
}

// New returns a terminal of cols x rows (each at least 1).
func New(cols, rows int, opts Options) *Terminal {
	initParseTable()
	cols, rows = max(cols, 1), max(rows, 1)
	if opts.ScrollbackLines == 0 {
		opts.ScrollbackLines = DefaultScrollbackLines
	}
	t := &Terminal{opts: opts.term(), cols: cols, rows: rows}
	t.SetColors(opts.Colors)
	t.sb.max = max(opts.ScrollbackLines, 0)
	t.main = newScreen(cols, rows)
	t.scr = t.main
	t.reset()
	return t
}

// reset puts everything but the screens' size back to power-on state (RIS).
// Like tmux, and like ED 2, it keeps the main screen's rows in the
// scrollback: a program that resets the terminal loses no output.
func (t *Terminal) reset() {
	t.scr = t.main
	t.keepScreenInScrollback()
	t.cur = cursor{}
	t.saved = [2]savedCursor{}
	t.top, t.bot = 0, t.rows-1
	t.resetTabs()
	t.modes = defaultModes()
	t.scr = t.main
	t.main.clear(t.ver, Style{})
	t.alt = nil // blank again: allocated at the next entry
	t.title = ""
	t.last, t.join = 0, false
}

// Size returns the screen size.
func (t *Terminal) Size() (cols, rows int) { return t.cols, t.rows }

// Write feeds program output to the terminal. It always consumes all of p
// and never fails; any byte sequence is accepted.
func (t *Terminal) Write(p []byte) (int, error) {
	for i := 0; i < len(p); {
		if t.state == sGround && t.nutf8 == 0 {
			if n := asciiRun(p[i:]); n > 0 {
				t.printASCII(p[i : i+n])
				i += n
				continue
			}
		}
		t.step(p[i])
		i++
	}
	t.flushReplies()
	return len(p), nil
}

// asciiRun is the length of the leading run of printable ASCII in p,
// checked eight bytes at a time: the lowest byte nonPrintable8 flags is the
// first that ends the run.
func asciiRun(p []byte) int {
	i := 0
	for ; i+8 <= len(p); i += 8 {
		if m := nonPrintable8(binary.LittleEndian.Uint64(p[i:])); m != 0 {
			return i + bits.TrailingZeros64(m)/8
		}
	}
	for ; i < len(p); i++ {
		if p[i] < 0x20 || p[i] > 0x7e {
			return i
		}
	}
	return len(p)
}

// nonPrintable8 sets the high bit of each byte of x that is not printable
// ASCII (0x20-0x7e) ("determine if a word has a byte less than / greater
// than n", Bit Twiddling Hacks). A byte above a flagged one may be flagged
// wrongly (a borrow or carry out of the flagged byte), never one below it,
// so the lowest flag is exact.
func nonPrintable8(x uint64) uint64 {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	below := (x - ones*0x20) &^ x & highs
	above := (x + ones*(127-0x7e) | x) & highs
	return below | above
}

// step feeds one byte through the UTF-8 decoder and the state machine.
func (t *Terminal) step(b byte) {
	if t.nutf8 > 0 {
		if b&0xc0 == 0x80 {
			t.utf8Byte(b)
			return
		}
		t.utf8Flush() // an interrupted sequence is one U+FFFD
	}
	tr := parseTable[t.state][b]
	if tr.action() == aPrint && b >= 0x80 {
		t.utf8Byte(b)
		return
	}
	t.act(tr.action(), b)
	if forgetsLast[tr.action()] {
		// Like tmux, any control, escape or string forgets the character
		// REP repeats and ends a pending grapheme join.
		t.last, t.join = 0, false
	}
	next := tr.next()
	if next == sEscape && t.state != sEscape {
		t.p.clear()
	}
	t.state = next
}

// forgetsLast marks the actions after which, like tmux, REP has nothing to
// repeat and a pending grapheme join ends: any control, escape, CSI or
// string.
var forgetsLast = [...]bool{aExecute: true, aEscDispatch: true, aCSIDispatch: true, aHook: true, aOSCStart: true, aOSCEnd: false}

// utf8Byte adds b to the pending UTF-8 sequence and prints it once complete.
func (t *Terminal) utf8Byte(b byte) {
	if t.nutf8 == 0 && !utf8.RuneStart(b) || b >= 0xf8 {
		t.printRune(utf8.RuneError)
		return
	}
	t.utf8[t.nutf8] = b
	t.nutf8++
	if !utf8.FullRune(t.utf8[:t.nutf8]) {
		return
	}
	r, size := utf8.DecodeRune(t.utf8[:t.nutf8])
	if size != t.nutf8 {
		r = utf8.RuneError
	}
	t.nutf8 = 0
	t.printRune(r)
}

// utf8Flush ends an incomplete UTF-8 sequence as U+FFFD.
func (t *Terminal) utf8Flush() {
	t.nutf8 = 0
	t.printRune(utf8.RuneError)
}

// act performs one parser action for byte b.
func (t *Terminal) act(a pAction, b byte) {
	switch a {
	case aPrint:
		t.printRune(rune(b))
	case aExecute:
		t.execute(b)
	case aClear:
		t.p.clear()
	case aCollect:
		t.p.collect(b)
	case aParam:
		t.p.param(b)
	case aEscDispatch:
		t.escDispatch(b)
	case aCSIDispatch:
		t.csiDispatch(b)
	case aHook:
		t.str, t.strCmd = t.str[:0], b
	case aPut:
		t.putString(b)
	case aUnhook:
		t.dcsDispatch()
	case aOSCStart:
		t.str = t.str[:0]
	case aOSCPut:
		t.putString(b)
	case aOSCEnd:
		t.oscDispatch(b)
	case aNone, aIgnore:
	}
}

func (t *Terminal) putString(b byte) {
	if len(t.str) < maxStringLen {
		t.str = append(t.str, b)
	}
}

// reply queues an answer for the program; Write hands the batch to the sink.
func (t *Terminal) reply(s string) {
	if t.opts.Reply != nil {
		t.replyBuf = append(t.replyBuf, s...)
	}
}

func (t *Terminal) flushReplies() {
	if len(t.replyBuf) == 0 {
		return
	}
	t.opts.Reply(t.replyBuf)
	t.replyBuf = t.replyBuf[:0]
}

func (t *Terminal) event(e Event) {
	if t.opts.Event != nil {
		t.opts.Event(e)
	}
}
