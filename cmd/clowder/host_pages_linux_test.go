package main

import (
	"bufio"
	"encoding/binary"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"unsafe"
)

// TestDropStartupPagesUnmapsTheBinarysReadOnlyPages pins issue 12 (host
// RSS): an idle host kept nearly all of its binary's code and read-only
// data resident, which start-up had touched (and the kernel mapped 64 KiB
// around each touch). After dropStartupPages the binary's clean read-only
// mappings hold fewer resident pages, and the process goes on running from
// them (they fault back from the page cache).
func TestDropStartupPagesUnmapsTheBinarysReadOnlyPages(t *testing.T) {
	before := imageRSS(t)
	dropStartupPages()
	after := imageRSS(t)
	if before == 0 || after >= before {
		t.Fatalf("resident read-only image: %d kB before, %d kB after; want fewer after", before, after)
	}
	if got := commandLine([]string{"echo", "a b"}); got != `echo "a b"` { // code runs again
		t.Fatalf("commandLine = %q", got)
	}
}

// TestDropStartupPagesLeavesWrittenMappingsAlone: a read-only mapping with
// private written pages (a dynamic loader's relocations, made read-only
// afterwards) must keep them, so it is not a candidate; nor are other
// files, writable mappings or shared ones.
func TestDropStartupPagesLeavesWrittenMappingsAlone(t *testing.T) {
	const exe = "/usr/bin/clowder"
	smaps := `00400000-00500000 r-xp 00000000 08:01 42 /usr/bin/clowder
Rss:                1024 kB
Anonymous:             0 kB
00500000-00600000 r--p 00100000 08:01 42 /usr/bin/clowder
Anonymous:             8 kB
00600000-00700000 r--p 00200000 08:01 42 /usr/bin/clowder
Anonymous:             0 kB
00700000-00800000 rw-p 00300000 08:01 42 /usr/bin/clowder
Anonymous:             0 kB
00800000-00900000 r--s 00400000 08:01 42 /usr/bin/clowder
Anonymous:             0 kB
7f0000000000-7f0000100000 r-xp 00000000 08:01 7 /usr/lib/libc.so.6
Anonymous:             0 kB
`
	got := cleanReadOnlyImage(strings.NewReader(smaps), exe)
	want := [][2]uintptr{{0x400000, 0x500000}, {0x600000, 0x700000}}
	if len(got) != len(want) || got[0] != want[0] || got[1] != want[1] {
		t.Fatalf("candidates %x; want %x", got, want)
	}
}

// imageRSS sums Rss of this binary's read-only mappings in kB.
func imageRSS(t *testing.T) int {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.Open("/proc/self/smaps")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	total, in := 0, false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if _, _, ok, header := readOnlyMapping(line, exe); header {
			in = ok
			continue
		}
		if v, ok := strings.CutPrefix(line, "Rss:"); ok && in {
			kb, _ := strconv.Atoi(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")))
			total += kb
		}
	}
	return total
}

// TestIsolatedPagesFaultInOneAtATime pins issue 12 (host RSS): the kernel
// maps up to 64 KiB of cached file pages around each read fault
// (fault-around), and MADV_RANDOM does not turn that off, so the host's
// every touch of its dropped image brought 16 pages back and an idle host
// with 10 shells held 5.9 of its binary's 7.2 MB of code and read-only
// data. Fault-around stops at a mapping's edge: after isolatePages each
// page is a mapping of its own, and touching one byte maps one page.
func TestIsolatedPagesFaultInOneAtATime(t *testing.T) {
	page := os.Getpagesize()
	m := mapCachedFile(t, 64*page)
	isolatePages(uintptr(unsafe.Pointer(&m[0])), uintptr(unsafe.Pointer(&m[0]))+uintptr(len(m)), uintptr(page))
	at := 32*page + 5
	if m[at] != byte(at/page) { // the touch; also proves the data reads right
		t.Fatalf("byte %d = %d; want %d", at, m[at], at/page)
	}
	if n := residentPages(t, m); n != 1 {
		t.Fatalf("%d of the file's %d pages are mapped after touching one byte; want 1", n, len(m)/page)
	}
}

