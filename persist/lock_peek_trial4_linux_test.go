package persist

import (
	"strings"
	"testing"
)

// TestFlockOnFindsTheRecordedHolderWhereStatsDeviceDiffers pins a trial-4
// fault: on btrfs (and overlayfs over several filesystems) stat's st_dev
// is not the superblock's device that /proc/locks prints (lsof's LTlock
// fails there the same way), so a held host lock was never seen: ls took
// a host of another runtime dir for none, and a client whose host's
// socket was removed was told no host runs. The line's inode and the pid
// the lock file records identify it there.
func TestFlockOnFindsTheRecordedHolderWhereStatsDeviceDiffers(t *testing.T) {
	line := strings.Fields("3: FLOCK  ADVISORY  WRITE 4242 00:31:5678 0 EOF")
	const statDev = 0x35 // 0:53 from stat, 0:49 in /proc/locks
	if pid, ok := flockOn(line, statDev, ":5678", 4242); !ok || pid != 4242 {
		t.Errorf("the recorded holder on another device number: pid %d held %v; want 4242 held", pid, ok)
	}
	if _, ok := flockOn(line, statDev, ":5678", 999); ok {
		t.Error("a lock of another pid on another device taken for ours")
	}
	if _, ok := flockOn(line, statDev, ":1234", 4242); ok {
		t.Error("a lock on another inode taken for ours")
	}
	if pid, ok := flockOn(line, 0x31, ":5678", 0); !ok || pid != 4242 {
		t.Errorf("the same device: pid %d held %v; want 4242 held", pid, ok)
	}
	if _, ok := flockOn(strings.Fields("3: FLOCK  ADVISORY  READ 4242 00:31:5678 0 EOF"), statDev, ":5678", 4242); ok {
		t.Error("a shared lock taken for a held host lock")
	}
}
