// The token scan on Linux: /proc/PID/environ of every process of this
// user, once; and the clock of /proc/PID/stat's start time.

package supervisor

import (
	"bytes"
	"fmt"
	"os"
	"strconv"
	"syscall"

	"golang.org/x/sys/unix"
)

// userHZ is the unit of /proc/PID/stat's start time: USER_HZ, which
// Linux fixes at 100 for every architecture clowder builds for.
const userHZ = 100

// BootTicks is now in the clock of Identity.Start: clock ticks since
// boot, as the kernel counts a process's start (CLOCK_BOOTTIME). A
// process forked later has a start time no smaller.
func BootTicks() (uint64, error) {
	var ts unix.Timespec
	if err := unix.ClockGettime(unix.CLOCK_BOOTTIME, &ts); err != nil {
		return 0, fmt.Errorf("read the boot clock: %w", err)
	}
	return uint64(ts.Sec)*userHZ + uint64(ts.Nsec)/(1e9/userHZ), nil
}

// ScanPaneTokens reads the environment of every live process of this
// user (its effective uid) but this one, and returns those that carry a
// pane token. One pass over /proc, whatever the number of panes.
func ScanPaneTokens() (*TokenScan, error) {
	d, err := os.Open(procRoot)
	if err != nil {
		return nil, fmt.Errorf("scan %s for pane tokens: %w", procRoot, err)
	}
	defer func() { _ = d.Close() }() // best effort: a read-only directory
	names, err := d.Readdirnames(-1)
	if err != nil {
		return nil, fmt.Errorf("scan %s for pane tokens: %w", procRoot, err)
	}
	s := &TokenScan{}
	uid, self := uint32(os.Geteuid()), os.Getpid()
	for _, name := range names {
		if pid, err := strconv.Atoi(name); err == nil && pid != self {
			s.scanOne(pid, uid)
		}
	}
	return s, nil
}

// scanOne adds pid if it is a live process of uid carrying a token.
func (s *TokenScan) scanOne(pid int, uid uint32) {
	dir := procRoot + "/" + strconv.Itoa(pid)
	var st syscall.Stat_t
	if syscall.Stat(dir, &st) != nil || st.Uid != uid {
		return
	}
	before, err := readProc(pid)
	if err != nil || !before.alive() {
		return
	}
	env, err := os.ReadFile(dir + "/environ")
	if err != nil {
		return
	}
	tokens := envValues(env, PaneTokenEnv)
	// Read again: the environment is of this identity only if the pid
	// named the same process before and after it.
	if after, err := readProc(pid); len(tokens) == 0 || err != nil || after.ID != before.ID {
		return
	}
	for _, tok := range tokens {
		s.add(tok, before.ID)
	}
}

// envValues are the values of name in a NUL-separated environment block.
func envValues(env []byte, name string) []string {
	prefix := []byte(name + "=")
	var out []string
	for _, kv := range bytes.Split(env, []byte{0}) {
		if v, ok := bytes.CutPrefix(kv, prefix); ok && len(v) > 0 {
			out = append(out, string(v))
		}
	}
	return out
}
