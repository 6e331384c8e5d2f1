package host

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// mountTmpfs mounts a tmpfs of the given size on a new dir and unmounts
// it when the test ends. It skips, saying why, where mounting is not
// possible (not root, or no CAP_SYS_ADMIN).
func mountTmpfs(t *testing.T, size string) string {
	t.Helper()
	if os.Getuid() != 0 {
		t.Skip("needs root to mount a tmpfs (a full disk is a small tmpfs)")
	}
	dir := filepath.Join(t.TempDir(), "mnt")
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mount("tmpfs", dir, "tmpfs", 0, "size="+size+",mode=0700"); err != nil {
		t.Skipf("cannot mount a tmpfs here (%v): no full-disk test", err)
	}
	t.Cleanup(func() {
		if err := syscall.Unmount(dir, 0); err != nil {
			_ = syscall.Unmount(dir, syscall.MNT_DETACH) // best effort: do not leak the mount
		}
	})
	return dir
}
