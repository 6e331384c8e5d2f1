// Package persist owns clowder's on-disk state: agents.json (the pane
// registry, written by the host alone), layout.json (an opaque document the
// TUI owns), config.toml, the runtime and state directories, and the host's
// advisory lock file.
//
// Data model and rules (docs/state.md):
//
//   - Paths are resolved once from an injected environment lookup, so tests
//     and callers never depend on the process environment by accident.
//   - Every write is atomic: a temp file in the same directory, fsync, a
//     hard-linked .bak of the previous copy, rename, fsync of the directory.
//     A failed write leaves the old file and its .bak as they were.
//   - Every JSON document carries schema_version. A newer version is refused
//     and the file is left in place; a corrupt file (or one over a limit,
//     limits.go) is moved aside to <name>.corrupt-<UTC time> and reported,
//     never replaced by an empty one, and its .bak is kept as
//     <name>.lastgood-<UTC time>, which no save replaces; a file that is
//     not safe to trust (trust.go) is refused and left alone; a missing
//     file means "no state yet".
//   - agents.json and layout.json go through one generic code path
//     (document.go); only their bodies differ.
//   - config.toml has one source of defaults, DefaultConfig; unknown keys are
//     errors that name the key and the file.
//
// Nothing here is safe for concurrent use by several goroutines unless its
// doc says so; the host is the single writer of agents.json and serialises
// its own calls.
//
// Boundaries: persist imports none of clowder's packages, and no
// golang.org/x/sys (the standard syscall package covers flock and stat).
package persist
