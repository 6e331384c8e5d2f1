//go:build linux

package main

import (
	"bufio"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestE2EIdleHostMapsLittleOfItsImage pins issue 12 (host RSS): a host
// with 10 idle shells kept 5.9 of its binary's 7.2 MB of code and
// read-only data resident, though it runs a fraction of it, because the
// kernel maps 64 KiB (or a whole large folio) around every fault and
// MADV_RANDOM does not stop that. The host now makes each page of its
// image a mapping of its own once it serves, so only what it touches comes
// back: measured 39% of the image (82% before).
func TestE2EIdleHostMapsLittleOfItsImage(t *testing.T) {
	e := newE2E(t)
	for i := 0; i < 10; i++ {
		id := strings.TrimSpace(e.must("new", "--size", "80x24", "--", "sh"))
		e.must("wait", id, "--idle", "300ms", "--timeout", "30s")
	}
	pid := e.hostPid()
	// The host splits its image on a goroutine of its own once it listens.
	e.eventually(30*time.Second, "the host's image split into one mapping per page", func() bool {
		maps, pages, _, _ := imageResidency(t, pid)
		return maps > 0 && maps == pages
	})
	_, _, size, rss := imageResidency(t, pid)
	t.Logf("resident image: %d of %d kB", rss, size)
	if rss*2 > size {
		t.Fatalf("the idle host has %d of its image's %d kB resident (%d%%); want at most half", rss, size, rss*100/size)
	}
}

// imageResidency counts pid's read-only private mappings of its own
// executable and their pages, and sums their Size and Rss in kB.
func imageResidency(t *testing.T, pid int) (maps, pages, size, rss int) {
	t.Helper()
	proc := "/proc/" + strconv.Itoa(pid)
	exe, err := os.Readlink(proc + "/exe")
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(proc + "/smaps")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	in := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if lo, hi, ok, header := readOnlyMapping(line, exe); header {
			in = ok
			if ok {
				maps++
				pages += int(hi-lo) / os.Getpagesize()
			}
			continue
		}
		if !in {
			continue
		}
		if v, ok := strings.CutPrefix(line, "Size:"); ok {
			size += smapsKB(v)
		} else if v, ok := strings.CutPrefix(line, "Rss:"); ok {
			rss += smapsKB(v)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return maps, pages, size, rss
}

// smapsKB parses the value of an smaps line ("  1024 kB").
func smapsKB(v string) int {
	n, _ := strconv.Atoi(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")))
	return n
}
