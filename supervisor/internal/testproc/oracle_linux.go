package testproc

import (
	"bytes"
	"fmt"
	"os"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

// markedLive lists the live (not zombie) processes whose environment holds
// marker (NAME=value).
func markedLive(marker string) ([]procID, error) {
	names, err := os.ReadDir("/proc")
	if err != nil {
		return nil, fmt.Errorf("scan /proc: %w", err)
	}
	want := []byte(marker + "\x00")
	var out []procID
	for _, e := range names {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		env, err := os.ReadFile("/proc/" + e.Name() + "/environ")
		if err != nil || !bytes.Contains(env, want) {
			continue
		}
		if id, alive := readStat(pid); alive {
			out = append(out, id)
		}
	}
	return out, nil
}

// readStat reads pid's identity from /proc/PID/stat and whether it is alive
// (neither a zombie nor dead).
func readStat(pid int) (procID, bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return procID{}, false
	}
	i := bytes.LastIndexByte(b, ')') // the command name may hold spaces and parentheses
	if i < 0 {
		return procID{}, false
	}
	f := strings.Fields(string(b[i+1:])) // f[0] is field 3 (state); field 22 is the start time
	if len(f) < 20 {
		return procID{}, false
	}
	start, err := strconv.ParseUint(f[19], 10, 64)
	if err != nil {
		return procID{}, false
	}
	return procID{pid: pid, start: start}, f[0] != "Z" && f[0] != "X"
}

// stillAlive reports whether the process id names is alive.
func stillAlive(id procID) bool {
	now, alive := readStat(id.pid)
	return alive && now == id
}

// killIfSame SIGKILLs id through a pidfd opened before its identity is
// checked, so a reused pid is never signalled.
func killIfSame(id procID) {
	fd, err := unix.PidfdOpen(id.pid, 0)
	if err != nil {
		return
	}
	defer unix.Close(fd)
	if stillAlive(id) {
		_ = unix.PidfdSendSignal(fd, unix.SIGKILL, nil, 0)
	}
}
