package tuibench

import (
	"context"
	"os/exec"
	"strconv"
	"testing"
	"time"

	"clowder/bench/hostbench"
)

func TestSeqBytesIsSeqsOutputSize(t *testing.T) {
	for _, n := range []int{1, 9, 10, 99, 100, 12345} {
		out, err := exec.Command("seq", "1", strconv.Itoa(n)).Output()
		if err != nil {
			t.Skip("needs seq")
		}
		if got := seqBytes(n); got != int64(len(out)) {
			t.Errorf("seqBytes(%d) = %d, seq prints %d", n, got, len(out))
		}
	}
}

func TestTheUICostsMeasure(t *testing.T) {
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("needs tmux")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	bin, err := hostbench.BuildClowder(ctx, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	eb, err := ClowderEchoBytes(ctx, bin, 20)
	if err != nil || eb.Keys != 20 || eb.Bytes == 0 {
		t.Fatalf("clowder echo bytes: %+v %v", eb, err)
	}
	tb, err := TmuxEchoBytes(ctx, 20)
	if err != nil || tb.Keys != 20 || tb.Bytes == 0 {
		t.Fatalf("tmux echo bytes: %+v %v", tb, err)
	}
	wk, err := ClowderWakeups(ctx, bin, 4, 2*time.Second)
	if err != nil || wk.Over == 0 {
		t.Fatalf("clowder wake-ups: %+v %v", wk, err)
	}
	fl, err := ClowderFlood(ctx, bin, 100000)
	if err != nil || fl.Server == 0 {
		t.Fatalf("clowder flood: %+v %v", fl, err)
	}
	tf, err := TmuxFlood(ctx, 100000)
	if err != nil || tf.Server == 0 {
		t.Fatalf("tmux flood: %+v %v", tf, err)
	}
	ck, err := ControlKeys(ctx, bin, 2, 5)
	if err != nil || len(ck) != 5 {
		t.Fatalf("clowder control-mode keys: %v %v", ck, err)
	}
	tk, err := TmuxControlKeys(ctx, 2, 5)
	if err != nil || len(tk) != 5 {
		t.Fatalf("tmux control-mode keys: %v %v", tk, err)
	}
	t.Logf("echo bytes per key: clowder %.1f, tmux %.1f; clowder wake-ups in 2s: UI %d, host %d; flood 0.6MB: clowder UI %v host %v, tmux client %v server %v",
		eb.PerKey(), tb.PerKey(), wk.UI, wk.Server, fl.UI, fl.Server, tf.UI, tf.Server)
}
