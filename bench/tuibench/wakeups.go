package tuibench

import (
	"bufio"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// wakeups is how often pid's threads have gone to sleep and been woken
// since they started: the sum of voluntary_ctxt_switches over
// /proc/PID/task/*/status (the process's own status counts its main thread
// only, and a Go program sleeps in many). Threads that exited are not
// counted, so read it over an interval in which none exits.
func wakeups(pid int) (int64, error) {
	tasks, err := filepath.Glob("/proc/" + strconv.Itoa(pid) + "/task/*/status")
	if err != nil || len(tasks) == 0 {
		return 0, os.ErrNotExist
	}
	var n int64
	for _, t := range tasks {
		v, err := voluntarySwitches(t)
		if err != nil {
			continue // the thread exited meanwhile
		}
		n += v
	}
	return n, nil
}

func voluntarySwitches(status string) (int64, error) {
	f, err := os.Open(status)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "voluntary_ctxt_switches:"); ok {
			return strconv.ParseInt(strings.TrimSpace(v), 10, 64)
		}
	}
	return 0, os.ErrNotExist
}
