package panes

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"clowder/vtgrid"
)

// cursorMark in a picture is where the cursor is; it is not drawn.
const cursorMark = "⌶"

// screen draws a picture (rows separated by newlines; "⌶" marks the
// cursor, else it ends after the last row's text) on a terminal of the
// given width and returns its snapshot.
func screen(t *testing.T, cols int, picture string) *vtgrid.Snapshot {
	t.Helper()
	lines := strings.Split(strings.TrimPrefix(picture, "\n"), "\n")
	term := vtgrid.New(cols, max(len(lines), 5), vtgrid.Options{})
	cx, cy := -1, -1
	for y, line := range lines {
		if i := strings.Index(line, cursorMark); i >= 0 {
			cx, cy = len([]rune(line[:i])), y
			line = strings.Replace(line, cursorMark, "", 1)
		}
		fmt.Fprintf(term, "\x1b[%d;1H%s", y+1, line)
	}
	if cy >= 0 {
		fmt.Fprintf(term, "\x1b[%d;%dH", cy+1, cx+1)
	}
	return term.Snapshot()
}

// Pictures of real screens. The Claude Code and Codex ones were captured
// in tmux from Claude Code 2.1.197 and Codex CLI 0.171.0 (narrowed to 80
// columns); the older-version and dialog ones follow those programs'
// documented layouts. Note the no-break space after Claude Code's "❯".
const (
	claudePrompt = `
╭─── Claude Code v2.1.197 ──────────────────────────────────────────────────────╮
│                 Welcome back!                 │ Tips for getting started      │
│   Opus 4.8 (1M context) · API Usage Billing   │                               │
│              /tmp/agentcli/proj               │                               │
╰───────────────────────────────────────────────────────────────────────────────╯


────────────────────────────────────────────────────────────────────────────────
❯` + "\u00a0" + cursorMark + `
────────────────────────────────────────────────────────────────────────────────
  ? for shortcuts · ← for agents                      Not logged in · Run /login
                                                              ● high · /effort`

	claudeAfterTurn = `
❯ hello
  what is 2+2
  ⎿  Not logged in · Please run /login

✻ Cogitated for 1s

────────────────────────────────────────────────────────────────────────────────
❯` + "\u00a0" + cursorMark + `
────────────────────────────────────────────────────────────────────────────────
  ? for shortcuts · ← for agents
                                                      Not logged in · Run /login`

	claudeWorking = `
❯ refactor the parser

● I'll start by reading the parser.

● Read(vtgrid/parser.go)
  ⎿  Read 412 lines

✶ Sautéing… (12s · ↑ 1.2k tokens · esc to interrupt)

────────────────────────────────────────────────────────────────────────────────
❯` + "\u00a0" + cursorMark + `
────────────────────────────────────────────────────────────────────────────────
  ? for shortcuts`

	claudeTrust = `
────────────────────────────────────────────────────────────────────────────────
 Accessing workspace:
 /tmp/agentcli/proj
 Quick safety check: Is this a project you created or one you trust? (Like your
 own code, a well-known open source project, or work from your team).
 Claude Code'll be able to read, edit, and execute files here.
 Security guide
 ❯ 1. Yes, I trust this folder
   2. No, exit
 Enter to confirm · Esc to cancel`

	claudePermission = `
● Bash(rm -rf build)
  ⎿  Running…

────────────────────────────────────────────────────────────────────────────────
 Bash command

   rm -rf build
   Remove the build directory

 Do you want to proceed?
 ❯ 1. Yes
   2. Yes, and don't ask again for rm commands in /home/u/src/app
   3. No, and tell Claude what to do differently (esc)`

	claudeAPIKeyChoice = `
────────────────────────────────────────────────────────────────────────────────
  Detected a custom API key in your environment
  ANTHROPIC_API_KEY: sk-ant-...-test-key-0000000000
  Do you want to use this API key?
    1. Yes
  ❯ 2. No (recommended)
  Enter to confirm · Esc to cancel`

	claudeOldBox = `
> fix the tests

● Done. All tests pass.

╭──────────────────────────────────────────────────────────────────────────────╮
│ > ` + cursorMark + `                                                                           │
╰──────────────────────────────────────────────────────────────────────────────╯
  ? for shortcuts`

	claudeStreaming = `
● Here is the plan:
  1. Read the parser
  2. Split the state table`

	codexComposer = `
  >_ OpenAI Codex (v0.171.0)
     /tmp/agentcli/proj

› ` + cursorMark + `Ask Codex to do anything
  GPT-6.2-Sol default · /tmp/agentcli/proj
  ← for agents · ? for shortcuts                       ⚠ 1 warning · f2 to view`

	codexWorking = `
› hello
  kitty

• Reconnecting... 5/5 (6s • esc to interrupt)
  └ Stream disconnected before completion: failed to lookup address information

› ` + cursorMark + `Ask Codex to do anything
  GPT-6.2-Sol default · /tmp/agentcli/proj · hello kitty
  ← for agents · ? for shortcuts                       ⚠ 1 warning · f2 to view`

	codexTrust = `
  Folder access
  /tmp/agentcli/proj

  Trust this folder? Codex can read, edit, and run files here, subject to your
  permission settings.

› 1. Trust and continue
  2. Back to Agent Command Center

  enter continue · esc back`

	codexSignIn = `
  Welcome to Codex, OpenAI's command-line coding agent

  Choose how you want to use Codex.

> 1. Sign in with ChatGPT
     Usage included with Plus, Pro, Business, and Enterprise plans
  2. Sign in with Device Code
     Sign in from another device with a one-time code

  Press enter to continue`

	codexApproval = `
• Ran cargo test
  └ test result: ok. 12 passed

  Would you like to run the following command?

  $ rm -rf target

› 1. Yes, proceed (y)
  2. Yes, and don't ask again for this command (a)
  3. No, and tell Codex what to do differently (esc)

  Press enter to confirm or esc to cancel`

	codexOldApproval = `
▌ Allow command?
▌
▌ $ npm install
▌
▌ Yes (y)   No (n)`

	codexOldComposer = `
codex
Done: updated 3 files.

▌ ` + cursorMark + `
 ⏎ send   Shift+⏎ newline   Ctrl+C quit`

	geminiPrompt = `
 Using: 1 GEMINI.md file
╭──────────────────────────────────────────────────────────────────────────────╮
│ >   Type your message or @path/to/file                                       │
╰──────────────────────────────────────────────────────────────────────────────╯
~/src/app (main*)        no sandbox (see /docs)          gemini-2.5-pro (99% context left)`

	geminiConfirm = `
╭──────────────────────────────────────────────────────────────────────────────╮
│ ?  Shell rm -rf build                                                        │
│                                                                              │
│ Allow execution of: 'rm'?                                                    │
│                                                                              │
│ ● 1. Yes, allow once                                                         │
│   2. Yes, allow always ...                                                   │
│   3. No, suggest changes (esc)                                               │
╰──────────────────────────────────────────────────────────────────────────────╯`

	geminiWorking = `
╭──────────────────────────────────────────────────────────────────────────────╮
│ ✓  ReadFile src/main.go                                                      │
╰──────────────────────────────────────────────────────────────────────────────╯
⠏ Reading the module layout (esc to cancel, 8s)
╭──────────────────────────────────────────────────────────────────────────────╮
│ >   Type your message or @path/to/file                                       │
╰──────────────────────────────────────────────────────────────────────────────╯`

	aiderPrompt = `
Aider v0.86.1
Main model: sonnet with diff edit format
Git repo: .git with 120 files
────────────────────────────────────────────────────────────────────────────────
> ` + cursorMark

	aiderQuestion = `
src/app.py
Add file to the chat? (Y)es/(N)o/(D)on't ask again [Yes]: ` + cursorMark

	aiderArchitect = `
────────────────────────────────────────────────────────────────────────────────
architect> ` + cursorMark

	shellPrompt = `
u@box:~/src/app$ ls
Makefile  README.md  go.mod  main.go
u@box:~/src/app$ ` + cursorMark

	shellRootPrompt = `
root@box:/# ` + cursorMark

	shellBusy = `
u@box:~/src/app$ make test
go test ./...
ok      app/parser      0.412s
` + cursorMark

	shellTypedCommand = `
u@box:~/src/app$ git status` + cursorMark

	pythonREPL = `
Python 3.11.7 (main, Jan  1 2024, 00:00:00) [GCC 12.2.0] on linux
Type "help", "copyright", "credits" or "license" for more information.
>>> ` + cursorMark

	passwordPrompt = `
$ sudo apt-get update
[sudo] password for u: ` + cursorMark

	confirmPrompt = `
This will delete 3 branches.
Continue? [y/N] ` + cursorMark
)

