// This file maps how a pane ended to a shell exit status, for `clowder
// exec`, which exits the way its child did.

package client

import (
	"strings"

	"golang.org/x/sys/unix"

	"clowder/persist"
	"clowder/supervisor/proto"
)

// Exit statuses with a fixed meaning, as timeout(1) and shells use them.
const (
	ExitStatusTimeout   = 124 // the run hit its timeout or idle timeout
	ExitStatusInterrupt = 130 // the user interrupted the run (128 + SIGINT)
)

// ExitStatus is the status a shell would report for a pane that ended as
// info says: the exit code, 128 + the signal number for a signal, 124 for
// a timeout or idle timeout, 1 for a pane whose end is unknown (lost).
func ExitStatus(info proto.PaneInfo) int {
	switch info.ExitReason {
	case persist.ExitCompleted.String():
		return 0
	case persist.ExitFailed.String():
		return info.ExitCode
	case persist.ExitTimeout.String(), persist.ExitIdleTimeout.String():
		return ExitStatusTimeout
	case persist.ExitSignalled.String(), persist.ExitKilled.String():
		if n := signalNumber(info.ExitSignal); n > 0 {
			return 128 + n
		}
		return 128 + int(unix.SIGKILL)
	}
	if info.ExitCode > 0 {
		return info.ExitCode
	}
	return 1
}

// signalNumber parses a signal name ("TERM" or "SIGTERM"); 0 if unknown.
func signalNumber(name string) int {
	if name == "" {
		return 0
	}
	if !strings.HasPrefix(name, "SIG") {
		name = "SIG" + name
	}
	return int(unix.SignalNum(name))
}
