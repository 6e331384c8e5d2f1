package client

import (
	"bytes"
	"os"
	"strconv"
	"strings"
)

// LeaderAlive reports whether process pid is alive (not a zombie) and
// still the one that started at start (field 22 of /proc/PID/stat). A
// client holding a pane's master uses it before handing the master to a
// host: a pane whose leader has ended has nothing left to keep alive.
func LeaderAlive(pid int, start uint64) bool {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil || pid <= 0 {
		return false
	}
	i := bytes.LastIndexByte(b, ')') // the command name may hold spaces and parentheses
	if i < 0 {
		return false
	}
	f := strings.Fields(string(b[i+1:])) // f[0] is field 3 (state); f[19] field 22 (start time)
	if len(f) < 20 || f[0] == "Z" || f[0] == "X" {
		return false
	}
	return f[19] == strconv.FormatUint(start, 10)
}
