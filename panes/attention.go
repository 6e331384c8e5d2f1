package panes

// This file decides a pane's attention state: whether the program in it is
// working, idle, waiting for the user, or gone. The host computes it from
// what it already has (a screen snapshot, the time since the last output,
// whether a bell or a notification arrived, whether the process exited),
// so attention works with no TUI open.
//
// An adapter's knowledge of its agent's screens is data: a list of Rules,
// each a regular expression over the bottom rows of the screen text (or
// over the text left of the cursor), tried in order; the first that
// matches decides. Order of evaluation:
//
//  1. exited process → Exited;
//  2. output within the adapter's Settle time → Working (a screen mid-redraw
//     can show anything, so it is not judged); no output at all after
//     Settle → Idle;
//  3. the adapter's rules, in order (dialogs before "esc to interrupt"
//     before the input prompt);
//  4. a bell or OSC 9/777 notification since the user last typed →
//     NeedsInput (Claude Code and others notify when they wait);
//  5. otherwise Idle: quiet, with nothing recognisably asked.

import (
	"regexp"
	"strings"
	"sync"
	"time"
	"unicode"

	"clowder/vtgrid"
)

// Attention is a pane's attention state.
type Attention uint8

// Attention states. The zero value is invalid, so an unset state is seen.
const (
	Working    Attention = iota + 1 // output is flowing, or the agent shows it is busy
	Idle                            // quiet, and nothing is asked of the user
	NeedsInput                      // the program waits for the user: a prompt, a question, a dialog
	Exited                          // the process has ended
)

var attentionNames = [...]string{Working: "working", Idle: "idle", NeedsInput: "needs-input", Exited: "exited"}

// String returns the text form ("needs-input"), or Attention(N).
func (a Attention) String() string { return enumName("Attention", attentionNames[:], int(a)) }

// MarshalText implements encoding.TextMarshaler, for `ls --json`.
func (a Attention) MarshalText() ([]byte, error) { return []byte(a.String()), nil }

// Scope is the part of the screen a rule reads.
type Scope uint8

// Scopes.
const (
	// ScopeBottom is the last Rule.Rows rows of the screen, trailing blank
	// rows dropped first, joined with "\n" (use (?m) for ^ and $).
	ScopeBottom Scope = iota + 1
	// ScopeBeforeCursor is the cursor's row left of the cursor, trailing
	// blanks dropped: where a shell prompt ends.
	ScopeBeforeCursor
)

var scopeNames = [...]string{ScopeBottom: "bottom", ScopeBeforeCursor: "before-cursor"}

// String returns the text form ("bottom").
func (s Scope) String() string { return enumName("Scope", scopeNames[:], int(s)) }

// Rule maps a pattern on the screen to an attention state.
type Rule struct {
	Name    string         // shown with the state ("claude-permission")
	State   Attention      // the state when the pattern matches
	Scope   Scope          // which text the pattern reads
	Rows    int            // for ScopeBottom: how many bottom rows
	Pattern *regexp.Regexp // matched against the scoped text
}

// Rules are an adapter's attention rules.
type Rules struct {
	// Settle is how long output must be quiet before the screen is judged.
	Settle time.Duration
	// List is tried in order; the first match decides.
	List []Rule
}

// Observation is what the host knows about a pane at one moment.
type Observation struct {
	// Screen is the pane's screen; nil means the program has printed
	// nothing yet, which is idle once Settle has passed since its start
	// ("sleep 100" is not working forever).
	Screen *vtgrid.Snapshot
	// Quiet is the time since the last output byte, or since the start
	// when there was none.
	Quiet    time.Duration
	Notified bool // a BEL or OSC 9/777 arrived since the user last gave input
	Exited   bool // the process has ended
}

// Assessment is an attention state and why.
type Assessment struct {
	State Attention
	Rule  string // the rule that decided, or "exited", "output", "notification", "quiet"
}

// Assess applies the rules to an observation.
func (r Rules) Assess(o Observation) Assessment {
	switch {
	case o.Exited:
		return Assessment{Exited, "exited"}
	case o.Quiet < r.Settle:
		return Assessment{Working, "output"}
	case o.Screen == nil:
		return Assessment{Idle, "no-output"}
	}
	text := screenText{snap: o.Screen}
	for _, rule := range r.List {
		if rule.Pattern.MatchString(text.scope(rule)) {
			return Assessment{rule.State, rule.Name}
		}
	}
	if o.Notified {
		return Assessment{NeedsInput, "notification"}
	}
	return Assessment{Idle, "quiet"}
}

// screenText extracts, once each, the texts rules read.
type screenText struct {
	snap         *vtgrid.Snapshot
	lines        []string
	beforeCursor *string
}

