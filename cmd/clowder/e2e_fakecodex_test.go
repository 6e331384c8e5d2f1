//go:build linux

package main

// The fake codex: the test binary, run through a symlink named "codex",
// follows Codex CLI 0.171.0's contract as far as clowder relies on it. It
// takes -c notify=[...] (a TOML array of strings) and "resume ID". Each
// line it reads is a turn of its thread: it saves the thread's session
// file ($CODEX_HOME/sessions/YYYY/MM/DD/rollout-TIME-ID.jsonl), answers,
// and runs the notify program with {"type":"agent-turn-complete",
// "thread-id":ID,...} as its last argument; then, as Codex does after a
// first prompt, it ends a side thread (the task's title) under another id
// with no session file, and notifies that too. "/new" starts a new thread.

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// fakeCodexName is the symlink name that makes the test binary the fake.
const fakeCodexName = "codex"

func fakeCodex(args []string) int {
	var notify []string
	thread := ""
	for i := 0; i < len(args); i++ {
		switch {
		case args[i] == "-c" && i+1 < len(args) && strings.HasPrefix(args[i+1], "notify="):
			i++
			notify = parseTOMLStrings(strings.TrimPrefix(args[i], "notify="))
		case args[i] == "resume" && i+1 < len(args):
			i++
			thread = args[i]
		}
	}
	if thread == "" {
		thread = newUUID()
	}
	fmt.Printf("FAKE-CODEX thread=%s\n", thread)
	in := bufio.NewScanner(os.Stdin)
	for in.Scan() {
		line := strings.TrimSpace(in.Text())
		if line == "/new" {
			thread = newUUID()
		} else {
			saveCodexThread(thread)
			fmt.Printf("ANSWER %s\n", line)
			runNotify(notify, thread, line)
			runNotify(notify, newUUID(), "Generate a concise, single-line task title...\n"+line)
		}
		fmt.Printf("FAKE-CODEX thread=%s\n", thread)
	}
	return 0
}

// parseTOMLStrings reads a one-line TOML array of literal ('...') or basic
// ("...") strings.
func parseTOMLStrings(s string) []string {
	s = strings.TrimSuffix(strings.TrimPrefix(strings.TrimSpace(s), "["), "]")
	var out []string
	for len(s) > 0 {
		s = strings.TrimLeft(s, " ,")
		switch {
		case strings.HasPrefix(s, "'"):
			end := strings.IndexByte(s[1:], '\'')
			out, s = append(out, s[1:1+end]), s[2+end:]
		case strings.HasPrefix(s, `"`):
			dec := json.NewDecoder(strings.NewReader(s))
			var v string
			if dec.Decode(&v) != nil {
				return out
			}
			out, s = append(out, v), s[dec.InputOffset():]
		default:
			return out
		}
	}
	return out
}

// saveCodexThread writes the thread's session file, as Codex does once a
// turn is recorded.
func saveCodexThread(id string) {
	home := os.Getenv("CODEX_HOME")
	now := time.Now()
	dir := filepath.Join(home, "sessions", now.Format("2006"), now.Format("01"), now.Format("02"))
	_ = os.MkdirAll(dir, 0o755)
	name := "rollout-" + now.Format("2006-01-02T15-04-05") + "-" + id + ".jsonl"
	_ = os.WriteFile(filepath.Join(dir, name), []byte(`{"type":"session_meta","payload":{"id":"`+id+`"}}`+"\n"), 0o600)
}

// runNotify runs the notify program with the turn's JSON as last argument.
func runNotify(notify []string, thread, input string) {
	if len(notify) == 0 {
		return
	}
	wd, _ := os.Getwd()
	b, _ := json.Marshal(map[string]any{"type": "agent-turn-complete", "thread-id": thread, "turn-id": newUUID(),
		"cwd": wd, "client": "codex-tui", "input-messages": []string{input}, "last-assistant-message": "ok"})
	out, err := exec.Command(notify[0], append(notify[1:], string(b))...).CombinedOutput()
	if err != nil || len(out) > 0 {
		fmt.Printf("NOTIFY %q: %v %s\n", notify, err, out)
	}
}
