// Package vtgrid is clowder's terminal emulator: a table-driven DEC/ECMA-48
// parser, a grid of cells (graphemes, wide and combining characters, full SGR
// styles, hyperlinks), the modes, operations and replies a modern TUI needs,
// bounded compact scrollback with reflow on resize, and immutable snapshots
// with dirty-row tracking.
//
// Boundaries: vtgrid imports none of clowder's packages. It does no I/O of its
// own: bytes come in through Terminal.Write, replies go out through the
// Options.Reply sink, events through Options.Event. A Terminal is not safe for
// concurrent use; snapshots are immutable and may cross goroutines.
package vtgrid
