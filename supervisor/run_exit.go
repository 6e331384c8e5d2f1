// Exit records: why a run ended. There is exactly one per run, produced by
// finalize (run_finalize.go) whichever exit source got there first.

package supervisor

import (
	"fmt"
	"syscall"
	"time"

	"clowder/persist"

	"golang.org/x/sys/unix"
)

// exitUnknown is the zero persist.ExitReason: a run that has not ended.
// It never appears in a final record.
const exitUnknown persist.ExitReason = 0

// Exit is the final record of a run.
type Exit struct {
	Reason persist.ExitReason `json:"reason"`
	Code   int                `json:"code"`             // leader's exit code; -1 when it died of a signal or was lost
	Signal syscall.Signal     `json:"signal,omitempty"` // signal that ended the leader, 0 if none
	At     time.Time          `json:"at"`
	Kill   KillReport         `json:"kill"`             // what the final ladder found (escapees, survivors)
	Err    error              `json:"-"`                // startup abort or cleanup trouble
	Detail string             `json:"detail,omitempty"` // Err as text, for disk
}

// String formats e for logs: "failed (code 2)", "signalled (SIGSEGV)".
func (e Exit) String() string {
	switch e.Reason {
	case persist.ExitFailed:
		return fmt.Sprintf("failed (code %d)", e.Code)
	case persist.ExitSignalled:
		return fmt.Sprintf("signalled (%s)", SignalName(e.Signal))
	case exitUnknown, persist.ExitCompleted, persist.ExitKilled, persist.ExitTimeout, persist.ExitIdleTimeout, persist.ExitLost, persist.ExitUnverifiable:
		return e.Reason.String()
	}
	return e.Reason.String()
}

// exitFromStatus fills Code and Signal from a wait status and picks the
// reason: cause wins unless the leader simply exited on its own.
func exitFromStatus(cause persist.ExitReason, ws syscall.WaitStatus) Exit {
	e := Exit{Reason: cause, Code: -1, At: time.Now()}
	switch {
	case ws.Exited():
		e.Code = ws.ExitStatus()
	case ws.Signaled():
		e.Signal = ws.Signal()
	}
	if cause != persist.ExitCompleted {
		return e
	}
	switch {
	case ws.Signaled():
		e.Reason = persist.ExitSignalled
	case e.Code != 0:
		e.Reason = persist.ExitFailed
	}
	return e
}

func SignalName(s syscall.Signal) string {
	if name := unix.SignalName(s); name != "" {
		return name
	}
	return s.String()
}
