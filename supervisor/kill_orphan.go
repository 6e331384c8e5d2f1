// This file adopts the process tree of a pane that an earlier host started
// and left behind when it died (docs/processes.md, "Orphans"). Nothing here
// is our child: the tree is found again by what the dead host recorded
// (leader identity, process group, cgroup leaf, CLOWDER_PANE_ID, the pane
// token: token.go), signalled
// member by member through verified identities, and watched through pidfds
// so its end is seen at once without any periodic wake-up.

package supervisor

import (
	"context"
	"errors"
	"os"
	"slices"
	"syscall"
	"time"
)

// TreeSpec is what an earlier host recorded about a tree it left (an
// orphan); AdoptSpec is a tree handed back with its master (adopt.go).
type TreeSpec struct {
	PaneID string // the pane's id, as set in CLOWDER_PANE_ID
	// Leader is the tree's first process; zero when the host died before
	// it recorded one (the tree is then its cgroup leaf and Found).
	Leader Identity
	PGID   int    // its process group (and session, for PTY panes); 0 if unknown
	Cgroup string // its cgroup leaf, "" if it had none
	// Found are processes found carrying the pane's token
	// (TokenScan.Carriers); each is a member while its identity holds,
	// and so are its descendants.
	Found []Identity
}

// AdoptedTree is a tree of an earlier host. Safe for concurrent use.
type AdoptedTree struct {
	t *procTree
}

// AdoptTree finds again the tree s names. A leader recorded without a boot
// id is taken to be of this boot (its start time is still checked). A tree
// of another boot has no member: AdoptTree is not called for it. Without
// a leader or a group, only the cgroup leaf and Found (and their
// descendants) make the tree: no number is taken as a group.
func AdoptTree(s TreeSpec) *AdoptedTree {
	if s.Leader.BootID == "" && !s.Leader.IsZero() {
		s.Leader.BootID = actualIdentity(os.Getpid()).BootID
	}
	cg := leafAt(s.Cgroup, s.PaneID)
	pgid := s.PGID
	if pgid == 0 {
		pgid = s.Leader.PID
	}
	// The session id is the pid of the process that called setsid: for a
	// PTY pane that is the leader, whose group id is the same number.
	t := newProcTree(s.PaneID, s.Leader, pgid, pgid, cg)
	t.adopted = true
	t.seed(s.Found)
	return &AdoptedTree{t: t}
}

// Leader is the tree's recorded leader.
func (a *AdoptedTree) Leader() Identity { return a.t.leader }

// LeaderAlive reports whether the recorded leader still runs (false when
// none was recorded).
func (a *AdoptedTree) LeaderAlive() bool {
	if a.t.leader.IsZero() {
		return false
	}
	now, err := ReadIdentity(a.t.leader.PID)
	return err == nil && now == a.t.leader
}

// Survivors lists the live members of the tree by pid, the leader among
// them while it runs.
func (a *AdoptedTree) Survivors() []Identity {
	live := a.t.survivors()
	slices.SortFunc(live, func(x, y Identity) int { return x.PID - y.PID })
	return live
}

// Empty reports whether nothing of the tree is alive (its cgroup leaf, if
// any, is unpopulated, and no member is found by group, session or
// descent).
func (a *AdoptedTree) Empty() bool { return a.t.empty() }

// Cgroup is the tree's recorded cgroup leaf, "" if none.
func (a *AdoptedTree) Cgroup() string {
	if a.t.cg == nil {
		return ""
	}
	return a.t.cg.path
}

// Kill runs the kill ladder on the whole tree: first (0: SIGHUP+SIGTERM)
// and SIGCONT to every member, grace, then SIGKILL through the cgroup leaf
// and to every member until the tree is empty or killWait has passed.
func (a *AdoptedTree) Kill(first syscall.Signal, grace, killWait time.Duration) KillReport {
	return a.t.ladder(first, grace, killWait)
}

// RemoveLeaf removes the tree's cgroup leaf once it is empty. No leaf, or
// one already gone, is not an error; a populated one fails (EBUSY).
func (a *AdoptedTree) RemoveLeaf() error {
	if a.t.cg == nil {
		return nil
	}
	err := a.t.cg.remove()
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	return err
}

// Watch calls changed with the live members now and after each change, and
// returns once the tree is empty (nil) or ctx ends. Between changes it
// sleeps in the kernel on the members' pidfds; without pidfds it looks
// again every half second while the tree lives.
func (a *AdoptedTree) Watch(ctx context.Context, changed func([]Identity)) error {
	for {
		live := a.Survivors()
		changed(live)
		if len(live) == 0 && a.Empty() {
			return nil
		}
		if err := waitAnyExit(ctx, live); err != nil {
			return err
		}
	}
}
