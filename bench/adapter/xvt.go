package adapter

import (
	"io"
	"strings"

	"github.com/charmbracelet/x/vt"
)

// xvtTerm wraps charmbracelet/x/vt. Its replies (DA, DSR, ...) go into an
// unbuffered io.Pipe, so a Write that triggers one blocks until somebody
// reads; the adapter drains the pipe in a goroutine, as an embedder wiring it
// to a PTY does. The goroutine ends when Close closes the pipe.
type xvtTerm struct {
	e    *vt.Emulator
	done chan struct{}
}

func newXVT(cols, rows, scrollback int) Terminal {
	e := vt.NewEmulator(cols, rows)
	e.SetScrollbackSize(scrollback)
	x := &xvtTerm{e: e, done: make(chan struct{})}
	go func() {
		defer close(x.done)
		_, _ = io.Copy(io.Discard, e) // replies are not wanted; ends with EOF on Close
	}()
	return x
}

func (x *xvtTerm) Write(p []byte) (int, error) { return x.e.Write(p) }

func (x *xvtTerm) Text() string {
	return trimScreen(strings.Split(x.e.String(), "\n"))
}

// Close ends the drain goroutine by closing the write end of the reply pipe
// rather than calling Emulator.Close, which sets a flag that the goroutine
// reads without synchronisation (a data race under -race).
func (x *xvtTerm) Close() error {
	var err error
	if c, ok := x.e.InputPipe().(io.Closer); ok {
		err = c.Close()
	} else {
		err = x.e.Close()
	}
	<-x.done
	return err
}
