// Package throughput measures how fast an emulator parses the streamgen
// stream: the whole stream fed in PTY-sized chunks into one terminal, with
// wall time, allocations and allocated bytes.
//
// Boundaries: in-process emulators only (through package adapter); tmux is
// measured by package tmuxbench.
package throughput
