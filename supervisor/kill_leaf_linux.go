// This file is where an owned run with a cgroup leaf looks for its
// members: not in all of /proc (every process on the machine, two or
// three times for a run that simply exited: issue 12), but in what its
// membership rules (kill_tree.go) can reach: the processes of the leaf,
// the leader and every member tracked so far, the children of each of
// them, transitively, and this process's own children that no run owns
// (re-parented to it as the subreaper). A process the leaf does not hold
// is then found only while it descends from a member or was re-parented
// here; one that left the leaf, the group and the session, and whose
// parent died while this process was not the subreaper, is not.

package supervisor

import (
	"os"
	"strconv"
)

// leafTable reads the processes the tree's rules can reach, and the pids
// its leaf holds. It fails only when the leaf cannot be read.
func (t *procTree) leafTable() (procTable, map[int]bool, error) {
	pids, err := t.cg.procs()
	if err != nil {
		return nil, nil, err
	}
	inLeaf := make(map[int]bool, len(pids))
	for _, pid := range pids {
		inLeaf[pid] = true
	}
	procs := procTable{}
	queue := procs.read(append(pids, t.leader.PID))
	queue = append(queue, procs.read(t.trackedPids())...)
	queue = append(queue, procs.read(strayChildren())...)
	for len(queue) > 0 {
		pid := queue[0]
		queue = append(queue[1:], procs.read(taskChildren(pid))...)
	}
	return procs, inLeaf, nil
}

// trackedPids lists the pids of every member seen so far.
func (t *procTree) trackedPids() []int {
	t.mu.Lock()
	defer t.mu.Unlock()
	out := make([]int, 0, len(t.tracked))
	for pid := range t.tracked {
		out = append(out, pid)
	}
	return out
}

// read adds each pid not yet in t, as /proc says it is now, and returns
// those it added. A pid that is gone (or is this process) is skipped.
func (t procTable) read(pids []int) []int {
	var added []int
	self := os.Getpid()
	for _, pid := range pids {
		if _, seen := t[pid]; seen || pid <= 0 || pid == self {
			continue
		}
		if p, err := readProc(pid); err == nil {
			t[pid] = p
			added = append(added, pid)
		}
	}
	return added
}

// strayChildren lists this process's children that no run owns: the
// processes re-parented to it as the subreaper, and whatever else it
// started with os/exec. The children of the runs' leaders are reached
// through their own trees, not through ours.
func strayChildren() []int {
	pids, err := children.childPids()
	if err != nil {
		return nil
	}
	children.mu.Lock()
	defer children.mu.Unlock()
	out := pids[:0]
	for _, pid := range pids {
		if !children.owned[pid] {
			out = append(out, pid)
		}
	}
	return out
}

// taskChildren lists pid's children from /proc/PID/task/*/children (each
// thread lists those it forked, and those re-parented to it). It is
// empty for a process gone, or on a kernel without those files; a
// process forked or exiting meanwhile may be missed, as by any scan.
func taskChildren(pid int) []int {
	dir := procRoot + "/" + strconv.Itoa(pid) + "/task"
	tids, err := readDirNames(dir)
	if err != nil {
		return nil
	}
	var out []int
	for _, tid := range tids {
		out, _ = appendChildren(out, dir+"/"+tid+"/children") // a thread ended: its children moved to another
	}
	return out
}
