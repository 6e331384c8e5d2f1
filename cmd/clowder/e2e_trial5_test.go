//go:build linux

package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// loopCLI runs clowder args n times, one after the other, and reports
// each run that did not exit 0 with want in its output, or that wrote
// to stderr: an ls that found no host answering prints, with exit 0, the
// panes agents.json records (p1 too), and says so on stderr only.
func (e *e2eEnv) loopCLI(n int, want string, args ...string) []string {
	var bad []string
	for i := 0; i < n; i++ {
		out, errb, err := e.runOnAnyGoroutine(args...)
		if err != nil || !strings.Contains(out, want) || errb != "" {
			bad = append(bad, fmt.Sprintf("%v run %d: %v: stdout %q stderr %q", args, i, err, out, errb))
		}
	}
	return bad
}

// runOnAnyGoroutine runs clowder args to completion (60 s at most) and
// returns its output and error; unlike run, it may be called from a
// goroutine other than the test's, as it never fails the test itself.
func (e *e2eEnv) runOnAnyGoroutine(args ...string) (stdout, stderr string, err error) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := e.command(ctx, args...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err = cmd.Run()
	return out.String(), errb.String(), err
}

// ls and capture, which write their request with the hello, run in a loop
// while the host upgrades in place ten times: every one answers, with
// the pane and its screen.
func TestE2ELsAndCaptureInALoopAcrossHostUpgrades(t *testing.T) {
	e := newE2E(t)
	id := strings.TrimSpace(e.must("new", "--", "sh", "-c", "echo trial5-mark; exec cat"))
	e.eventually(30*time.Second, "the pane's output", func() bool {
		out, _, _ := e.run("capture", id)
		return strings.Contains(out, "trial5-mark")
	})
	stop := make(chan struct{})
	var mu sync.Mutex
	var bad []string
	runs := 0
	var wg sync.WaitGroup
	loop := func(want string, args ...string) {
		defer wg.Done()
		for {
			select {
			case <-stop:
				return
			default:
			}
			b := e.loopCLI(5, want, args...)
			mu.Lock()
			bad = append(bad, b...)
			runs += 5
			mu.Unlock()
		}
	}
	wg.Add(3)
	go loop(id, "ls")
	go loop("trial5-mark", "capture", id)
	go loop(id, "ls", "--json")
	for i := 0; i < 10; i++ {
		e.must("host", "upgrade")
	}
	close(stop)
	wg.Wait()
	t.Logf("%d commands across 10 upgrades", runs)
	for _, b := range bad {
		t.Error(b)
	}
}

// ls and capture, which write their request with the hello, run in a loop
// while the host stops: each answers or says in one line that no host
// runs; none hangs (60 s) or prints a transport's error.
func TestE2ELsAndCaptureInALoopAcrossHostStop(t *testing.T) {
	e := newE2E(t)
	id := strings.TrimSpace(e.must("new", "--", "sh", "-c", "echo trial5-mark; exec cat"))
	e.eventually(30*time.Second, "the pane's output", func() bool {
		out, _, _ := e.run("capture", id)
		return strings.Contains(out, "trial5-mark")
	})
	var wg sync.WaitGroup
	cmds := [][]string{{"ls"}, {"capture", id}, {"ls", "--json"}, {"capture", id}}
	outs := make([][]string, len(cmds))
	ran := make(chan struct{}, len(cmds))
	for i, args := range cmds {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for n := 0; n < 40; n++ {
				if n == 3 {
					ran <- struct{}{}
				}
				_, errb, err := e.runOnAnyGoroutine(args...)
				if err != nil && !cleanRefusal(errb) {
					outs[i] = append(outs[i], fmt.Sprintf("%v: %v: %q", args, err, errb))
				}
			}
		}()
	}
	for range cmds {
		<-ran
	}
	e.must("host", "stop", "--force")
	wg.Wait()
	for _, o := range outs {
		for _, s := range o {
			t.Error(s)
		}
	}
}

// cleanRefusal reports whether a command's error output is one line
// saying no host runs, not a transport's error.
func cleanRefusal(stderr string) bool {
	for _, raw := range []string{"EOF", "broken pipe", "reset by peer", "panic"} {
		if strings.Contains(stderr, raw) {
			return false
		}
	}
	return strings.Count(stderr, "\n") == 1 && strings.Contains(stderr, "no clowder host is running")
}

// A bracketed paste of 1 MiB, escape sequences and UTF-8 in it, pasted by
// a real tmux into the TUI (which reads it in the terminal's reads and
// decodes it on its reading goroutine) reaches the focused pane whole,
// bracketed once.
func TestE2ETUIPastesAMebibyteWhole(t *testing.T) {
	e := newE2E(t)
	e.env = append(e.env, "SHELL=/bin/sh", "PS1=$ ")
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cfg := fmt.Sprintf("[tui]\ndefault_adapter = \"pastes\"\n[agents.pastes]\ncommand = [\"env\", %q, %q]\n", fakePasteEnv+"=1", self)
	if err := os.WriteFile(filepath.Join(e.dir, "config.toml"), []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	o := startTmux(t, e, 160, 48)
	o.waitScreen("PASTE-READY")
	o.keys("C-Space", "1") // the pane that reads the paste
	line := "text é 漢字\ttab \x1b[A up \x1bOP f1 "
	body := strings.Repeat(line, (1<<20)/len(line))
	file := filepath.Join(e.dir, "paste.txt")
	if err := os.WriteFile(file, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	o.run("load-buffer", file)
	o.run("paste-buffer", "-p", "-t", "0")
	want := fmt.Sprintf("PASTED %x %d", sha256.Sum256([]byte(body)), len(body))
	defer func() {
		if t.Failed() {
			t.Logf("screen:\n%s", o.screen())
		}
	}()
	e.eventually(120*time.Second, "the paste in a pane", func() bool {
		for _, p := range e.panes() { // it exits once it has the paste
			if out, _, _ := e.run("capture", p.ID); strings.Contains(out, "PASTED") || strings.Contains(out, "BAD") {
				if !strings.Contains(out, want) {
					t.Fatalf("pane %s got another paste:\n%s\nwant %s", p.ID, out, want)
				}
				return true
			}
		}
		return false
	})
}
