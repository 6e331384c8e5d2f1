// Linux half of adoption: which terminal a PTY master is (TIOCGPTN), which
// terminal a process has (field 7 of /proc/PID/stat), a recorded cgroup
// leaf, and waiting for a process that is not our child (poll on its
// pidfd).

package supervisor

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// ptsMajorFirst..ptsMajorLast are the device majors of /dev/pts/N
// (UNIX98_PTY_SLAVE_MAJOR and the seven after it, Documentation/admin-guide/devices.txt).
const (
	ptsMajorFirst = 136
	ptsMajorLast  = 143
)

// checkTerminal verifies that master is a PTY master whose slave is the
// controlling terminal of pid, and returns pid's process-table row.
func checkTerminal(master *os.File, pid int) (procInfo, error) {
	n, err := ptsNumber(master)
	if err != nil {
		return procInfo{}, fmt.Errorf("%w: it is not a PTY master (%v)", ErrNotItsTerminal, err)
	}
	p, err := readProc(pid)
	if err != nil {
		return procInfo{}, fmt.Errorf("read process %d: %w", pid, err)
	}
	tty, err := controllingTTY(pid)
	if err != nil {
		return procInfo{}, err
	}
	major, minor := unix.Major(tty), unix.Minor(tty)
	if major < ptsMajorFirst || major > ptsMajorLast || (major-ptsMajorFirst)*256+minor != n {
		return procInfo{}, fmt.Errorf("%w: it is /dev/pts/%d, but process %d's controlling terminal is device %d:%d", ErrNotItsTerminal, n, pid, major, minor)
	}
	return p, nil
}

// ptsNumber is N of the /dev/pts/N a PTY master drives.
func ptsNumber(master *os.File) (uint32, error) {
	rc, err := master.SyscallConn()
	if err != nil {
		return 0, err
	}
	var n uint32
	var ioErr error
	if err := rc.Control(func(fd uintptr) { n, ioErr = unix.IoctlGetUint32(int(fd), unix.TIOCGPTN) }); err != nil {
		return 0, err
	}
	return n, ioErr
}

// controllingTTY is field 7 (tty_nr) of /proc/PID/stat.
func controllingTTY(pid int) (uint64, error) {
	b, err := os.ReadFile(filepath.Join(procRoot, strconv.Itoa(pid), "stat"))
	if err != nil {
		return 0, fmt.Errorf("read controlling terminal of %d: %w", pid, err)
	}
	end := strings.LastIndexByte(string(b), ')')
	rest := strings.Fields(string(b[end+1:]))
	if end < 0 || len(rest) < 5 {
		return 0, fmt.Errorf("read controlling terminal of %d: short stat line", pid)
	}
	n, err := strconv.ParseInt(rest[7-3], 10, 64)
	if err != nil {
		return 0, fmt.Errorf("read controlling terminal of %d: %w", pid, err)
	}
	return uint64(uint32(n)), nil
}

// recordedLeaf is the cgroup leaf a crashed host made for the pane, if it
// is still there; the kill ladder then goes through it.
func recordedLeaf(path, paneID string) *cgroupLeaf {
	if !ValidLeaf(path, paneID) {
		return nil
	}
	if _, err := os.Stat(filepath.Join(path, "cgroup.procs")); err != nil {
		return nil
	}
	return &cgroupLeaf{path: path, dirfd: -1}
}

// waitGoneHandle blocks until the process h names has ended. A pidfd
// becomes readable when its process exits, whoever its parent is; without
// one (kernels before 5.3) the identity is polled.
func waitGoneHandle(h *Handle) {
	if fd := h.rawFD(); fd >= 0 {
		sleepUntilReadable(fd) // in the poller: no thread held while it lives
		fds := []unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}
		for {
			_, err := unix.Poll(fds, -1)
			if !errors.Is(err, syscall.EINTR) {
				return // readable (exited), or a poll error: either way stop watching
			}
		}
	}
	for delay := 5 * time.Millisecond; ; delay = min(2*delay, 250*time.Millisecond) {
		if now, err := ReadIdentity(h.id.PID); err != nil || now != h.id {
			return
		}
		time.Sleep(delay) // no event to wait on without a pidfd
	}
}
