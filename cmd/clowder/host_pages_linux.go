package main

import (
	"bufio"
	"io"
	"os"
	"runtime"
	"strconv"
	"strings"
	"syscall"
)

// dropStartupPages unmaps the pages of this binary's read-only segments
// (code, read-only data, the function tables) once the host serves, and
// makes each page a mapping of its own (isolatePages), so that a later
// fault maps back only the page it touches: start-up and every package's
// init touched nearly all of them, and the kernel maps 64 KiB (or a whole
// large folio) around each fault, so an idle host with 10 shells kept 5.9
// MB of a 7.2 MB image it mostly does not run (issue 12;
// bench/profiles/hostmem.md). The pages stay in the page cache: what the
// host runs afterwards maps back with a minor fault. A segment with a
// private written page (Anonymous in smaps: relocations a dynamic loader
// wrote before making it read-only) is left alone, since MADV_DONTNEED
// would undo the writes.
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
	image := adjoined(cleanReadOnlyImage(f, exe))
	page := uintptr(os.Getpagesize())
	isolate := roomToIsolate(pagesIn(image, page), maxMapCount())
	for _, r := range image {
		if isolate {
			isolatePages(r[0], r[1], page)
		}
		// best effort: a hint about clean pages. The raw call takes the
		// range as numbers: it is a mapping, not Go memory.
		_, _, _ = syscall.Syscall(syscall.SYS_MADVISE, r[0], r[1]-r[0], syscall.MADV_DONTNEED)
	}
}

// isolatePages splits the mapping [lo, hi) into one-page mappings: every
// other page MADV_NORMAL, the rest MADV_RANDOM, so that no two neighbours
// have the same flags and the kernel cannot merge them again. The kernel's
// fault-around (and its mapping of a whole large folio) stops at a
// mapping's edge, so a fault there maps one page. The flags themselves
// only choose how much a page-cache miss reads ahead. The cost is one
// kernel mapping (192 bytes here) per page, which roomToIsolate bounds.
func isolatePages(lo, hi, page uintptr) {
	// best effort, as above: a page left merged maps its neighbours again
	_, _, _ = syscall.Syscall(syscall.SYS_MADVISE, lo, hi-lo, syscall.MADV_RANDOM)
	for a := lo + page; a < hi; a += 2 * page {
		_, _, _ = syscall.Syscall(syscall.SYS_MADVISE, a, page, syscall.MADV_NORMAL)
	}
}

// adjoined joins ranges that touch, so an image a first call split into
// one mapping per page is isolated again as one range: page by page, each
// page would get MADV_RANDOM and the kernel would merge them all back.
func adjoined(ranges [][2]uintptr) [][2]uintptr {
	var out [][2]uintptr
	for _, r := range ranges {
		if n := len(out); n > 0 && out[n-1][1] == r[0] {
			out[n-1][1] = r[1]
			continue
		}
		out = append(out, r)
	}
	return out
}

// roomToIsolate reports whether pages one-page mappings fit in a quarter
// of the kernel's per-process limit (vm.max_map_count; 0 if unknown), so
// the rest stays for the runtime's heap and thread stacks.
func roomToIsolate(pages, limit int) bool { return pages > 0 && pages <= limit/4 }

// pagesIn counts the pages of the ranges.
func pagesIn(ranges [][2]uintptr, page uintptr) int {
	n := 0
	for _, r := range ranges {
		n += int((r[1] - r[0]) / page)
	}
	return n
}

// maxMapCount is vm.max_map_count, or 0 if it cannot be read.
func maxMapCount() int {
	b, err := os.ReadFile("/proc/sys/vm/max_map_count")
	if err != nil {
		return 0
	}
	n, _ := strconv.Atoi(strings.TrimSpace(string(b)))
	return n
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

// dropStartupPagesQuietly is dropStartupPages at the lowest CPU priority:
// the split costs about 4 ms of CPU just after the host starts, beside the
// work of the client that started it (a cold start), so it takes what CPU
// nothing else wants. Each madvise holds the mm's lock for microseconds.
func dropStartupPagesQuietly() { atLowPriority(dropStartupPages) }

// atLowPriority runs fn at nice 19 on a thread of its own and waits for
// it. The thread stays locked to fn's goroutine, so the runtime ends it
// with the goroutine and no other goroutine ever runs niced.
func atLowPriority(fn func()) {
	done := make(chan struct{})
	go func() {
		defer close(done)
		runtime.LockOSThread() // never unlocked: see above
		// best effort: at worst fn runs at the host's own priority
		_ = syscall.Setpriority(syscall.PRIO_PROCESS, syscall.Gettid(), 19)
		fn()
	}()
	<-done
}
