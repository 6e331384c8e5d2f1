package main

import (
	"bufio"
	"io"
	"os"
	"strconv"
	"strings"
	"syscall"
)

// dropStartupPages unmaps the pages of this binary's read-only segments
// (code, read-only data, the function tables) once the host serves, and
// tells the kernel not to map 64 KiB around each later fault there
// (MADV_RANDOM): start-up and every package's init touched nearly all of
// them, so an idle host kept 6.5 MB of a binary it mostly does not run
// (issue 12). They stay in the page cache: what the host runs afterwards
// maps back with a minor fault. A segment with a private written page
// (Anonymous in smaps: relocations a dynamic loader wrote before making it
// read-only) is left alone, since MADV_DONTNEED would undo the writes.
func dropStartupPages() {
	f, err := os.Open("/proc/self/smaps")
	if err != nil {
		return
	}
	defer f.Close()
	exe, err := os.Executable()
	if err != nil {
		return
	}
	for _, r := range cleanReadOnlyImage(f, exe) {
		// best effort: hints about clean pages. The raw calls take the
		// range as numbers: it is a mapping, not Go memory.
		_, _, _ = syscall.Syscall(syscall.SYS_MADVISE, r[0], r[1]-r[0], syscall.MADV_RANDOM)
		_, _, _ = syscall.Syscall(syscall.SYS_MADVISE, r[0], r[1]-r[0], syscall.MADV_DONTNEED)
	}
}

// cleanReadOnlyImage is exe's read-only private mappings in smaps that
// hold no written (anonymous) page, as [start, end) addresses.
func cleanReadOnlyImage(smaps io.Reader, exe string) [][2]uintptr {
	var out [][2]uintptr
	var cur [2]uintptr
	in := false
	sc := bufio.NewScanner(smaps)
	for sc.Scan() {
		line := sc.Text()
		if lo, hi, ok, header := readOnlyMapping(line, exe); header {
			if in {
				out = append(out, cur)
			}
			cur, in = [2]uintptr{lo, hi}, ok
			continue
		}
		if v, ok := strings.CutPrefix(line, "Anonymous:"); ok && in && strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")) != "0" {
			in = false // written pages: leave the mapping alone
		}
	}
	if in {
		out = append(out, cur)
	}
	return out
}

// readOnlyMapping parses one smaps line. header reports whether it starts
// a mapping; ok whether that mapping is exe, read-only and private (r--p or
// r-xp), with its range.
func readOnlyMapping(line, exe string) (lo, hi uintptr, ok, header bool) {
	f := strings.Fields(line)
	if len(f) < 5 || strings.HasSuffix(f[0], ":") || !strings.Contains(f[0], "-") || len(f[1]) != 4 {
		return 0, 0, false, false
	}
	a, b, _ := strings.Cut(f[0], "-")
	l, err1 := strconv.ParseUint(a, 16, 64)
	h, err2 := strconv.ParseUint(b, 16, 64)
	if err1 != nil || err2 != nil {
		return 0, 0, false, false
	}
	perm := f[1]
	ok = len(f) >= 6 && f[5] == exe && perm[0] == 'r' && perm[1] == '-' && perm[3] == 'p' && h > l
	return uintptr(l), uintptr(h), ok, true
}
