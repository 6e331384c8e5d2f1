// This file tracks which processes belong to one run, for the kill ladder.
// Membership is the union of: the run's process group; its session (PTY
// runs); the leaf cgroup's processes; descendants (by PPid) of the leader
// and of every process already tracked; and orphans re-parented to us (the
// subreaper) that share a tracked session or group. Tracking accumulates, so
// a setsid grandchild seen once stays attributed after its parent dies.

package supervisor

import (
	"os"
	"sync"
	"sync/atomic"
	"syscall"
)

// procTree is one run's process tree. Safe for concurrent use.
type procTree struct {
	paneEnv string // "CLOWDER_PANE_ID=<id>", "" when the run has no id
	leader  Identity
	pgid    int         // the run's process group; pinned while the leader is unreaped
	sid     int         // the run's session for PTY runs, 0 for pipe runs
	cg      *cgroupLeaf // nil without a cgroup
	// adopted marks a tree an earlier host started (kill_orphan.go): the
	// leader is not our child, so nothing pins the group and session ids,
	// and members are signalled one by one through verified identities.
	adopted bool

	mu      sync.Mutex
	tracked map[int]procInfo // every member seen, by pid
	escaped map[int]Identity // members seen outside pgid
}

func newProcTree(paneID string, leader Identity, pgid, sid int, cg *cgroupLeaf) *procTree {
	t := &procTree{
		leader: leader, pgid: pgid, sid: sid, cg: cg,
		tracked: map[int]procInfo{}, escaped: map[int]Identity{},
	}
	if paneID != "" {
		t.paneEnv = "CLOWDER_PANE_ID=" + paneID
	}
	return t
}

