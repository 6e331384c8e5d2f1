package tui

import "fmt"

// Action is something the user asks of the TUI with the prefix key. Its
// String is the name keymap.toml and config.toml's [keys] use.
type Action uint8

// Actions, in the order the help overlay lists them within a group.
const (
	ActSplitRight Action = iota
	ActSplitDown
	ActNewShell
	ActNewAgent
	ActClose
	ActKill
	ActRespawn
	ActLand
	ActDiscard
	ActRename
	ActSendKeys
	ActFocusLeft
	ActFocusDown
	ActFocusUp
	ActFocusRight
	ActFocusNext
	ActFocusNumber
	ActNextAttention
	ActResizeLeft
	ActResizeDown
	ActResizeUp
	ActResizeRight
	ActZoom
	ActSwapNext
	ActSwapPrev
	ActNextPreset
	ActCopyMode
	ActPaste
	ActHelp
	ActDetach
	ActKillAll
	actionCount // not an action: the number of them
)

var actionNames = [actionCount]string{
	"split-right", "split-down", "new-shell", "new-agent", "close", "kill", "respawn",
	"land", "discard", "rename", "send-keys", "focus-left", "focus-down", "focus-up", "focus-right",
	"focus-next", "focus-number", "next-attention", "resize-left", "resize-down",
	"resize-up", "resize-right", "zoom", "swap-next", "swap-prev", "next-preset",
	"copy-mode", "paste", "help", "detach", "kill-all",
}

// String returns the action's config name ("split-right").
func (a Action) String() string {
	if a < actionCount {
		return actionNames[a]
	}
	return fmt.Sprintf("Action(%d)", uint8(a))
}

// parseAction is the inverse of String.
func parseAction(s string) (Action, bool) {
	for a := Action(0); a < actionCount; a++ {
		if actionNames[a] == s {
			return a, true
		}
	}
	return 0, false
}

// repeats reports whether the action may be pressed again without the
// prefix right after it (the resizes, as in tmux).
func (a Action) repeats() bool {
	return a >= ActResizeLeft && a <= ActResizeRight
}
