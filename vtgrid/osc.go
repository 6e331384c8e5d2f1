package vtgrid

// This file handles OSC and DCS strings: titles, cwd, hyperlinks,
// notifications, clipboard, colour queries, and the DCS queries programs send
// at start-up.

import (
	"bytes"
	"encoding/base64"
	"strconv"
)

// oscDispatch runs a complete OSC string in t.str; end is the byte that
// ended it (BEL, ESC of ST, or CAN/SUB, which abort it).
func (t *Terminal) oscDispatch(end byte) {
	cmd, rest, _ := bytes.Cut(t.str, []byte{';'})
	n, err := strconv.Atoi(string(cmd))
	if err != nil {
		return
	}
	switch n {
	case 0, 2:
		t.title = string(rest)
		t.event(Event{Kind: EventTitle, Text: t.title})
	case 7:
		t.cwd = string(rest)
		t.event(Event{Kind: EventCwd, Text: t.cwd})
	case 8:
		t.hyperlink(rest)
	case 9:
		if !bytes.HasPrefix(rest, []byte("4;")) { // 9;4 is a progress report, not a notification
			t.event(Event{Kind: EventNotify, Text: string(rest)})
		}
	case 777:
		t.notify777(rest)
	case 4, 10, 11, 12:
		if end == 0x07 || end == 0x1b { // an aborted query gets no answer
			t.colorDispatch(n, rest, end)
		}
	case 52:
		t.clipboard(rest)
	}
}

// notify777 handles OSC 777;notify;title;body.
func (t *Terminal) notify777(rest []byte) {
	parts := bytes.SplitN(rest, []byte{';'}, 3)
	if len(parts) == 3 && string(parts[0]) == "notify" {
		t.event(Event{Kind: EventNotify, Title: string(parts[1]), Text: string(parts[2])})
	}
}

// clipboard handles OSC 52;selection;base64 (set) and ;? (query), only when
// Options.Clipboard allows it.
func (t *Terminal) clipboard(rest []byte) {
	if !t.opts.Clipboard {
		return
	}
	sel, data, ok := bytes.Cut(rest, []byte{';'})
	if !ok {
		return
	}
	if string(data) == "?" {
		t.event(Event{Kind: EventClipboardGet, Title: string(sel)})
		return
	}
	dec, err := base64.StdEncoding.DecodeString(string(data))
	if err != nil {
		return
	}
	t.event(Event{Kind: EventClipboard, Title: string(sel), Text: string(dec)})
}

// hyperlink handles OSC 8;params;uri: a non-empty uri starts a link, an
// empty one ends it.
func (t *Terminal) hyperlink(rest []byte) {
	params, uri, ok := bytes.Cut(rest, []byte{';'})
	if !ok || len(uri) == 0 {
		t.cur.link = 0
		return
	}
	t.cur.link = t.links.intern(string(params), string(uri))
}

// dcsDispatch runs a complete DCS string: DECRQSS and XTGETTCAP get a
// "not supported" answer so programs waiting for one go on.
func (t *Terminal) dcsDispatch() {
	switch {
	case t.p.intermediate() == '$' && t.strCmd == 'q':
		t.reply("\x1bP0$r\x1b\\")
	case t.p.intermediate() == '+' && t.strCmd == 'q':
		t.reply("\x1bP0+r\x1b\\")
	}
}

// maxLinks bounds the hyperlink table per terminal; past it new links are
// dropped (the text still shows).
const maxLinks = 65535

// linkTable interns OSC 8 hyperlinks. Entries are never changed once added;
// snapshots keep a slice of the table.
type linkTable struct {
	list []string
	ids  map[string]uint16
}

// intern returns the link id (index+1) for uri with its id= parameter.
func (l *linkTable) intern(params, uri string) uint16 {
	key := params + ";" + uri
	if id, ok := l.ids[key]; ok {
		return id
	}
	if len(l.list) >= maxLinks {
		return 0
	}
	if l.ids == nil {
		l.ids = map[string]uint16{}
	}
	l.list = append(l.list, key)
	id := uint16(len(l.list))
	l.ids[key] = id
	return id
}
