// Package scale measures a server holding many idle shells, clowder's host
// next to a tmux server with as many windows, in the same run (issue 12,
// "Scale"): the time to spawn each pane as a user does (`clowder new
// --shell`, `tmux new-window`, whole process), the server's resident memory
// with one pane and with all of them (so the memory each pane adds), the
// whole-process time of `clowder ls` and `tmux list-panes -a` with one pane
// and with all, and the server's CPU and wake-ups over an idle period with
// one pane and with all.
//
// Each side runs on private directories (isolate.Env for clowder,
// TMUX_TMPDIR in a temporary directory for tmux, so no socket is left in
// /tmp/tmux-UID) and checks on the way out that its server and every pane's
// process are gone. It imports only the bench module's own packages and the
// product's client and protocol; it never imports the host itself: the
// figures are the real binary's. Only its profiling benchmark
// (BenchmarkSpawnShells) runs a host in its own process, through hostbench,
// so that pprof sees where a pane's spawn time and memory go.
package scale
