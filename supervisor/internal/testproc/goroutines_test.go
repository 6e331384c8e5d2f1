package testproc

import (
	"strings"
	"testing"
	"time"
)

// parkedInOther and parkedInOwn are where the goroutines of
// TestOwnGoroutinesLeaveOutOtherTests wait, to be told apart in stacks.
func parkedInOther(c chan struct{}) { <-c }
func parkedInOwn(c chan struct{})   { <-c }

// TestOwnGoroutinesLeaveOutOtherTests: a goroutine started before the
// label (another test's, still ending) is not the test's; one started
// after it, and one that goroutine starts, are, in their scheduler state.
func TestOwnGoroutinesLeaveOutOtherTests(t *testing.T) {
	release := make(chan struct{})
	defer close(release)
	go parkedInOther(release)
	own := LabelGoroutines(t)
	go func() { go parkedInOwn(release) }() // a grandchild inherits the label too
	var mine []string
	parked := func() bool {
		mine = withFrame(OwnGoroutines(own), "/testproc.parkedInOwn(")
		return len(mine) == 1 && GoroutineState(mine[0]) == "chan receive"
	}
	for deadline := time.Now().Add(WaitFor); !parked(); time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("this test's parked goroutine, as seen: %q", mine)
		}
	}
	if other := withFrame(OwnGoroutines(own), "/testproc.parkedInOther("); len(other) != 0 {
		t.Fatalf("a goroutine started before the label counted as this test's: %q", other)
	}
}

// withFrame keeps the goroutines with fn on their stack.
func withFrame(gs []string, fn string) []string {
	var with []string
	for _, g := range gs {
		if strings.Contains(g, fn) {
			with = append(with, g)
		}
	}
	return with
}
