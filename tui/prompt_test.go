package tui

import (
	"slices"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/rivo/uniseg"

	"clowder/persist"
	"clowder/supervisor/proto"
)

// TestPromptCursorSitsAtTheDisplayWidthOfTheTextBeforeIt pins issue 9 §3:
// the prompt placed the terminal's cursor by rune count, so after wide
// characters (CJK, emoji) it sat left of where the text was drawn, and
// left/right stepped into the middle of an emoji with a modifier.
func TestPromptCursorSitsAtTheDisplayWidthOfTheTextBeforeIt(t *testing.T) {
	m, _ := twoPanes(t)
	prefix(t, m)
	typeText(t, m, ",")
	press(t, m, tea.Key{Code: 'u', Mod: tea.ModCtrl})
	typeText(t, m, "日本👍🏽")
	steps := []struct {
		key    tea.Key
		before string // the input left of the cursor afterwards
	}{
		{tea.Key{}, "日本👍🏽"},
		{tea.Key{Code: tea.KeyLeft}, "日本"},
		{tea.Key{Code: tea.KeyLeft}, "日"},
		{tea.Key{Code: tea.KeyRight}, "日本"},
		{tea.Key{Code: tea.KeyRight}, "日本👍🏽"},
		{tea.Key{Code: tea.KeyHome}, ""},
		{tea.Key{Code: tea.KeyRight}, "日"},
	}
	for _, s := range steps {
		if s.key.Code != 0 {
			press(t, m, s.key)
		}
		cur := m.View().Cursor
		want := 1 + uniseg.StringWidth("rename pane: "+s.before)
		if cur == nil || cur.X != want || cur.Y != 23 {
			t.Errorf("after %q with %q before the cursor: cursor %+v, want column %d on row 23", s.key.String(), s.before, cur, want)
		}
	}
}

// keyOf is the key press s stands for: a named key or typed text.
func keyOf(s string) tea.KeyPressMsg {
	named := map[string]tea.Key{
		"enter": {Code: tea.KeyEnter}, "esc": {Code: tea.KeyEscape}, "left": {Code: tea.KeyLeft},
		"right": {Code: tea.KeyRight}, "home": {Code: tea.KeyHome}, "end": {Code: tea.KeyEnd},
		"backspace": {Code: tea.KeyBackspace}, "delete": {Code: tea.KeyDelete},
		"ctrl+u": {Code: 'u', Mod: tea.ModCtrl}, "ctrl+c": {Code: 'c', Mod: tea.ModCtrl},
		"ctrl+g": {Code: 'g', Mod: tea.ModCtrl},
	}
	if k, ok := named[s]; ok {
		return tea.KeyPressMsg(k)
	}
	r := []rune(s)
	return tea.KeyPressMsg{Code: r[0], Text: s}
}

// feed hands keys to p's Update and returns the prompt and the last result.
func feed(t *testing.T, p prompt, keys ...string) (prompt, tea.Msg) {
	t.Helper()
	var out tea.Msg
	for _, k := range keys {
		if out != nil {
			t.Fatalf("key %q after the prompt ended with %+v", k, out)
		}
		p, out = p.Update(keyOf(k))
	}
	return p, out
}

func TestPromptEditsByGraphemeCluster(t *testing.T) {
	cases := []struct {
		name    string
		initial string
		keys    []string
		text    string // the input afterwards
		before  string // the input left of the cursor
	}{
		{"typing appends", "", []string{"a", "b"}, "ab", "ab"},
		{"starts at the end of the initial text", "abc", nil, "abc", "abc"},
		{"insert in the middle", "ac", []string{"left", "b"}, "abc", "ab"},
		{"backspace takes a wide character", "日本", []string{"backspace"}, "日", "日"},
		{"backspace takes an emoji with its modifier", "a👍🏽", []string{"backspace"}, "a", "a"},
		{"left steps over an emoji with its modifier", "a👍🏽b", []string{"left", "left"}, "a👍🏽b", "a"},
		{"delete takes the emoji under the cursor", "a👍🏽b", []string{"home", "right", "delete"}, "ab", "a"},
		{"left stops at the start", "日", []string{"left", "left"}, "日", ""},
		{"right stops at the end", "日", []string{"home", "right", "right"}, "日", "日"},
		{"backspace at the start does nothing", "ab", []string{"home", "backspace"}, "ab", ""},
		{"delete at the end does nothing", "ab", []string{"delete"}, "ab", "ab"},
		{"end after home", "日本", []string{"home", "end"}, "日本", "日本"},
		{"ctrl+u cuts before the cursor", "abcd", []string{"left", "ctrl+u"}, "d", ""},
		{"a combining accent joins its letter", "", []string{"e", "\u0301", "left"}, "e\u0301", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p, out := feed(t, newAsk("q:", c.initial), c.keys...)
			if out != nil {
				t.Fatalf("editing ended the prompt: %+v", out)
			}
			line, cur := p.View()
			if p.text != c.text || line != "q: "+c.text {
				t.Errorf("text %q, line %q; want %q", p.text, line, c.text)
			}
			if want := uniseg.StringWidth("q: " + c.before); cur != want || p.text[:p.pos] != c.before {
				t.Errorf("cursor at column %d with %q before it, want column %d with %q", cur, p.text[:p.pos], want, c.before)
			}
		})
	}
}

