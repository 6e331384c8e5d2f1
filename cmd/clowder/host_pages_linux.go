package main

import (
	"bufio"
	"os"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

// dropStartupPages unmaps the pages of this binary's read-only segments
// (code, read-only data, the function tables) from the process once the
// host serves: start-up and every package's init touched nearly all of
// them, and the kernel maps 64 KiB around each fault, so an idle host kept
// about 6.5 MB of a binary it mostly does not run (issue 12). They stay in
// the page cache: what the host runs afterwards maps back with a minor
// fault. Only segments that are never written are touched: MADV_DONTNEED
// on a written private page would lose the write.
func dropStartupPages() {
	for _, r := range readOnlyImage() {
		// best effort: a hint about clean pages. The raw call takes the
		// range as numbers: it is a mapping, not Go memory.
		_, _, _ = unix.Syscall(unix.SYS_MADVISE, r[0], r[1]-r[0], unix.MADV_DONTNEED)
	}
}

// readOnlyImage is this binary's mappings that are readable and never
// writable, from /proc/self/maps, as [start, end) addresses.
func readOnlyImage() [][2]uintptr {
	exe, err := os.Executable()
	if err != nil {
		return nil
	}
	f, err := os.Open("/proc/self/maps")
	if err != nil {
		return nil
	}
	defer f.Close()
	var out [][2]uintptr
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if lo, hi, ok := readOnlyMapping(sc.Text(), exe); ok {
			out = append(out, [2]uintptr{lo, hi})
		}
	}
	return out
}

// readOnlyMapping parses one maps line: the range if it maps exe
// read-only (r--p or r-xp).
func readOnlyMapping(line, exe string) (lo, hi uintptr, ok bool) {
	f := strings.Fields(line)
	if len(f) < 6 || f[5] != exe || f[1][0] != 'r' || f[1][1] != '-' || f[1][3] != 'p' {
		return 0, 0, false
	}
	a, b, found := strings.Cut(f[0], "-")
	l, err1 := strconv.ParseUint(a, 16, 64)
	h, err2 := strconv.ParseUint(b, 16, 64)
	if !found || err1 != nil || err2 != nil || h <= l {
		return 0, 0, false
	}
	return uintptr(l), uintptr(h), true
}
