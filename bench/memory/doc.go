// Package memory measures what an emulator's scrollback costs: several
// terminals, each fed enough full-width ASCII lines to fill its scrollback,
// and the live heap they hold afterwards.
//
// Boundaries: in-process emulators only (through package adapter).
package memory
