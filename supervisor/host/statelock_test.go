package host

import (
	"os"
	"path/filepath"
	"testing"

	"clowder/persist"
	"clowder/supervisor/proto"
)

// TestAHostStartsWithItsRuntimeDirAsItsStateDirByAnotherPath: the state
// dir and the runtime dir the same directory, named by two paths (a
// symlink among its parents: /tmp and /private/tmp, a home through a
// link). Session 17 compared the paths' text, so this host locked
// host.lock twice, found it held by itself and never started, blaming
// "another clowder host" with its own pid.
func TestAHostStartsWithItsRuntimeDirAsItsStateDirByAnotherPath(t *testing.T) {
	th := newTestHost(t)
	base := filepath.Dir(th.paths.RuntimeDir)
	link := base + "-link"
	if err := os.Symlink(base, link); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.Remove(link) })
	if err := os.Mkdir(th.paths.RuntimeDir, 0o700); err != nil {
		t.Fatal(err)
	}
	th.paths.StateDir = filepath.Join(link, filepath.Base(th.paths.RuntimeDir))
	th.serve(persist.DefaultConfig())
	th.dial().call(&proto.HostStatusReq{})
}
