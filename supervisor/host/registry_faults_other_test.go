//go:build !linux

package host

import "testing"

// mountTmpfs skips: a full disk is a small tmpfs, mounted the Linux way.
func mountTmpfs(t *testing.T, _ string) string {
	t.Skip("a full disk is a tmpfs mount: Linux only")
	return ""
}