func (t *screenText) scope(r Rule) string {
	if r.Scope == ScopeBeforeCursor {
		if t.beforeCursor == nil {
			s := textBeforeCursor(t.snap)
			t.beforeCursor = &s
		}
		return *t.beforeCursor
	}
	if t.lines == nil {
		t.lines = trimBlankTail(strings.Split(t.snap.Text(), "\n"))
	}
	return strings.Join(t.lines[max(len(t.lines)-r.Rows, 0):], "\n")
}

// trimBlankTail drops trailing empty lines.
func trimBlankTail(lines []string) []string {
	for len(lines) > 0 && strings.TrimSpace(lines[len(lines)-1]) == "" {
		lines = lines[:len(lines)-1]
	}
	return lines
}

// textBeforeCursor is the cursor row's text left of the cursor, with
// trailing blanks dropped.
func textBeforeCursor(s *vtgrid.Snapshot) string {
	cx, cy, _ := s.Cursor()
	var b strings.Builder
	for x := 0; x < cx; x++ {
		c := s.Cell(x, cy)
		if c.Empty() {
			b.WriteByte(' ')
			continue
		}
		b.WriteString(c.Text())
	}
	return strings.TrimRightFunc(b.String(), unicode.IsSpace)
}

// Rule sets: one table per adapter, tried in order. Patterns accept
// U+00A0 wherever they accept a space: Claude Code draws its prompt as "❯"
// and a no-break space. Every rule is checked against the golden screens
// under testdata/screens/ADAPTER/, captured in tmux from the real CLIs
// (Claude Code 2.1.197, Codex CLI 0.171.0, Gemini CLI 0.61.0; see
// testdata/screens/README.md), and some against the documented layouts of
// earlier versions (the boxed "│ >" prompt of Claude Code 1.x, Codex's "▌"
// composer and "Allow command?" approval).

// escToInterrupt is the busy hint both Claude Code and Codex show while a
// turn runs ("✻ Cogitating… (esc to interrupt)", "• Working (5s • esc to
// interrupt)", and Claude Code's footer "esc to interrupt · ← for agents").
var escToInterrupt = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?i)\besc to interrupt\b`) })

// geminiBusy is Gemini CLI's busy hint, "⠼ Thinking... (esc to cancel,
// 6s)": lower case after a parenthesis, unlike its dialogs' "Press Enter to
// submit, Esc to cancel", which wait for the user.
var geminiBusy = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\(esc to cancel\b`) })

// genericPrompt matches the text before the cursor of a shell or REPL
// prompt: ending in $ > ? : # % ❯ › or a [y/N]-style choice.
var genericPrompt = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?:[$>?:#%❯›»]|\[[yYnN]/[yYnN]\]|\([yY]/[nN]\))$`)
})

