// Package panes says what a pane is, for the host, the TUI and the CLI alike:
// its spec and kinds, key-name and key-mode encoding, paste and submit, agent
// adapters, attention rules and worktrees.
//
// Boundaries: panes may import vtgrid and persist, nothing else of ours. It
// never starts processes (that is supervisor's).
package panes