func TestPromptViewPlacesTheCursorByDisplayWidth(t *testing.T) {
	p := newAsk("名前:", "日本😀")
	for _, s := range []struct {
		key    string
		before string
	}{{"", "日本😀"}, {"left", "日本"}, {"left", "日"}, {"right", "日本"}, {"right", "日本😀"}, {"right", "日本😀"}} {
		if s.key != "" {
			p, _ = p.Update(keyOf(s.key))
		}
		_, cur := p.View()
		if want := uniseg.StringWidth("名前: " + s.before); cur != want {
			t.Errorf("after %s: cursor column %d, want %d (the width of %q)", s.key, cur, want, "名前: "+s.before)
		}
	}
}

func TestPromptTextEndsOnEnterOrCancel(t *testing.T) {
	cases := []struct {
		keys []string
		want promptDoneMsg
	}{
		{[]string{" ", "a", " ", "enter"}, promptDoneMsg{answer: "a", ok: true}},
		{[]string{"enter"}, promptDoneMsg{answer: "", ok: true}},
		{[]string{"a", "esc"}, promptDoneMsg{}},
		{[]string{"a", "ctrl+c"}, promptDoneMsg{}},
		{[]string{"a", "ctrl+g"}, promptDoneMsg{}},
	}
	for _, c := range cases {
		_, out := feed(t, newAsk("q:", ""), c.keys...)
		if out != c.want {
			t.Errorf("%q: result %+v, want %+v", c.keys, out, c.want)
		}
	}
}

func TestPromptConfirmIsYesOnlyOnY(t *testing.T) {
	for key, yes := range map[string]bool{"y": true, "Y": true, "n": false, "esc": false, "enter": false, "x": false} {
		p, out := newConfirm("sure? y/n").Update(keyOf(key))
		if done, ok := out.(promptDoneMsg); !ok || done.ok != yes {
			t.Errorf("%s: result %+v, want a promptDoneMsg with ok %v", key, out, yes)
		}
		if line, cur := p.View(); line != "sure? y/n " || cur != len(line) {
			t.Errorf("view %q cursor %d", line, cur)
		}
	}
}

func TestPromptIgnoresAllButKeyPresses(t *testing.T) {
	p := newAsk("q:", "ab")
	for _, msg := range []tea.Msg{tea.WindowSizeMsg{Width: 9, Height: 9}, tea.PasteMsg{Content: "x"}, mailMsg{}} {
		if got, out := p.Update(msg); got != p || out != nil {
			t.Errorf("%T changed the prompt to %+v, result %+v", msg, got, out)
		}
	}
}

// TestKeysTypedAheadFollowAChainOfPrompts: the new-agent questions come
// one after another; keys typed faster than Cmds answer (a paste, tmux
// send-keys) must each reach the question open when they were typed. The
// root acts on promptDoneMsg in the same Update as the key that ended the
// prompt, so the next question is open before the next key.
func TestKeysTypedAheadFollowAChainOfPrompts(t *testing.T) {
	bothModes(t, func(t *testing.T, mode cmdMode) {
		m, h := newTestModel(t, []proto.PaneInfo{running("p1", "left")}, func(c *persist.Config) {
			c.Agents["fake"] = persist.AgentConfig{Command: []string{"sh", "-c", "true"}}
		})
		d := newDriver(t, m, mode)
		d.prefix()
		d.typeText("a")
		d.press(tea.Key{Code: 'u', Mod: tea.ModCtrl})
		d.typeText("fake")
		d.press(tea.Key{Code: tea.KeyEnter})
		d.typeText("bob")
		d.press(tea.Key{Code: tea.KeyEnter})
		if line, _ := m.prompt.View(); line != "in a new git worktree (branch clowder/bob)? y/n, Esc cancels " {
			t.Fatalf("after the name, the open prompt is %q, want the worktree question", line)
		}
		d.typeText("n") // no worktree: bob starts without one
		d.prefix()
		d.typeText("a")
		d.press(tea.Key{Code: 'u', Mod: tea.ModCtrl})
		d.typeText("fake")
		d.press(tea.Key{Code: tea.KeyEnter})
		d.press(tea.Key{Code: tea.KeyEnter}) // no name: no worktree question
		d.settle()
		if m.prompt != nil {
			line, _ := m.prompt.View()
			t.Fatalf("a prompt is still open: %q", line)
		}
		// The two spawns run concurrently in one mode: their order is not fixed.
		names := map[string]bool{}
		for _, r := range h.spawned {
			names[r.Name] = r.Adapter == "fake" && r.Worktree == nil
		}
		if len(h.spawned) != 2 || !names["bob"] || !names[""] {
			t.Errorf("spawned %+v, want agent bob and one without a name, neither in a worktree", h.spawned)
		}
	})
}

// TestKeyTypedAfterAConfirmedCloseGoesToTheNextPane: y closes the pane in
// the same Update, so a key typed right after goes to the pane that has
// the focus now, not to the one being closed.
func TestKeyTypedAfterAConfirmedCloseGoesToTheNextPane(t *testing.T) {
	bothModes(t, func(t *testing.T, mode cmdMode) {
		m, h := twoPanes(t)
		_ = m.tree.SetFocus("p2")
		s1 := streamOf(t, m, "p1")
		d := newDriver(t, m, mode)
		d.prefix()
		d.typeText("xyq")
		d.settle()
		if got := s1.read(t, 1); got != "q" {
			t.Errorf("p1 got %q, want the key typed after the close", got)
		}
		if m.tree.Has("p2") || !slices.Equal(h.removed, []string{"p2"}) {
			t.Errorf("y did not close p2: %s removed %v", m.tree, h.removed)
		}
	})
}
