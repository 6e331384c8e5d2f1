// Package supervisor owns process lifecycle (spawn, identity, kill tree,
// cgroups, watchdogs, finalize) and the host server, protocol v1 and its
// client.
//
// Boundaries: supervisor may import vtgrid, persist and panes. It is the only
// package (besides tests) that touches creack/pty and process calls of
// golang.org/x/sys/unix.
package supervisor
