//go:build !linux

package supervisor

import (
	"errors"
	"os"
)

// checkTerminal: adoption needs /proc and TIOCGPTN, which only Linux has.
func checkTerminal(*os.File, int) (procInfo, error) {
	return procInfo{}, errors.New("adopting a pane from escrow is Linux-only")
}

func recordedLeaf(string, string) *cgroupLeaf { return nil }

func waitGoneHandle(*Handle) {}
