package host

import (
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"clowder/supervisor/internal/testproc"
	"clowder/supervisor/proto"
)

// claudeKeyTerminals is Claude Code 2.1.197's list of terminals it turns
// the enhanced keyboard on for (read from its bundle).
var claudeKeyTerminals = []string{"iTerm.app", "kitty", "WezTerm", "ghostty", "tmux", "windows-terminal", "WarpTerminal"}

// claudeTerminalName is how Claude Code names the terminal it runs in, in
// the order it checks the environment.
func claudeTerminalName() string {
	term := os.Getenv("TERM")
	switch {
	case term == "xterm-ghostty":
		return "ghostty"
	case strings.Contains(term, "kitty"):
		return "kitty"
	case os.Getenv("TERM_PROGRAM") != "":
		return os.Getenv("TERM_PROGRAM")
	case os.Getenv("TMUX") != "":
		return "tmux"
	}
	return ""
}

// fakeClaudeKeys follows Claude Code's start: in raw mode it asks
// XTVERSION (CSI > 0 q) with DA1 (CSI c) as the sentinel that ends the
// answers, then writes CSI < u CSI > 1 u CSI > 4;2 m if the terminal's
// name is on its list, and reports what it decided.
func fakeClaudeKeys() int {
	testproc.MakeRaw(0)
	os.Stdout.WriteString("\x1b[>0q\x1b[c")
	answers := readUntilDA1()
	name := claudeTerminalName()
	on := slices.Contains(claudeKeyTerminals, name)
	if on {
		os.Stdout.WriteString("\x1b[<u\x1b[>1u\x1b[>4;2m")
	}
	fmt.Printf("KEYS terminal=%q enhanced=%v xtversion=%v\r\n", name, on, strings.Contains(answers, "\x1bP>|"))
	return testproc.Block()
}

// readUntilDA1 reads the terminal's answers up to the DA1 reply.
func readUntilDA1() string {
	var got []byte
	b := make([]byte, 256)
	for !strings.Contains(string(got), "\x1b[?") || got[len(got)-1] != 'c' {
		n, err := os.Stdin.Read(b)
		if err != nil {
			break
		}
		got = append(got, b[:n]...)
	}
	return string(got)
}

// TestClaudeCodeTurnsOnEnhancedKeysInAPane pins issue 8: Claude Code
// turned on the kitty keyboard and modifyOtherKeys in tmux but not in a
// clowder pane, because it keys on TERM_PROGRAM and the pane had the outer
// terminal's. The client here runs in Apple's Terminal, which is not on
// Claude Code's list; the pane's keys are clowder's all the same.
func TestClaudeCodeTurnsOnEnhancedKeysInAPane(t *testing.T) {
	th := startHost(t)
	c := th.dial()
	p := th.spawnFake(c, "claude-keys", "TERM_PROGRAM=Apple_Terminal", "TERM_PROGRAM_VERSION=455")
	sub := c.send(&proto.SubscribeReq{Pane: p.ID, Screen: true})
	if _, _, err := c.await(sub); err != nil {
		t.Fatalf("subscribe: %v", err)
	}
	frames := c.screenFramesUntil(sub, "KEYS")
	last := frames[len(frames)-1]
	if text := frameText(last); !strings.Contains(text, "enhanced=true") || !strings.Contains(text, "xtversion=true") {
		t.Fatalf("the fake Claude Code decided:\n%s", text)
	}
	if m := last.Modes; m.KittyKeys != 1 || m.ModifyOtherKeys != 2 {
		t.Fatalf("pane modes kitty=%d modifyOtherKeys=%d, want 1 and 2", m.KittyKeys, m.ModifyOtherKeys)
	}
}
