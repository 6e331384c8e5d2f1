// The fake Claude Code: a prompt that keeps the input contract of the real
// one (Claude Code 2.1.197, measured for issue 11 §3; see panes/adapter.go,
// claudeSubmitGap and claudeFirstSubmitWait), so host and CLI tests of
// submit run against the same behaviour clowder must cope with:
//
//   - it turns on bracketed paste, starts up for FAKE_BOOT_MS without
//     reading, then draws its prompt ("❯ " between two rules);
//   - each read is handled FAKE_LAG_MS after it arrives (a busy event
//     loop's latency);
//   - a paste goes into the prompt line; an Enter read in the same read as
//     the paste is lost (the text stays in the prompt);
//   - an Enter within FAKE_DEAF_MS after the prompt first showed is lost,
//     and so are the first FAKE_DROP_ENTERS Enters (offline and under load
//     the real one dropped a first Enter even later);
//   - an Enter taken clears the prompt, moves the text above it
//     ("❯ TEXT"), waits FAKE_REACT_MS drawing nothing (the quiet moment
//     before the agent reacts), shows "✻ Working… (esc to interrupt)" for
//     FAKE_BUSY_MS, then "⎿  got: TEXT" and the prompt again.

package testproc

import (
	"fmt"
	"os"
	"strings"
	"time"
)

// fakeClaude is the state of the fake Claude Code.
type fakeClaude struct {
	input      string   // the prompt line
	transcript []string // lines above the prompt
	shownAt    time.Time
	deaf       time.Duration
	drop       int // Enters still to lose
	inPaste    bool
}

func fakeClaudePrompt() int {
	MakeRaw(0)
	fmt.Print("\x1b[?2004h")
	time.Sleep(time.Duration(EnvInt("FAKE_BOOT_MS")) * time.Millisecond) // the start-up a real CLI takes, input unread
	c := &fakeClaude{deaf: time.Duration(EnvInt("FAKE_DEAF_MS")) * time.Millisecond, drop: EnvInt("FAKE_DROP_ENTERS")}
	c.draw("")
	c.shownAt = time.Now()
	lag := time.Duration(EnvInt("FAKE_LAG_MS")) * time.Millisecond
	buf := make([]byte, 4096)
	for {
		n, err := os.Stdin.Read(buf)
		if err != nil {
			return 0
		}
		time.Sleep(lag)
		c.read(string(buf[:n]))
	}
}

// read handles one read of input, as Claude Code's input loop does.
func (c *fakeClaude) read(s string) {
	pasted := false
	for len(s) > 0 {
		switch {
		case strings.HasPrefix(s, "\x1b[200~"):
			c.inPaste, pasted, s = true, true, s[len("\x1b[200~"):]
		case strings.HasPrefix(s, "\x1b[201~"):
			c.inPaste, s = false, s[len("\x1b[201~"):]
		case s[0] == '\r' && !c.inPaste:
			s = s[1:]
			c.enter(pasted)
		default:
			c.input += s[:1]
			s = s[1:]
		}
	}
	c.draw("")
}

// enter is an Enter key: lost in the paste's read, in the deaf window
// and while Enters are still to drop, else a submission.
func (c *fakeClaude) enter(pasted bool) {
	switch {
	case pasted || time.Since(c.shownAt) < c.deaf:
	case c.drop > 0:
		c.drop--
	default:
		c.submit()
	}
}

// submit takes the prompt line as a turn.
func (c *fakeClaude) submit() {
	text := c.input
	c.input = ""
	c.transcript = append(c.transcript, "❯ "+text)
	c.draw("")
	time.Sleep(time.Duration(EnvInt("FAKE_REACT_MS")) * time.Millisecond)
	c.draw("✻ Working… (esc to interrupt)")
	time.Sleep(time.Duration(EnvInt("FAKE_BUSY_MS")) * time.Millisecond)
	c.transcript = append(c.transcript, "  ⎿  got: "+text)
}

// draw redraws the whole screen: transcript, an optional busy line, the
// prompt between rules, and the cursor after the input.
func (c *fakeClaude) draw(busy string) {
	var b strings.Builder
	b.WriteString("\x1b[H\x1b[2J")
	for _, l := range c.transcript {
		b.WriteString(l + "\r\n")
	}
	if busy != "" {
		b.WriteString(busy + "\r\n")
	}
	rule := strings.Repeat("─", 40)
	b.WriteString(rule + "\r\n\r\n" + rule + "\r\n  ? for shortcuts\x1b[2A\r❯ " + c.input)
	os.Stdout.WriteString(b.String())
}
