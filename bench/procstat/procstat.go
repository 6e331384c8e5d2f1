// Package procstat reads what the benchmarks need of a process from /proc:
// the CPU time it has used, its resident memory.
package procstat

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// clockTicks is USER_HZ, the unit of the times in /proc/PID/stat; it is 100
// on every Linux architecture Go supports.
const clockTicks = 100

// CPU returns the user plus system CPU time pid has used.
func CPU(pid int) (time.Duration, error) {
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0, err
	}
	d, ok := parseCPU(stat)
	if !ok {
		return 0, fmt.Errorf("cannot read the CPU time in /proc/%d/stat", pid)
	}
	return d, nil
}

// parseCPU parses utime and stime out of a /proc/PID/stat line. The command
// name in parentheses may hold spaces ("tmux: server"), so fields are
// counted after the last ')': state is the first, utime the 12th.
func parseCPU(stat []byte) (time.Duration, bool) {
	i := bytes.LastIndexByte(stat, ')')
	if i < 0 {
		return 0, false
	}
	f := strings.Fields(string(stat[i+1:]))
	if len(f) < 13 {
		return 0, false
	}
	utime, err1 := strconv.ParseInt(f[11], 10, 64)
	stime, err2 := strconv.ParseInt(f[12], 10, 64)
	if err1 != nil || err2 != nil {
		return 0, false
	}
	return time.Duration(utime+stime) * time.Second / clockTicks, true
}

// RSS returns pid's resident memory (VmRSS) in bytes.
func RSS(pid int) (int64, error) { return statusKB(pid, "VmRSS:") }

// AnonRSS returns pid's resident anonymous memory (RssAnon) in bytes: its
// heap and stacks, not the pages of its binary and libraries.
func AnonRSS(pid int) (int64, error) { return statusKB(pid, "RssAnon:") }

// statusKB reads a field of /proc/PID/status given in kB, in bytes.
func statusKB(pid int, key string) (int64, error) {
	v, err := StatusField("/proc/"+strconv.Itoa(pid)+"/status", key)
	return v << 10, err
}

// StatusField reads a number field of a /proc status file ("VmRSS:  10
// kB" gives 10).
func StatusField(file, key string) (int64, error) {
	f, err := os.Open(file)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), key); ok {
			return strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
		}
	}
	return 0, fmt.Errorf("no %s in %s", strings.TrimSuffix(key, ":"), file)
}

// Wakeups is how often pid's threads have gone to sleep and been woken
// since they started: voluntary_ctxt_switches summed over
// /proc/PID/task/*/status (the process's own status counts its main
// thread only, and a Go program sleeps in many). A thread that exits
// takes its count along, so read it over an interval in which none does.
func Wakeups(pid int) (int64, error) {
	tasks, err := filepath.Glob("/proc/" + strconv.Itoa(pid) + "/task/*/status")
	if err != nil || len(tasks) == 0 {
		return 0, fmt.Errorf("no threads of pid %d", pid)
	}
	var n int64
	for _, t := range tasks {
		if v, err := StatusField(t, "voluntary_ctxt_switches:"); err == nil {
			n += v
		} // else the thread exited meanwhile
	}
	return n, nil
}