// shellAsks is a question asked in a shell (by the shell or a command
// it runs), before the cursor: "[y/N]", "(yes/no)", "Password:", "rm:
// remove regular file 'x'?".
var shellAsks = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?:\[[yYnN]/[yYnN]\]|\([yY](es)?/[nN]o?\)|\?|[Pp]assword[^:]*:|[Pp]assphrase[^:]*:)$`)
})

// shellAtPrompt is a shell's own prompt before the cursor: "user@host:~$",
// "#", "%", "❯", "›", "»", ">" (continuation).
var shellAtPrompt = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`[$#%>❯›»]$`) })

// GenericRules is for commands and agents without rules of their own:
// quiet with the cursor after a prompt means needs-input.
func GenericRules() Rules {
	return Rules{Settle: 2 * time.Second, List: []Rule{
		{Name: "prompt", State: NeedsInput, Scope: ScopeBeforeCursor, Pattern: genericPrompt()},
	}}
}

// ShellRules are for companion shells: a question (from the shell or a
// command in it) needs input; the shell's own prompt is idle, because a
// shell waiting for a command asks nothing of the user, and the "needs
// input" list names only what does.
func ShellRules() Rules {
	return Rules{Settle: 2 * time.Second, List: []Rule{
		{Name: "shell-question", State: NeedsInput, Scope: ScopeBeforeCursor, Pattern: shellAsks()},
		{Name: "shell-prompt", State: Idle, Scope: ScopeBeforeCursor, Pattern: shellAtPrompt()},
	}}
}

// ClaudeRules are Claude Code's screens: selection dialogs (permission,
// trust, API key: "❯ 1. Yes"), questions ("Do you want to proceed?"), the
// busy hint, and the input prompt ("❯ " between rules, or the older
// "│ > " box).
func ClaudeRules() Rules {
	return Rules{Settle: time.Second, List: []Rule{
		{Name: "claude-dialog", State: NeedsInput, Scope: ScopeBottom, Rows: 20,
			Pattern: regexp.MustCompile(`(?m)^[\s\x{a0}│]*❯[\s\x{a0}]*\d+\.[\s\x{a0}]+\S`)},
		{Name: "claude-question", State: NeedsInput, Scope: ScopeBottom, Rows: 20,
			Pattern: regexp.MustCompile(`Do you want to [a-z]|Enter to confirm`)},
		{Name: "claude-busy", State: Working, Scope: ScopeBottom, Rows: 12, Pattern: escToInterrupt()},
		{Name: "claude-prompt", State: NeedsInput, Scope: ScopeBottom, Rows: 10,
			Pattern: regexp.MustCompile(`(?m)^(│ *)?[❯>]([\s\x{a0}]|$)`)},
	}}
}

// CodexRules are Codex CLI's screens: sign-in and approval menus ("> 1.
// Sign in with ChatGPT", "› 1. Yes, proceed", "Allow command?"), the
// API-key screen ("Press enter to save"), the busy hint, and the composer
// ("› Ask Codex to do anything", older "▌"). While it starts (its MCP
// servers and the like), a prompt submitted is kept in the composer under
// "Waiting for startup · esc cancel" and runs once it has started: the
// agent is busy, not waiting (Codex CLI 0.171.0, offline: 8 s and more).
func CodexRules() Rules {
	return Rules{Settle: time.Second, List: []Rule{
		{Name: "codex-approval", State: NeedsInput, Scope: ScopeBottom, Rows: 20,
			Pattern: regexp.MustCompile(`(?m)^[\s\x{a0}]*[›>▌][\s\x{a0}]*\d+\.[\s\x{a0}]+\S|Allow command\?|Would you like to [a-z]|Press enter to (confirm|continue|save)`)},
		{Name: "codex-busy", State: Working, Scope: ScopeBottom, Rows: 12, Pattern: escToInterrupt()},
		{Name: "codex-starting", State: Working, Scope: ScopeBottom, Rows: 6, Pattern: regexp.MustCompile(`(?m)^[\s\x{a0}]*Waiting for startup\b`)},
		{Name: "codex-prompt", State: NeedsInput, Scope: ScopeBottom, Rows: 8,
			Pattern: regexp.MustCompile(`(?m)^[\s\x{a0}]*[›▌]([\s\x{a0}]|$)`)},
	}}
}

// GeminiRules are Gemini CLI's screens: dialogs (trust folder, sign-in
// and tool confirmations: "● 1. Trust folder", "Allow execution?"; the
// API-key box: "Press Enter to submit, Esc to cancel"), the busy hint
// ("(esc to cancel, 6s)"), and the input: "> " on the row between a bar
// of ▄ and a bar of ▀ (Gemini CLI 0.61), or the older boxed "│ > ".
func GeminiRules() Rules {
	return Rules{Settle: time.Second, List: []Rule{
		{Name: "gemini-confirm", State: NeedsInput, Scope: ScopeBottom, Rows: 20,
			Pattern: regexp.MustCompile(`(?m)Allow execution|Apply this change\?|Do you want to proceed|Press Enter to submit|\(Use Enter to select\)|^[\s\x{a0}│]*●[\s\x{a0}]*\d+\.[\s\x{a0}]+\S`)},
		{Name: "gemini-busy", State: Working, Scope: ScopeBottom, Rows: 12, Pattern: geminiBusy()},
		{Name: "gemini-prompt", State: NeedsInput, Scope: ScopeBottom, Rows: 8,
			Pattern: regexp.MustCompile(`(?m)^▄+\n[\s\x{a0}]*>[\s\x{a0}].*\n▀+$|^│[\s\x{a0}]*>[\s\x{a0}]`)},
	}}
}

// AiderRules are aider's screens: its yes/no questions ("Add file to the
// chat? (Y)es/(N)o [Yes]:") and its prompt ("> ", "architect> ").
func AiderRules() Rules {
	return Rules{Settle: 2 * time.Second, List: []Rule{
		{Name: "aider-question", State: NeedsInput, Scope: ScopeBeforeCursor,
			Pattern: regexp.MustCompile(`\(Y\)es/\(N\)o.*\]:?$`)},
		{Name: "aider-prompt", State: NeedsInput, Scope: ScopeBeforeCursor,
			Pattern: regexp.MustCompile(`^[a-z-]*>$`)},
		{Name: "prompt", State: NeedsInput, Scope: ScopeBeforeCursor, Pattern: genericPrompt()},
	}}
}
