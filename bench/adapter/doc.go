// Package adapter puts the emulators under comparison (clowder's vtgrid,
// github.com/hinshun/vt10x and github.com/charmbracelet/x/vt) behind one small
// interface, so the benchmarks and the report treat them alike.
//
// Each adapter does only what a real embedder of that library must do to use
// it as a PTY sink (drain a reply pipe, hold back a UTF-8 character split
// across reads), and nothing that would flatter or penalise it.
//
// Boundaries: this is bench-only code in the bench module; the product never
// imports it or the libraries it wraps.
package adapter
