package supervisor

import (
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"clowder/persist"
	"clowder/supervisor/internal/testproc"
)

// fakeSlowReader: raw mode, READY, then reads its input 4 KiB every 10 ms
// (about 400 KB/s, steady) and prints GOT N once N bytes came.
func fakeSlowReader() int {
	testproc.MakeRaw(0)
	fmt.Println("READY")
	want, got := testproc.EnvInt("FAKE_BYTES"), 0
	buf := make([]byte, 4096)
	for got < want {
		n, err := os.Stdin.Read(buf)
		if err != nil {
			return 1
		}
		got += n
		time.Sleep(10 * time.Millisecond) // the reader's own pace
	}
	fmt.Printf("GOT %d\n", got)
	return 0
}

// A program that reads a big paste steadily, only slower than the whole
// write's InputTimeout allows, had it cut: the deadline was for the whole
// write, not for the program to stop reading, so a 4 MiB paste part into
// a program reading under 840 KB/s failed after 5 s with 'the program has
// not read its input for 5s' (it had read 3.7 MB), the rest not sent, and
// the paste closed early. The deadline now runs from the last byte the
// program took.
func TestInputWriteToASteadyReaderSlowerThanTheTimeoutCompletes(t *testing.T) {
	o := newOracle(t)
	out := testproc.NewSyncBuffer()
	const size = 512 << 10 // over a second at the reader's pace
	spec := fakeSpec(o, out, "slow-reader", fmt.Sprintf("FAKE_BYTES=%d", size))
	spec.Limits.InputTimeout = 500 * time.Millisecond
	r := start(t, NewSpawner(Options{CgroupMode: persist.CgroupAuto}), spec)
	out.WaitContains(t, "READY")
	n, err := r.WriteInput([]byte(strings.Repeat("a", size)))
	if err != nil || n != size {
		t.Fatalf("WriteInput wrote %d of %d: %v", n, size, err)
	}
	out.WaitContains(t, fmt.Sprintf("GOT %d", size))
}
