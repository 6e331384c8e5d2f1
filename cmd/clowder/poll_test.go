package main

import (
	"path/filepath"
	"sync"
	"testing"

	"clowder/persist"
	"clowder/supervisor/proto"
)

// TestPollMarksSavedConcurrentlyNeverFail pins issue 7 §2: the poll mark
// was written through one fixed temporary name ("<mark>.tmp"), so two
// polls of one pane at once renamed each other's file away and one failed
// with "no such file", or left a torn mark.
func TestPollMarksSavedConcurrentlyNeverFail(t *testing.T) {
	dir := t.TempDir()
	p := persist.Paths{StateDir: dir}
	info := proto.PaneInfo{ID: "p1", CreatedMS: 7, Seq: 1 << 20}
	m := pollMark{path: filepath.Join(dir, "poll", info.ID)}
	var wg sync.WaitGroup
	errs := make(chan error, 2)
	for g := 0; g < 2; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 300; i++ {
				if err := m.save(p, info, uint64(i)); err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Errorf("concurrent poll: %v", err)
	}
	if got := m.load(info); got != 299 {
		t.Errorf("mark after both polls = %d, want 299", got)
	}
	if left, _ := filepath.Glob(filepath.Join(dir, "poll", "*tmp*")); len(left) != 0 {
		t.Errorf("temporary files left behind: %v", left)
	}
}
