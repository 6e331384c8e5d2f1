//go:build linux

package main

import (
	"encoding/json"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"clowder/supervisor/proto"
)

// hostInfo is `host status --json`, ok false while no host answers.
func (e *e2eEnv) hostInfo() (proto.HostInfoReply, bool) {
	out, _, code := e.run("host", "status", "--json")
	var st proto.HostInfoReply
	return st, code == 0 && json.Unmarshal([]byte(out), &st) == nil
}

// TestE2ETUIRecoversFromHostSIGKILL proves issue 10 §1 and §5 "Host
// SIGKILLed with a TUI attached" with the real binary in real tmux: the
// TUI holds every pane's master (host status says so), the host is
// SIGKILLed, and the TUI starts a new host by itself and hands the masters
// back: the same panes and pids run, none got SIGHUP, the screens are
// intact on the new host, and typing reaches the panes again.
func TestE2ETUIRecoversFromHostSIGKILL(t *testing.T) {
	e, o := tuiEnv(t, 160, 48)
	hup := filepath.Join(e.dir, "hup")
	marker := fmt.Sprintf("mk%06d", rand.Intn(1e6))
	o.waitScreen("$")
	o.keys("-l", "trap 'echo x >> "+hup+"' HUP; echo "+marker)
	o.keys("Enter")
	o.waitCount(marker, 2) // the typed command and its output
	before := e.livePanes()
	st, ok := e.hostInfo()
	e.eventually(10*time.Second, "host status naming the TUI as escrow holder of both panes", func() bool {
		st, ok = e.hostInfo()
		return ok && len(st.Escrow) == len(before) && st.Escrow[0].Client == "clowder"
	})
	screen := o.settled()

	if err := syscall.Kill(st.Pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	e.eventually(30*time.Second, "a new host started by the TUI, running the same panes", func() bool {
		now, ok := e.hostInfo()
		return ok && now.Pid != st.Pid && samePanes(before, e.livePanes())
	})
	if !strings.Contains(e.must("capture", before[0].ID), marker) && !strings.Contains(e.must("capture", before[1].ID), marker) {
		t.Fatalf("no pane's screen on the new host shows %s", marker)
	}
	if got := o.settled(); got != screen {
		t.Fatalf("the TUI after the host's SIGKILL:\n%s\nbefore:\n%s", got, screen)
	}
	o.keys("-l", "echo again-"+marker)
	o.keys("Enter")
	o.waitCount("again-"+marker, 2)
	if b, err := os.ReadFile(hup); err == nil {
		t.Fatalf("the pane got SIGHUP (%q)", b)
	}
	now, _ := e.hostInfo()
	if holders := now.Escrow; len(holders) != len(before) || !slices.ContainsFunc(holders, func(h proto.EscrowHolder) bool { return h.Client == "clowder" }) {
		t.Fatalf("the new host's escrow holders %v; want the TUI holding every pane again", holders)
	}
}
