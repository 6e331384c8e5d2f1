package tui

// This file is attach's half of passing the outer terminal's colours to the
// host (colors.go is the TUI's): before the pane's output starts, attach
// asks the terminal its colours, then Primary Device Attributes (DA1),
// which every terminal answers, and in order, so the DA1 answer ends the
// wait. A deadline ends it too, for a terminal that answers nothing.
// Whatever else arrives meanwhile (keys typed at once) goes on to the pane.

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"strconv"
	"time"

	"github.com/charmbracelet/x/ansi"
	"github.com/muesli/cancelreader"

	"clowder/supervisor/client"
	"clowder/supervisor/proto"
)

// attachColorsWait bounds the wait for the terminal's answers. A local
// terminal answers in about a millisecond and the DA1 answer ends the wait
// at once; the bound is for one that never answers, and is long enough for
// an ssh link's round trip (answers arriving after it would reach the pane
// as keys).
const attachColorsWait = 500 * time.Millisecond

// colorQueries asks a terminal its foreground, background and cursor
// colours and the first paletteAsked palette entries, one query each
// (terminals that answer OSC 4 do not all take several in one).
func colorQueries() string {
	var b bytes.Buffer
	b.WriteString(ansi.RequestForegroundColor + ansi.RequestBackgroundColor + ansi.RequestCursorColor)
	for i := range paletteAsked {
		b.WriteString("\x1b]4;" + strconv.Itoa(i) + ";?\x07")
	}
	return b.String()
}

// passOuterColors asks the terminal on in/out (already raw) its colours,
// tells the host what it learned, and then writes anything else read
// meanwhile to master, as copyKeys would: up to a detach key, and then it
// returns ErrDetached. Every other failure is silent: the pane then
// answers the host's colours, as before.
func passOuterColors(ctx context.Context, c *client.Client, in *os.File, out io.Writer, master io.Writer) error {
	req, rest := askOuterColors(in, out, attachColorsWait)
	if req.Foreground != "" || req.Background != "" || req.Cursor != "" || len(req.Palette) > 0 {
		_ = c.SetColors(ctx, req) // best effort: an older host answers unknown-type
	}
	// After set-colors, so a key that makes the pane ask finds the colours there.
	if err := passKeys(rest, master); errors.Is(err, ErrDetached) {
		return err
	}
	return nil // best effort: keys typed during the query
}

// askOuterColors writes the queries and DA1, then reads answers until the
// DA1 answer or the wait's end. It returns the colours learned and the
// bytes that were not answers.
func askOuterColors(in *os.File, out io.Writer, wait time.Duration) (proto.SetColorsReq, []byte) {
	var a answers
	r, err := cancelreader.NewReader(in)
	if err != nil {
		return a.colors, nil
	}
	defer r.Close()
	if _, err := io.WriteString(out, colorQueries()+ansi.RequestPrimaryDeviceAttributes); err != nil {
		return a.colors, nil
	}
	timer := time.AfterFunc(wait, func() { r.Cancel() })
	defer timer.Stop()
	buf := make([]byte, 1024)
	for !a.done {
		n, err := r.Read(buf)
		a.feed(buf[:n])
		if err != nil {
			break
		}
	}
	return a.colors, a.finish()
}

// answers parses what a terminal sends back: colour answers (OSC 4, 10, 11,
// 12) and the DA1 answer that ends them; everything else is kept as input.
type answers struct {
	colors  proto.SetColorsReq
	pending []byte // an answer not yet complete
	rest    []byte // input that is not an answer
	done    bool   // the DA1 answer arrived
}

// feed takes bytes as they are read.
func (a *answers) feed(b []byte) {
	a.pending = append(a.pending, b...)
	for len(a.pending) > 0 && !a.done {
		i := bytes.IndexByte(a.pending, 0x1b)
		if i < 0 {
			i = len(a.pending)
		}
		a.rest = append(a.rest, a.pending[:i]...)
		a.pending = a.pending[i:]
		if len(a.pending) == 0 {
			return
		}
		n := a.answer(a.pending)
		if n == 0 { // incomplete: wait for more
			return
		}
		a.pending = a.pending[n:]
	}
	if a.done { // input typed after the answers
		a.rest = append(a.rest, a.pending...)
		a.pending = nil
	}
}

// finish returns the input read; an answer left incomplete is input too.
func (a *answers) finish() []byte {
	return append(a.rest, a.pending...)
}

// answer consumes the sequence at the start of b (which begins with ESC):
// a colour answer, the DA1 answer, or any other escape sequence kept as
// input. It returns the bytes consumed, 0 if b may be an incomplete answer.
func (a *answers) answer(b []byte) int {
	switch {
	case len(b) < 2, b[1] == '[' && len(b) < 3:
		return 0
	case b[1] == ']':
		return a.osc(b)
	case b[1] == '[' && b[2] == '?':
		return a.da1(b)
	}
	a.rest = append(a.rest, b[0])
	return 1
}

// osc consumes an OSC answer ended by BEL or ST.
func (a *answers) osc(b []byte) int {
	for i := 2; i < len(b); i++ {
		switch {
		case b[i] == 0x07:
			setAnswer(&a.colors, string(b[2:i]))
			return i + 1
		case b[i] == 0x1b && i+1 < len(b) && b[i+1] == '\\':
			setAnswer(&a.colors, string(b[2:i]))
			return i + 2
		}
	}
	return 0
}

// da1 consumes ESC [ ? params c.
func (a *answers) da1(b []byte) int {
	for i := 3; i < len(b); i++ {
		if c := b[i]; (c < '0' || c > '9') && c != ';' {
			if c == 'c' {
				a.done = true
			} else {
				a.rest = append(a.rest, b[:i+1]...) // another report: input
			}
			return i + 1
		}
	}
	return 0
}