// refresh rescans the process table and returns the live members. Without a
// process-table scan (non-Linux) it returns nil and errNoProcScan.
func (t *procTree) refresh() ([]procInfo, error) {
	treeLooks.Add(1)
	procs, inCgroup, err := t.snapshot()
	if err != nil {
		return nil, err
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	t.prune(procs)
	t.addMembers(procs, inCgroup)
	t.addDescendants(procs)
	var live []procInfo
	for _, p := range t.tracked {
		if p.alive() {
			live = append(live, p)
		}
	}
	return live, nil
}

// treeLooks counts the looks of every tree at its members, for tests.
var treeLooks atomic.Int64

// snapshot is the process table the membership rules look at, and the
// pids in the run's cgroup leaf: for an owned run with a leaf, the part
// of the table they can reach (kill_leaf_linux.go); otherwise all of
// /proc.
func (t *procTree) snapshot() (procTable, map[int]bool, error) {
	if t.cg != nil && !t.adopted {
		if procs, inLeaf, err := t.leafTable(); err == nil {
			return procs, inLeaf, nil
		}
	}
	procs, err := listProcs()
	if err != nil {
		return nil, nil, err
	}
	return procs, t.cgroupPids(), nil
}

// prune forgets tracked pids that are gone or now name another process.
func (t *procTree) prune(procs procTable) {
	for pid, old := range t.tracked {
		if now, ok := procs[pid]; !ok || now.ID != old.ID {
			delete(t.tracked, pid)
		} else {
			t.tracked[pid] = now
		}
	}
}

// addMembers adds processes of the group, the session, the cgroup, and
// orphans of ours that share a tracked group or session.
func (t *procTree) addMembers(procs procTable, inCgroup map[int]bool) {
	groups, sessions := t.trackedGroups()
	self := os.Getpid()
	pinned := t.leaderLive(procs)
	for pid, p := range procs {
		orphan := !t.adopted && p.PPID == self && !children.owns(pid) &&
			(groups[p.PGID] || sessions[p.Session] || t.carriesPaneEnv(p))
		inTree := (t.pgid > 0 && p.PGID == t.pgid) || (t.sid > 0 && p.Session == t.sid) || orphan || (pinned && p.ID == t.leader)
		if inCgroup[pid] || (inTree && t.mayBeMember(p, pinned, procs)) {
			t.track(p)
		}
	}
}

// leaderLive reports whether the leader is alive in procs. An owned
// tree's leader is our unreaped child, so its group id is pinned anyway.
// An adopted tree without a recorded leader has none alive.
func (t *procTree) leaderLive(procs procTable) bool {
	if !t.adopted {
		return true
	}
	if t.leader.IsZero() {
		return false
	}
	now, ok := procs[t.leader.PID]
	return ok && now.alive() && now.ID == t.leader
}

// mayBeMember guards an adopted tree against reused ids: once its leader
// is gone, the group and session numbers are free for a new process, so a
// process found by number counts only if it started after the leader and
// carries the pane's CLOWDER_PANE_ID, and none does once another process
// holds the leader's pid (the kernel reuses a pid only when no group or
// session has its number any more). Owned trees need no guard.
func (t *procTree) mayBeMember(p procInfo, leaderLive bool, procs procTable) bool {
	if !t.adopted || leaderLive {
		return true
	}
	if holder, ok := procs[t.leader.PID]; t.leader.IsZero() || (ok && holder.ID != t.leader) {
		return false
	}
	return p.ID.Start >= t.leader.Start && t.carriesPaneEnv(p)
}

// addDescendants adds every descendant of the leader and of tracked pids.
func (t *procTree) addDescendants(procs procTable) {
	var queue []int
	if t.leaderLive(procs) { // a dead adopted leader's pid may be a stranger's now
		queue = append(queue, t.leader.PID)
	}
	for pid := range t.tracked {
		queue = append(queue, pid)
	}
	for len(queue) > 0 {
		pid := queue[0]
		queue = queue[1:]
		for _, c := range procs.children(pid) {
			if _, seen := t.tracked[c]; !seen {
				t.track(procs[c])
				queue = append(queue, c)
			}
		}
	}
}

// seed tracks the processes found carrying the pane's token, each only
// while its identity still holds.
func (t *procTree) seed(found []Identity) {
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, id := range found {
		if p, err := readProc(id.PID); err == nil && p.alive() && p.ID == id {
			t.track(p)
		}
	}
}

// track records p; the caller holds t.mu. This process is never a member
// (nor, through it, its children) unless it is the recorded leader, which
// only a test can arrange: a host started from inside a pane carries the
// pane's environment and descends from its processes.
func (t *procTree) track(p procInfo) {
	if p.ID.PID == os.Getpid() && p.ID != t.leader {
		return
	}
	t.tracked[p.ID.PID] = p
	if p.PGID != t.pgid && p.ID != t.leader {
		t.escaped[p.ID.PID] = p.ID
	}
}

// carriesPaneEnv reports whether p's environment names this run's pane.
func (t *procTree) carriesPaneEnv(p procInfo) bool {
	return t.paneEnv != "" && p.alive() && procEnvHas(p.ID.PID, t.paneEnv)
}

func (t *procTree) trackedGroups() (groups, sessions map[int]bool) {
	groups, sessions = map[int]bool{t.pgid: true}, map[int]bool{}
	if t.sid != 0 {
		sessions[t.sid] = true
	}
	for _, p := range t.tracked {
		groups[p.PGID] = true
		sessions[p.Session] = true
	}
	delete(sessions, 0)
	return groups, sessions
}

func (t *procTree) cgroupPids() map[int]bool {
	out := map[int]bool{}
	if t.cg == nil {
		return out
	}
	pids, _ := t.cg.procs() // best effort: the scan still covers group and session
	for _, pid := range pids {
		out[pid] = true
	}
	return out
}

// escapedSeen returns every member ever seen outside the process group.
func (t *procTree) escapedSeen() []Identity {
	t.mu.Lock()
	defer t.mu.Unlock()
	out := make([]Identity, 0, len(t.escaped))
	for _, id := range t.escaped {
		out = append(out, id)
	}
	return out
}

// signalGroup signals the process group. Only call while the leader is
// unreaped (the caller's contract): that pins the group id.
func (t *procTree) signalGroup(sig syscall.Signal) {
	if t.pgid > 0 { // never kill(0) or kill(-0): that is our own group
		_ = syscall.Kill(-t.pgid, sig) // best effort: ESRCH means the group is empty
	}
}

// signalOutside signals, by verified identity, the live members outside the
// process group (the group signal does not reach them).
func (t *procTree) signalOutside(live []procInfo, sig syscall.Signal) {
	for _, p := range live {
		if p.PGID != t.pgid {
			_ = SignalProcess(p.ID, sig) // best effort: a mismatch means it already exited
		}
	}
}

// signalEach signals every live member by verified identity: an adopted
// tree's group id is not pinned, so a group signal could reach a stranger.
func (t *procTree) signalEach(live []procInfo, sig syscall.Signal) {
	for _, p := range live {
		_ = SignalProcess(p.ID, sig) // best effort: a mismatch means it already exited
	}
}
