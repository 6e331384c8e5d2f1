// Package tui is the bubbletea program: layout, focus, keybindings, prompts
// and rendering of the host's screen frames. It never parses terminal output.
//
// Boundaries: tui may import every package of ours but cmd. It is the only
// package that imports bubbletea, lipgloss and bubbles.
package tui
