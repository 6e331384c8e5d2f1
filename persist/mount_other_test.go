//go:build !linux

package persist

import "testing"

// mountTmpfs needs Linux mount(2); elsewhere the tests that use it skip.
func mountTmpfs(t *testing.T, size string) string {
	t.Helper()
	t.Skip("tmpfs mounts are only used on Linux")
	return ""
}

// remountReadOnly needs Linux mount(2).
func remountReadOnly(t *testing.T, dir string) {
	t.Helper()
	t.Skip("read-only remounts are only used on Linux")
}
