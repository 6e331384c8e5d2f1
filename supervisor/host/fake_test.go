// The fake agent's modes that only these tests need, besides testproc's
// shared ones.

package host

import (
	"fmt"
	"net"
	"os"

	"clowder/supervisor/internal/testproc"
	"clowder/supervisor/proto"
)

func init() {
	testproc.RunIfFake(map[string]func() int{
		"dial":        fakeDial,          // connect to DIAL_SOCKET, print the first frame's error
		"colors":      fakeColors,        // raw mode; ask OSC 11, print the answer as "BG ...", again per key read
		"record":      fakeRecord,        // raw mode, READY, write the first FAKE_BYTES bytes read to FAKE_OUT, DONE, block
		"titles":      fakeTitles,        // FAKE_COUNT OSC 2 titles t0..tN-1, DONE, exit after one line
		"host":        fakeRealHost,      // a host on HOST_RT/HOST_STATE with RLIMIT_NOFILE HOST_NOFILE (abuse_test.go)
		"sync":        fakeSync,          // READY; per line, half a synchronized update, then its end (sync_test.go)
		"sync-stuck":  fakeSyncStuck,     // READY; on a line, begin a synchronized update and never end it
		"claude-keys": fakeClaudeKeys,    // Claude Code's keyboard decision (keys_test.go)
		"hup-immune":  fakeHupImmune,     // ignore SIGHUP, a group member ignoring SIGTERM (orphans_test.go)
		"hup-bg":      fakeHupBackground, // a job of the session ignoring SIGTERM; die of SIGHUP
		"hup-setsid":  fakeHupSetsid,     // ignore SIGHUP, a setsid grandchild, both pids to FAKE_OUT (crash_test.go)
		"argv":        fakeArgv,          // print "ARGV <args>", "CWD <dir>" and "KEEP=<$KEEP>", then block (respawn_test.go)
		"busy":        fakeBusyOnUSR1,    // READY; after SIGUSR1 a busy spinner every 50 ms (hook_test.go)
		"burst":       fakeBurst,         // raw mode, READY; on a key, FAKE_BYTES of the test stream at once, then FAKE_OUT (output_test.go)
		"rainbow":     fakeRainbow,       // raw mode; on a key, rainbowLines(FAKE_LINES), then block (abuse_test.go)
		"escrow":      fakeEscrow,        // READY; a SIGHUP is written to FAKE_OUT; "got: LINE" per line; exits 3 on "exit" (escrow_test.go)
		"ticks":       fakeTicks,         // FAKE_COUNT writes of "\rN" (a counter redrawn in place), then DONE, block (echo_test.go)
	})
}

func fakeDial() int {
	c, err := net.Dial("unix", os.Getenv("DIAL_SOCKET"))
	if err != nil {
		fmt.Println("dial:", err)
		return 1
	}
	defer c.Close()
	fr, err := proto.NewFdConn(c.(*net.UnixConn)).ReadFrame()
	if err != nil {
		fmt.Println("read:", err)
		return 1
	}
	m, err := fr.Message()
	fmt.Println(m, err)
	if e, ok := m.(*proto.ErrorReply); ok {
		fmt.Println(e.Code, e.Message)
	}
	return 0
}
