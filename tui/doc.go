// Package tui is the bubbletea program: layout, focus, keybindings, prompts
// and rendering of the host's screen frames. It never parses terminal output.
//
// Data model: a layout.Tree of pane ids (focus and zoom included) and, per
// pane, a cell grid kept up to date from the host's screen frames, its
// modes, its subscription and the PTY master dup the host passed. Only
// Update changes the model; Cmds (conn.go) do host I/O and return messages.
// The one exception is input: keys are encoded for the pane's modes and
// handed to the pane's one input queue (inputqueue.go), which writes them
// to its master from Update when it can at once, else from its drainer, so
// they keep their order (never one Cmd per key) and reach the pane at once.
//
// Goroutines: bubbletea's own; one watcher per open stream (mailbox.go),
// which exits when its stream closes; one drainer per input queue, which
// exits when the queue is closed; and the Cmds bubbletea runs. Frames
// from the watchers coalesce in the mailbox, so a flood in one pane is one
// Update and one render; nothing ticks while idle (a status message arms
// one timer to fade it).
//
// Files: model.go (state), update*.go (message handlers; update_events.go
// keeps the event subscription open), actions.go and keymap.go (the
// prefix keymap), prompt.go, copymode.go, mouse.go, input.go and
// keyconv.go (key encoding), inputqueue.go (ordered delivery per pane),
// render.go and view.go (drawing), layoutfile.go (layout.json), conn.go
// and host.go (host I/O), theme.go, clipboard.go (copy, paste, clowder's
// buffer), run.go, attach.go and attach_session.go (`clowder attach`).
//
// Boundaries: tui may import every package of ours but cmd. It is the only
// package that imports bubbletea, lipgloss and bubbles.
package tui
