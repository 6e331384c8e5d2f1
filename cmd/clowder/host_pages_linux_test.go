package main

import (
	"bufio"
	"os"
	"strconv"
	"strings"
	"testing"
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
