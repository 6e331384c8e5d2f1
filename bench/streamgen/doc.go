// Package streamgen generates the deterministic byte stream that the
// benchmarks feed to every emulator: roughly the mix of an AI agent's output
// (lines of varied length, some UTF-8 and wide CJK, SGR colours in 16, 256 and
// truecolor) and a TUI redraw (cursor moves with CUP/CUU, erases with EL/ED,
// status bars, box drawing, spinners and the occasional scroll region).
//
// The stream is a pure function of (seed, length): the same seed gives the
// same bytes on every machine and Go version, because the random source is a
// hand-written splitmix64, not math/rand. A shorter stream is a prefix of a
// longer one with the same seed.
//
// Boundaries: no I/O and no imports beyond the standard library. The stream
// never asks the terminal for a reply (no DA, DSR or queries), so a consumer
// needs no reply channel.
package streamgen