func TestAttentionPictures(t *testing.T) {
	ads := NewAdapters(nil, "/bin/bash")
	quiet := 5 * time.Second
	tests := []struct {
		name     string
		adapter  string
		picture  string
		quiet    time.Duration
		notified bool
		exited   bool
		want     Attention
		rule     string
	}{
		{"claude prompt waits for the user", "claude", claudePrompt, quiet, false, false, NeedsInput, "claude-prompt"},
		{"claude prompt after a turn", "claude", claudeAfterTurn, quiet, false, false, NeedsInput, "claude-prompt"},
		{"claude busy hint wins over its prompt", "claude", claudeWorking, quiet, false, false, Working, "claude-busy"},
		{"claude trust dialog", "claude", claudeTrust, quiet, false, false, NeedsInput, "claude-dialog"},
		{"claude permission dialog", "claude", claudePermission, quiet, false, false, NeedsInput, "claude-dialog"},
		{"claude choice with cursor on 2", "claude", claudeAPIKeyChoice, quiet, false, false, NeedsInput, "claude-dialog"},
		{"claude 1.x boxed prompt", "claude", claudeOldBox, quiet, false, false, NeedsInput, "claude-prompt"},
		{"claude output still flowing", "claude", claudePrompt, 200 * time.Millisecond, false, false, Working, "output"},
		{"claude quiet mid-answer is idle", "claude", claudeStreaming, quiet, false, false, Idle, "quiet"},
		{"claude bell on an unknown screen", "claude", claudeStreaming, quiet, true, false, NeedsInput, "notification"},
		{"claude exited", "claude", claudePrompt, quiet, false, true, Exited, "exited"},
		{"codex composer", "codex", codexComposer, quiet, false, false, NeedsInput, "codex-prompt"},
		{"codex busy with composer shown", "codex", codexWorking, quiet, false, false, Working, "codex-busy"},
		{"codex trust dialog", "codex", codexTrust, quiet, false, false, NeedsInput, "codex-approval"},
		{"codex sign-in menu", "codex", codexSignIn, quiet, false, false, NeedsInput, "codex-approval"},
		{"codex command approval", "codex", codexApproval, quiet, false, false, NeedsInput, "codex-approval"},
		{"codex old approval", "codex", codexOldApproval, quiet, false, false, NeedsInput, "codex-approval"},
		{"codex old composer", "codex", codexOldComposer, quiet, false, false, NeedsInput, "codex-prompt"},
		{"gemini prompt", "gemini", geminiPrompt, quiet, false, false, NeedsInput, "gemini-prompt"},
		{"gemini confirmation", "gemini", geminiConfirm, quiet, false, false, NeedsInput, "gemini-confirm"},
		{"gemini busy", "gemini", geminiWorking, quiet, false, false, Working, "gemini-busy"},
		{"aider prompt", "aider", aiderPrompt, quiet, false, false, NeedsInput, "aider-prompt"},
		{"aider question", "aider", aiderQuestion, quiet, false, false, NeedsInput, "aider-question"},
		{"aider architect prompt", "aider", aiderArchitect, quiet, false, false, NeedsInput, "aider-prompt"},
		// A shell at its prompt asks nothing: idle, not "needs input" (issue 11 §4).
		{"shell prompt", "shell", shellPrompt, quiet, false, false, Idle, "shell-prompt"},
		{"root prompt", "shell", shellRootPrompt, quiet, false, false, Idle, "shell-prompt"},
		{"password asked in a shell", "shell", passwordPrompt, quiet, false, false, NeedsInput, "shell-question"},
		{"y/N asked in a shell", "shell", confirmPrompt, quiet, false, false, NeedsInput, "shell-question"},
		{"shell prompt while output flows", "shell", shellPrompt, time.Second, false, false, Working, "output"},
		{"shell running a quiet command", "shell", shellBusy, quiet, false, false, Idle, "quiet"},
		{"shell with a typed command is not waiting", "shell", shellTypedCommand, quiet, false, false, Idle, "quiet"},
		{"python REPL", "command", pythonREPL, quiet, false, false, NeedsInput, "prompt"},
		{"password prompt", "command", passwordPrompt, quiet, false, false, NeedsInput, "prompt"},
		{"y/N question", "command", confirmPrompt, quiet, false, false, NeedsInput, "prompt"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a, err := ads.Get(tt.adapter)
			if err != nil {
				t.Fatal(err)
			}
			obs := Observation{Screen: screen(t, 100, tt.picture), Quiet: tt.quiet, Notified: tt.notified, Exited: tt.exited}
			got := a.Rules.Assess(obs)
			if got.State != tt.want || got.Rule != tt.rule {
				t.Errorf("Assess = %s (%s), want %s (%s)\nscreen:\n%s", got.State, got.Rule, tt.want, tt.rule, obs.Screen.Text())
			}
		})
	}
}

