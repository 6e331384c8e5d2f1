// Package latency measures keystroke round trips: type a key into a pane,
// time until its echo is on the pane's screen. A Driver abstracts the
// multiplexer (tmux in package tmuxbench; clowder can implement it through
// its CLI or protocol), and PTYEcho gives the floor no multiplexer can beat:
// a byte through a PTY to a raw-mode cat and back.
//
// Boundaries: the floor uses creack/pty directly; drivers are supplied by the
// caller.
package latency
