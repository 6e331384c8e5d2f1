// Package hostbench measures clowder's host, side by side with tmux where
// the same thing can be measured there: output flooding through a pane
// (read, parsed into the pane's screen, kept in its ring), keystroke round
// trips through the PTY master the host passes to a client, spawn to first
// output, and the host's memory with idle panes.
//
// The flood, keys and spawn figures run a host in this process on private
// directories (the same code as `clowder host`); the memory figure runs the
// real binary, so its RSS is the host's alone.
package hostbench