func TestAttentionStrings(t *testing.T) {
	tests := map[Attention]string{Working: "working", Idle: "idle", NeedsInput: "needs-input", Exited: "exited", 0: "Attention(0)"}
	for a, want := range tests {
		if a.String() != want {
			t.Errorf("%d.String() = %q, want %q", a, a.String(), want)
		}
	}
	if b, _ := NeedsInput.MarshalText(); string(b) != "needs-input" {
		t.Errorf("MarshalText = %q", b)
	}
	if ScopeBottom.String() != "bottom" || ScopeBeforeCursor.String() != "before-cursor" {
		t.Error("scope names are wrong")
	}
}

// TestAssessNoOutputYet pins issue 11 §4: a pane whose program has printed
// nothing ("new -- sleep 100") is working only for the settle time, then
// idle, not working forever.
func TestAssessNoOutputYet(t *testing.T) {
	for _, name := range []string{"command", "shell", "claude", "gemini"} {
		a, err := NewAdapters(nil, "").Get(name)
		if err != nil {
			t.Fatal(err)
		}
		if got := a.Rules.Assess(Observation{Quiet: 0}); got.State != Working {
			t.Errorf("%s at start: %s (%s), want working", name, got.State, got.Rule)
		}
		got := a.Rules.Assess(Observation{Quiet: a.Rules.Settle})
		if got.State != Idle || got.Rule != "no-output" {
			t.Errorf("%s silent for its settle time: %s (%s), want idle (no-output)", name, got.State, got.Rule)
		}
	}
}
