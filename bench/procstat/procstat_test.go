package procstat

import (
	"testing"
	"time"
)

func TestStatCPUCountsFieldsAfterTheCommandName(t *testing.T) {
	// A real line from tmux 3.3a; its comm holds a space and a parenthesis
	// would be legal too.
	line := "4242 (tmux: server) S 1 4242 4242 0 -1 4194624 1045 0 0 0 250 143 0 0 20 0 1 0 5306 9461760 1037 18446744073709551615\n"
	if got, ok := parseCPU([]byte(line)); !ok || got != 3930*time.Millisecond {
		t.Errorf("parseCPU = %v, %v; want 3.93s, true", got, ok)
	}
	if got, ok := parseCPU([]byte("garbage")); ok {
		t.Errorf("parseCPU(garbage) = %v, true; want not ok", got)
	}
}
