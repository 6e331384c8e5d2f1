package tui

// This file keeps a paste that attach forwards closable by the host, as
// the TUI's input queue does (inputqueue.go): the outer terminal brackets
// a paste (the pane asked for mode 2004, and attach set it on the
// terminal), and attach used to pass the brackets to the master with the
// text, so an attach killed in the middle of a big paste left the program
// inside it, taking every later key as pasted text. The gate asks the
// host to write each bracket instead (a split paste's first and last
// part, with no text), so the host closes a paste whose attach went away.

import (
	"bytes"
	"context"
	"io"

	"clowder/panes"
	"clowder/supervisor/proto"
)

// pasteGate writes keys to master, the brackets of a paste through
// bracket (which reports false if the host did not write it: the gate
// then writes it itself). A start marker cut between two reads passes as
// it is (the host is not told, as before); inside a paste, a read that
// ends in the start of the end marker keeps it for the next read, which
// can only bring the rest of the paste. Only the keys goroutine uses it.
type pasteGate struct {
	master  io.Writer
	bracket func(part string) bool
	inPaste bool
	held    []byte
}

// Write passes b on, and reports all of b written unless master failed.
func (g *pasteGate) Write(b []byte) (int, error) {
	n := len(b)
	if len(g.held) > 0 {
		b = append(g.held, b...)
		g.held = nil
	}
	for len(b) > 0 {
		marker, part := panes.PasteStart, proto.PastePartFirst
		if g.inPaste {
			marker, part = panes.PasteEnd, proto.PastePartLast
		}
		i := bytes.Index(b, []byte(marker))
		if i < 0 {
			if g.inPaste {
				if k := markerPrefixAtEnd(b, panes.PasteEnd); k > 0 {
					g.held = append([]byte(nil), b[len(b)-k:]...)
					b = b[:len(b)-k]
				}
			}
			return n, g.write(b)
		}
		if err := g.write(b[:i]); err != nil {
			return 0, err
		}
		if !g.bracket(part) {
			if err := g.write([]byte(marker)); err != nil {
				return 0, err
			}
		}
		g.inPaste = !g.inPaste
		b = b[i+len(marker):]
	}
	return n, nil
}

// write writes b, if any, to the master.
func (g *pasteGate) write(b []byte) error {
	if len(b) == 0 {
		return nil
	}
	_, err := g.master.Write(b)
	return err
}

// markerPrefixAtEnd is the length of the longest proper prefix of marker
// that b ends with.
func markerPrefixAtEnd(b []byte, marker string) int {
	for k := min(len(b), len(marker)-1); k > 0; k-- {
		if bytes.HasSuffix(b, []byte(marker[:k])) {
			return k
		}
	}
	return 0
}

// bracket asks the host to open or close a paste into the session's pane
// (part); false if it did not.
func (s *session) bracket(part string) bool {
	c := s.r.Client()
	if c == nil || !c.HasCap(proto.CapPasteData) {
		return false
	}
	ctx, cancel := context.WithTimeout(context.Background(), callTimeout)
	defer cancel()
	return c.Paste(ctx, proto.PasteReq{Pane: s.pane, Part: part}) == nil
}
