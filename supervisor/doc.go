// Package supervisor owns process control: spawning a tree on a PTY or
// pipes, its identity, the kill ladder, cgroups, the orphan reaper,
// watchdogs, secrets and the one final exit record (finalize), and
// adopting a tree another host started from a PTY master a client held
// in escrow (adopt.go).
//
// Boundaries: supervisor imports persist and nothing else of ours; it knows
// nothing of sockets, frames or panes' screens (the host, protocol v1 and
// the client are its sub-packages host, proto and client). With them it is
// the only code (besides tests) that touches creack/pty and process calls
// of golang.org/x/sys/unix.
package supervisor
