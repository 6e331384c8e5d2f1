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
// data resident, which start-up had touched. After dropStartupPages the
// read-only mappings of the binary hold fewer resident pages, and the
// process goes on running from them (they fault back from the page cache).
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
		if fields := strings.Fields(line); len(fields) >= 5 && strings.Contains(fields[0], "-") && !strings.HasSuffix(fields[0], ":") {
			_, _, ok := readOnlyMapping(line, exe)
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
