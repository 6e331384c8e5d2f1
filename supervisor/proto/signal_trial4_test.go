package proto

import (
	"strings"
	"syscall"
	"testing"
)

// TestParseSignalTakesOnlyAWholeNumber pins a trial-4 bug: a number was
// read with Sscanf, which stops at the first non-digit, so `clowder kill
// p1 --signal 1e3` sent SIGHUP and "15x" SIGTERM, where the user meant
// something else; and 0 or 99 were refused with "or a number".
func TestParseSignalTakesOnlyAWholeNumber(t *testing.T) {
	for _, s := range []string{"1e3", "15x", "9 ", " 9", "0x9", "0", "65", "-9"} {
		if sig, err := ParseSignal(s); err == nil {
			t.Errorf("ParseSignal(%q) = %v, want an error", s, sig)
		} else if !strings.Contains(err.Error(), "1 to 64") {
			t.Errorf("ParseSignal(%q): %v, want it to name the numbers taken", s, err)
		}
	}
	for s, want := range map[string]syscall.Signal{"9": syscall.SIGKILL, "15": syscall.SIGTERM, "64": 64, "term": syscall.SIGTERM} {
		if sig, err := ParseSignal(s); err != nil || sig != want {
			t.Errorf("ParseSignal(%q) = %v, %v; want %v", s, sig, err, want)
		}
	}
}
