// Package panes says what a pane is, for the host, the TUI and the CLI alike:
// its spec and kinds, key-name and key-mode encoding, paste and submit, agent
// adapters, attention rules and worktrees.
//
// Files, one concern each:
//
//   - spec.go: Spec, the request to spawn a pane, and its validation
//     (names, kinds, sizes, timeouts) with one-line errors.
//   - keys.go: Key (a code plus modifiers) and tmux send-keys names
//     ("Enter", "C-c", "C-M-Left", "x").
//   - encode.go: a Key as bytes for a pane's modes: kitty keyboard flags,
//     xterm modifyOtherKeys, or legacy xterm (DECCKM, DECKPAM). The
//     Shift+Enter choices are documented at the top of the file.
//   - mouse.go: mouse reports (X10, UTF-8, SGR, URXVT) and focus in/out.
//   - paste.go: bracketed paste with marker neutralisation, control
//     character refusal, and Submit split into paste and Enter.
//   - adapter.go: agent adapters (claude, codex, gemini, aider, shell,
//     command) with config.toml overrides.
//   - attention.go: the attention state (working, idle, needs-input,
//     exited) from a snapshot, quiet time and notifications, by per-adapter
//     rules that are data.
//   - profile.go: config.toml's profiles as adapters, their {{templates}},
//     and whether an adapter's program is installed.
//   - worktree.go: git worktrees for agents under the worktrees base.
//   - worktree_end.go: land, discard and remove a pane's worktree.
//
// Everything here is pure computation over values, safe for concurrent use,
// except worktree.go, worktree_end.go and ProjectName, which run
// short-lived git commands bounded by the caller's context.
//
// Boundaries: panes may import vtgrid and persist, nothing else of ours. It
// never starts long-lived processes (that is supervisor's); git for
// worktrees is the one program it runs.
package panes
