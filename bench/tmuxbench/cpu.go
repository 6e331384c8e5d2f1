package tmuxbench

import (
	"context"
	"strconv"
	"strings"
	"time"

	"clowder/bench/procstat"
)

// serverCPU returns the user plus system CPU time the tmux server has used;
// ok is false where it cannot be read (no /proc, as on darwin).
func (s *Server) serverCPU(ctx context.Context) (cpu time.Duration, ok bool) {
	out, err := s.Run(ctx, "display-message", "-p", "#{pid}")
	if err != nil {
		return 0, false
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(out)))
	if err != nil {
		return 0, false
	}
	cpu, err = procstat.CPU(pid)
	return cpu, err == nil
}
