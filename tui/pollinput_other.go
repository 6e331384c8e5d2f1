//go:build !linux

package tui

import (
	"io"
	"time"
)

// pollInput is Linux's (pollinput_linux.go); elsewhere the terminal is
// read through ultraviolet's cancel reader.
type pollInput struct{}

func openPollInput(io.Reader) (*pollInput, bool) { return nil, false }

func (*pollInput) readFor([]byte, time.Duration) (int, error) { return 0, io.EOF }
func (*pollInput) Cancel() bool                               { return true }
func (*pollInput) Close() error                               { return nil }
