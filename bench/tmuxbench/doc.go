// Package tmuxbench measures tmux as the reference multiplexer: how fast a
// tmux pane consumes and parses a byte stream, and (in keys.go) how long a
// keystroke takes to come back as an echo on its screen.
//
// Every measurement runs on its own tmux server (its own -L socket, -f
// /dev/null so no user configuration applies), which is killed afterwards.
//
// Boundaries: drives the tmux binary through os/exec only; knows nothing of
// the in-process emulators.
package tmuxbench
