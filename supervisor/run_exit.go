// Exit records: why a run ended. There is exactly one per run, produced by
// finalize (run_finalize.go) whichever exit source got there first.

package supervisor

import (
	"fmt"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// ExitReason is why a run ended.
type ExitReason int

// Exit reasons. ExitUnknown is the zero value and never appears in a
// final record.
const (
	ExitUnknown     ExitReason = iota
	ExitCompleted              // the leader exited with code 0
	ExitFailed                 // the leader exited with a non-zero code
	ExitSignalled              // the leader died of a signal nobody here sent
	ExitKilled                 // an explicit kill (or an aborted start) ended it
	ExitTimeout                // the overall timeout fired
	ExitIdleTimeout            // the no-output timeout fired
	ExitLost                   // the leader could not be waited for (not our child any more)
)

var exitReasonNames = [...]string{
	ExitUnknown: "unknown", ExitCompleted: "completed", ExitFailed: "failed",
	ExitSignalled: "signalled", ExitKilled: "killed", ExitTimeout: "timeout",
	ExitIdleTimeout: "idle-timeout", ExitLost: "lost",
}

// String returns the reason's name as docs/processes.md spells it.
func (r ExitReason) String() string {
	if r < 0 || int(r) >= len(exitReasonNames) {
		return fmt.Sprintf("ExitReason(%d)", int(r))
	}
	return exitReasonNames[r]
}

// MarshalText writes the reason's name (agents.json, ls --json).
func (r ExitReason) MarshalText() ([]byte, error) { return []byte(r.String()), nil }

// UnmarshalText parses a reason's name.
func (r *ExitReason) UnmarshalText(b []byte) error {
	for i, name := range exitReasonNames {
		if name == string(b) {
			*r = ExitReason(i)
			return nil
		}
	}
	return fmt.Errorf("parse exit reason %q: unknown", b)
}

// Exit is the final record of a run.
type Exit struct {
	Reason ExitReason     `json:"reason"`
	Code   int            `json:"code"`             // leader's exit code; -1 when it died of a signal or was lost
	Signal syscall.Signal `json:"signal,omitempty"` // signal that ended the leader, 0 if none
	At     time.Time      `json:"at"`
	Kill   KillReport     `json:"kill"`             // what the final ladder found (escapees, survivors)
	Err    error          `json:"-"`                // startup abort or cleanup trouble
	Detail string         `json:"detail,omitempty"` // Err as text, for disk
}

// String formats e for logs: "failed (code 2)", "signalled (SIGSEGV)".
func (e Exit) String() string {
	switch e.Reason {
	case ExitFailed:
		return fmt.Sprintf("failed (code %d)", e.Code)
	case ExitSignalled:
		return fmt.Sprintf("signalled (%s)", SignalName(e.Signal))
	case ExitUnknown, ExitCompleted, ExitKilled, ExitTimeout, ExitIdleTimeout, ExitLost:
		return e.Reason.String()
	}
	return e.Reason.String()
}

// exitFromStatus fills Code and Signal from a wait status and picks the
// reason: cause wins unless the leader simply exited on its own.
func exitFromStatus(cause ExitReason, ws syscall.WaitStatus) Exit {
	e := Exit{Reason: cause, Code: -1, At: time.Now()}
	switch {
	case ws.Exited():
		e.Code = ws.ExitStatus()
	case ws.Signaled():
		e.Signal = ws.Signal()
	}
	if cause != ExitCompleted {
		return e
	}
	switch {
	case ws.Signaled():
		e.Reason = ExitSignalled
	case e.Code != 0:
		e.Reason = ExitFailed
	}
	return e
}

func SignalName(s syscall.Signal) string {
	if name := unix.SignalName(s); name != "" {
		return name
	}
	return s.String()
}