// TestIsolatePagesRespectsTheMappingLimit: splitting an image into
// one-page mappings must leave most of the kernel's per-process mapping
// limit to the runtime (heap growth, thread stacks), or a later mmap would
// fail and the host would die.
func TestIsolatePagesRespectsTheMappingLimit(t *testing.T) {
	if !roomToIsolate(2000, 65530) {
		t.Fatalf("2000 pages under a limit of 65530 mappings: want room")
	}
	if roomToIsolate(20000, 65530) {
		t.Fatalf("20000 pages under a limit of 65530 mappings: want no room (keep three quarters for the runtime)")
	}
	if roomToIsolate(10, 0) {
		t.Fatalf("an unknown limit (0): want no room")
	}
}

// mapCachedFile writes n bytes (each page filled with its index) to a
// file, so they are in the page cache, and maps it read-only and private,
// as the binary's image is.
func mapCachedFile(t *testing.T, n int) []byte {
	t.Helper()
	page := os.Getpagesize()
	data := make([]byte, n)
	for i := range data {
		data[i] = byte(i / page)
	}
	path := filepath.Join(t.TempDir(), "image")
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	m, err := syscall.Mmap(int(f.Fd()), 0, n, syscall.PROT_READ, syscall.MAP_PRIVATE)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = syscall.Munmap(m) })
	return m
}

// residentPages counts the pages of m mapped into this process, from
// /proc/self/pagemap (bit 63: present).
func residentPages(t *testing.T, m []byte) int {
	t.Helper()
	page := os.Getpagesize()
	f, err := os.Open("/proc/self/pagemap")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	buf := make([]byte, len(m)/page*8)
	if _, err := f.ReadAt(buf, int64(uintptr(unsafe.Pointer(&m[0]))/uintptr(page)*8)); err != nil {
		t.Fatal(err)
	}
	n := 0
	for i := 0; i < len(buf); i += 8 {
		if binary.LittleEndian.Uint64(buf[i:])>>63 != 0 {
			n++
		}
	}
	return n
}

// TestDropStartupPagesTwiceKeepsEveryPageApart: the image it finds the
// second time is already one mapping per page; isolating each of those
// alone would mark them all MADV_RANDOM and let the kernel merge them
// back into one, undoing the first call.
func TestDropStartupPagesTwiceKeepsEveryPageApart(t *testing.T) {
	dropStartupPages()
	dropStartupPages()
	maps, pages := imageMappings(t)
	if maps != pages {
		t.Fatalf("the binary's read-only image is %d mappings of %d pages; want one mapping per page", maps, pages)
	}
}

// imageMappings counts this binary's read-only private mappings and the
// pages in them.
func imageMappings(t *testing.T) (maps, pages int) {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile("/proc/self/maps")
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		if lo, hi, ok, _ := readOnlyMapping(line, exe); ok {
			maps++
			pages += int(hi-lo) / os.Getpagesize()
		}
	}
	return maps, pages
}

// TestAtLowPriorityNicesOnlyItsOwnThread pins issue 12 (cold start):
// splitting the image costs the host about 4 ms of CPU just after it
// starts, beside the first client's work. It runs at nice 19 on a thread
// of its own that ends with it, so no other goroutine ever runs niced.
func TestAtLowPriorityNicesOnlyItsOwnThread(t *testing.T) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	before := threadNice(t)
	var during int
	atLowPriority(func() { during = threadNice(t) })
	if during != 19 {
		t.Fatalf("fn ran at nice %d; want 19", during)
	}
	if after := threadNice(t); after != before {
		t.Fatalf("the caller's thread went from nice %d to %d", before, after)
	}
}

// threadNice is the nice value of the calling thread.
func threadNice(t *testing.T) int {
	t.Helper()
	p, err := syscall.Getpriority(syscall.PRIO_PROCESS, syscall.Gettid())
	if err != nil {
		t.Fatal(err)
	}
	return 20 - p // the system call answers 20 - nice
}
