package throughput

import (
	"syscall"
	"time"
)

// ProcessCPU returns the user plus system CPU time this process has used,
// or 0 where getrusage fails. It counts every thread, so the garbage
// collector's work is billed to the emulator that caused it.
func ProcessCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
