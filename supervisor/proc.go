// This file holds the portable model of a process-table scan: the few
// fields of each process that the kill ladder and the orphan reaper need.
// Scans are snapshots; every decision taken on one re-checks identity before
// it signals.

package supervisor

import "errors"

// procInfo is one row of a process-table snapshot.
type procInfo struct {
	ID      Identity
	State   byte // 'R', 'S', 'D', 'Z', 'X', ... as in /proc/PID/stat
	PPID    int
	PGID    int
	Session int
}

// alive reports whether p still runs: zombies and dead tasks count as gone.
func (p procInfo) alive() bool { return p.State != 'Z' && p.State != 'X' }

// errNoProcScan reports that this OS has no process-table scan; callers
// fall back to the process group alone.
var errNoProcScan = errors.New("process table scan not supported on this OS")

// procTable is a snapshot indexed by pid.
type procTable map[int]procInfo

// children returns the pids whose parent is pid.
func (t procTable) children(pid int) []int {
	var out []int
	for _, p := range t {
		if p.PPID == pid {
			out = append(out, p.ID.PID)
		}
	}
	return out
}
