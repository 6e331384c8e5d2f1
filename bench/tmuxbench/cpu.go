package tmuxbench

import (
	"bytes"
	"context"
	"os"
	"strconv"
	"strings"
	"time"
)

// clockTicks is USER_HZ, the unit of the times in /proc/PID/stat; it is 100
// on every Linux architecture Go supports.
const clockTicks = 100

// serverCPU returns the user plus system CPU time the tmux server has used;
// ok is false where it cannot be read (no /proc, as on darwin).
func (s *Server) serverCPU(ctx context.Context) (cpu time.Duration, ok bool) {
	out, err := s.Run(ctx, "display-message", "-p", "#{pid}")
	if err != nil {
		return 0, false
	}
	stat, err := os.ReadFile("/proc/" + strings.TrimSpace(string(out)) + "/stat")
	if err != nil {
		return 0, false
	}
	return statCPU(stat)
}

// statCPU parses utime and stime out of a /proc/PID/stat line. The command
// name in parentheses may hold spaces ("tmux: server"), so fields are
// counted after the last ')': state is the first, utime the 12th.
func statCPU(stat []byte) (time.Duration, bool) {
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
