package persist

// This file tells, without taking it even for a moment, whether a host
// lock is held: testing with a shared flock could make a host that starts
// at that instant fail to take its own.

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"
)

// PeekLockHolder reports whether some process holds an exclusive flock on
// the lock file at path, and its pid, as /proc/locks lists it. It takes
// no lock; a missing file or an unreadable /proc is no holder.
func PeekLockHolder(path string) (pid int, held bool) {
	var st syscall.Stat_t
	if err := syscall.Lstat(path, &st); err != nil {
		return 0, false
	}
	data, _ := ReadPrivate("host lock", path, 4096) // best effort: the pid it records, for flockOn
	return flockHolder(st, pidLine(data))
}

// lockedExclusively reports whether an exclusive flock is held on the
// open file f (by any open file description, this process's too),
// without taking one: see PeekLockHolder. recorded is the pid the file
// records, 0 if none.
func lockedExclusively(f *os.File, recorded int) bool {
	var st syscall.Stat_t
	if err := syscall.Fstat(int(f.Fd()), &st); err != nil {
		return false
	}
	_, held := flockHolder(st, recorded)
	return held
}

// flockHolder is the pid /proc/locks lists as holding a write flock on
// the file st describes, whose content records the pid recorded.
func flockHolder(st syscall.Stat_t, recorded int) (pid int, held bool) {
	f, err := os.Open("/proc/locks")
	if err != nil {
		return 0, false
	}
	defer f.Close()
	ino := ":" + strconv.FormatUint(st.Ino, 10)
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if pid, ok := flockOn(strings.Fields(sc.Text()), st.Dev, ino, recorded); ok {
			return pid, true
		}
	}
	return 0, false
}

// flockOn reads one /proc/locks line ("1: FLOCK ADVISORY WRITE PID
// MAJ:MIN:INODE 0 EOF"): the holder's pid if it is a write flock on the
// file of device dev whose MAJ:MIN:INODE ends with ino. /proc/locks prints
// the superblock's device, which on btrfs (and overlayfs over several
// filesystems) is not stat's dev: there a line on the inode held by the
// pid the file records (recorded, if not 0) is the holder.
func flockOn(f []string, dev uint64, ino string, recorded int) (int, bool) {
	if len(f) < 6 || f[1] != "FLOCK" || f[3] != "WRITE" || !strings.HasSuffix(f[5], ino) {
		return 0, false
	}
	pid, err := strconv.Atoi(f[4])
	if err != nil {
		return 0, false
	}
	want := fmt.Sprintf("%02x:%02x%s", (dev>>8)&0xfff|(dev>>32)&^0xfff, dev&0xff|(dev>>12)&^0xff, ino)
	return pid, f[5] == want || (recorded > 0 && pid == recorded)
}
