package tui

// This file is the prompt component: the one-line question over the
// status bar, a yes/no confirmation or a line of text. Like a bubbles
// component it has its own model, Update and View, and knows nothing of
// the root Model: what to do with the answer stays with the root
// (prompts.go), which hands keys to Update and acts on the promptDoneMsg
// that ends the prompt.
//
// The text is edited by grapheme cluster (an emoji with a skin-tone
// modifier is one step of the cursor), and View places the cursor by
// display width, the width putText draws with, so it lines up after wide
// characters.

import (
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/rivo/uniseg"
)

// promptKind is what a prompt asks for.
type promptKind uint8

const (
	promptConfirm promptKind = iota // y answers yes, any other key no
	promptText                      // a line of text, Enter submits
)

var promptKindNames = [...]string{"confirm", "text"}

// String names the kind.
func (k promptKind) String() string {
	if int(k) < len(promptKindNames) {
		return promptKindNames[k]
	}
	return fmt.Sprintf("promptKind(%d)", uint8(k))
}

// prompt is an open question. The zero value is not useful: build one
// with newConfirm or newAsk.
type prompt struct {
	kind  promptKind
	label string
	text  string // the answer so far
	pos   int    // the cursor: a byte offset into text, on a grapheme boundary
}

// promptDoneMsg ends a prompt: ok is true for a yes or a submitted line
// (answer, trimmed), false for a no or a cancel. The root receives it from
// Update in the same key press, not through a Cmd, so a key typed right
// after finds the prompt closed (or the next one open).
type promptDoneMsg struct {
	answer string
	ok     bool
}

// newConfirm is a yes/no question.
func newConfirm(label string) prompt { return prompt{kind: promptConfirm, label: label} }

// newAsk asks for a line of text, starting with initial, the cursor at its end.
func newAsk(label, initial string) prompt {
	return prompt{kind: promptText, label: label, text: initial, pos: len(initial)}
}

// Update handles a key press and returns the prompt as it now is and, when
// the key ended it, a promptDoneMsg (else nil). Other messages change nothing.
func (p prompt) Update(msg tea.Msg) (prompt, tea.Msg) {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return p, nil
	}
	if p.kind == promptConfirm {
		s := k.String()
		return p, promptDoneMsg{answer: s, ok: s == "y" || s == "Y"}
	}
	switch k.String() {
	case "enter":
		return p, promptDoneMsg{answer: strings.TrimSpace(p.text), ok: true}
	case "esc", "ctrl+c", "ctrl+g":
		return p, promptDoneMsg{}
	}
	return p.edit(k), nil
}

// edit applies an editing key to the input line.
func (p prompt) edit(k tea.KeyPressMsg) prompt {
	switch k.String() {
	case "backspace", "ctrl+h":
		n := lastCluster(p.text[:p.pos])
		p.text, p.pos = p.text[:p.pos-n]+p.text[p.pos:], p.pos-n
	case "delete", "ctrl+d":
		n := firstCluster(p.text[p.pos:])
		p.text = p.text[:p.pos] + p.text[p.pos+n:]
	case "left", "ctrl+b":
		p.pos -= lastCluster(p.text[:p.pos])
	case "right", "ctrl+f":
		p.pos += firstCluster(p.text[p.pos:])
	case "home", "ctrl+a":
		p.pos = 0
	case "end", "ctrl+e":
		p.pos = len(p.text)
	case "ctrl+u":
		p.text, p.pos = p.text[p.pos:], 0
	default:
		if t := k.Key().Text; t != "" {
			p.text = p.text[:p.pos] + t + p.text[p.pos:]
			p.pos += len(t)
		}
	}
	return p
}

// firstCluster is the length in bytes of s's first grapheme cluster (0 for "").
func firstCluster(s string) int {
	g, _, _, _ := uniseg.FirstGraphemeClusterInString(s, -1)
	return len(g)
}

// lastCluster is the length in bytes of s's last grapheme cluster (0 for "").
func lastCluster(s string) int {
	n, state := 0, -1
	for s != "" {
		var g string
		g, s, _, state = uniseg.FirstGraphemeClusterInString(s, state)
		n = len(g)
	}
	return n
}

// View is the prompt as shown, label and input, and the cursor's column
// in it: the display width of what is left of the cursor.
func (p prompt) View() (line string, cursor int) {
	line = p.label + " "
	if p.kind == promptConfirm {
		return line, uniseg.StringWidth(line)
	}
	return line + p.text, uniseg.StringWidth(line + p.text[:p.pos])
}
