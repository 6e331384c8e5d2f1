// Package procstat reads what the benchmarks need of a process from /proc:
// the CPU time it has used, its resident memory.
package procstat

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
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
func RSS(pid int) (int64, error) { return statusBytes(pid, "VmRSS:") }

// AnonRSS returns pid's resident anonymous memory (RssAnon) in bytes: its
// heap and stacks, not the pages of its binary and libraries.
func AnonRSS(pid int) (int64, error) { return statusBytes(pid, "RssAnon:") }

// statusBytes reads a field of /proc/PID/status given in kB.
func statusBytes(pid int, field string) (int64, error) {
	f, err := os.Open("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return 0, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), field); ok {
			kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			return kb << 10, err
		}
	}
	return 0, fmt.Errorf("no %s in /proc/%d/status", strings.TrimSuffix(field, ":"), pid)
}
