//go:build linux

package main

// The fake claude: the test binary, run through a symlink named "claude"
// on the pane's PATH, follows Claude Code 2.1's contract as far as clowder
// relies on it. It takes --session-id, --resume/-r, --continue/-c and
// --settings (a file or a JSON string); it runs the settings' hooks as
// Claude Code does (each command through sh -c, the event's JSON on stdin
// with session_id, hook_event_name and the event's own fields, matchers
// on SessionStart's source and Notification's notification_type, waiting
// for each within its timeout); and a "/clear" line moves it to a new
// session id (SessionEnd with the old id, then SessionStart with source
// "clear" and the new one). Every other line is a prompt: UserPromptSubmit,
// an answer, then Stop. It never draws Claude Code's prompt, so only the
// hooks can tell clowder that it waits.

import (
	"bufio"
	"context"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"regexp"
	"strings"
	"syscall"
	"time"
)

// fakeClaudeName is the symlink name that makes the test binary the fake.
const fakeClaudeName = "claude"

// fakeClaudeLogEnv, when set, names a file the fake appends one JSON line
// to per start: its arguments and its working directory.
const fakeClaudeLogEnv = "FAKE_CLAUDE_LOG"

// claudeStart is one line of the fake's log.
type claudeStart struct {
	Args []string `json:"args"`
	Cwd  string   `json:"cwd"`
}

// Session is the id the start gave with --session-id, "" if none.
func (s claudeStart) Session() string {
	for i, a := range s.Args {
		if a == "--session-id" && i+1 < len(s.Args) {
			return s.Args[i+1]
		}
	}
	return ""
}

// fakeClaudeNoHupEnv, set, makes the fake outlive its terminal (it ignores
// SIGHUP and stays after its input ends), as an orphan does.
const fakeClaudeNoHupEnv = "FAKE_CLAUDE_NOHUP"

// claudeSettings is the part of Claude Code's settings the fake reads.
type claudeSettings struct {
	Hooks map[string][]struct {
		Matcher string `json:"matcher"`
		Hooks   []struct {
			Type    string `json:"type"`
			Command string `json:"command"`
			Timeout int    `json:"timeout"` // seconds; Claude Code's default is 60
		} `json:"hooks"`
	} `json:"hooks"`
}

// fakeClaudeState is the fake's conversation and hooks.
type fakeClaudeState struct {
	session  string
	settings claudeSettings
}

func fakeClaude(args []string) int {
	if os.Getenv(fakeClaudeNoHupEnv) != "" {
		signal.Ignore(syscall.SIGHUP)
		defer func() { // outlive the terminal, until killed
			for {
				time.Sleep(time.Hour)
			}
		}()
	}
	logStart(args)
	st := fakeClaudeState{}
	source := "startup"
	for i := 0; i < len(args); i++ {
		next := func() string {
			if i+1 < len(args) {
				i++
				return args[i]
			}
			return ""
		}
		switch args[i] {
		case "--session-id":
			st.session = next()
		case "--resume", "-r":
			st.session, source = next(), "resume"
		case "--continue", "-c":
			source = "resume"
		case "--settings":
			if err := st.load(next()); err != nil {
				fmt.Println("fake claude:", err)
				return 1
			}
		}
	}
	if st.session == "" {
		st.session = newUUID()
	}
	st.run("SessionStart", source, map[string]any{"source": source})
	return st.loop()
}

// logStart appends its start to $FAKE_CLAUDE_LOG, if set.
func logStart(args []string) {
	path := os.Getenv(fakeClaudeLogEnv)
	if path == "" {
		return
	}
	wd, _ := os.Getwd()
	b, _ := json.Marshal(claudeStart{Args: args, Cwd: wd})
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600)
	if err != nil {
		return
	}
	defer f.Close()
	_, _ = f.Write(append(b, '\n'))
}

// load reads --settings: a JSON string or a file, as Claude Code does.
func (st *fakeClaudeState) load(arg string) error {
	b := []byte(arg)
	if !strings.HasPrefix(strings.TrimSpace(arg), "{") {
		var err error
		if b, err = os.ReadFile(arg); err != nil {
			return fmt.Errorf("--settings: %w", err)
		}
	}
	return json.Unmarshal(b, &st.settings)
}

// loop reads prompts and commands until stdin ends; "exit" ends it at
// once, as a process that dies would.
func (st *fakeClaudeState) loop() int {
	fmt.Printf("CLAUDE READY %s\n", strings.Join(os.Args[1:], " "))
	fmt.Printf("FAKE-CLAUDE session=%s\n", st.session)
	in := bufio.NewScanner(os.Stdin)
	for in.Scan() {
		switch line := strings.TrimSpace(in.Text()); line {
		case "/clear":
			st.run("SessionEnd", "", map[string]any{"reason": "clear"})
			st.session = newUUID()
			st.run("SessionStart", "clear", map[string]any{"source": "clear"})
		case "/notify":
			st.run("Notification", "permission_prompt", map[string]any{"notification_type": "permission_prompt", "message": "Claude needs your permission"})
		case "exit":
			return 0
		case "/exit":
			st.run("SessionEnd", "", map[string]any{"reason": "prompt_input_exit"})
			return 0
		default:
			st.run("UserPromptSubmit", "", map[string]any{"prompt": line})
			fmt.Printf("ANSWER %s\n", line)
			st.run("Stop", "", map[string]any{"stop_hook_active": false})
		}
		fmt.Printf("FAKE-CLAUDE session=%s\n", st.session)
	}
	return 0
}

// run runs the hooks of event whose matcher matches on, one after the
// other, each with the event's JSON on stdin.
func (st *fakeClaudeState) run(event, on string, fields map[string]any) {
	wd, _ := os.Getwd()
	fields["session_id"], fields["hook_event_name"], fields["cwd"] = st.session, event, wd
	fields["transcript_path"] = "/nonexistent/" + st.session + ".jsonl"
	payload, _ := json.Marshal(fields)
	for _, m := range st.settings.Hooks[event] {
		if m.Matcher != "" && m.Matcher != "*" && !regexp.MustCompile("^(?:"+m.Matcher+")$").MatchString(on) {
			continue
		}
		for _, h := range m.Hooks {
			if h.Type == "command" {
				runHookCommand(h.Command, h.Timeout, payload, wd)
			}
		}
	}
}

// runHookCommand runs one hook command as Claude Code does; what it
// prints on stderr shows on the screen, for a failing test to see.
func runHookCommand(command string, timeout int, payload []byte, wd string) {
	if timeout <= 0 {
		timeout = 60
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Duration(timeout)*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, "/bin/sh", "-c", command)
	cmd.Stdin = strings.NewReader(string(payload))
	cmd.Env = append(os.Environ(), "CLAUDE_PROJECT_DIR="+wd)
	out, err := cmd.CombinedOutput()
	if err != nil || len(out) > 0 {
		fmt.Printf("HOOK %q: %v %s\n", command, err, out)
	}
}

// newUUID is a random version 4 UUID.
func newUUID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}
