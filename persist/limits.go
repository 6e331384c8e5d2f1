package persist

// This file is what persist will load: the caps that keep a huge or
// hostile agents.json or layout.json from costing the host or the TUI
// more than a few tens of megabytes. Save applies the same caps (through
// check), so clowder never writes a file it would refuse to load.

import (
	"errors"
	"fmt"
)

// Limits on the versioned files. A legitimate agents.json holds at most a
// few thousand live panes (Linux allows 4096 PTYs by default) and
// host.keep_exited exited ones, about 1 KB each.
const (
	MaxRegistryBytes   = 32 << 20 // agents.json's size on disk
	MaxRegistryRecords = 20_000   // records in agents.json
	MaxLayoutBytes     = 4 << 20  // layout.json's size on disk
)

// Limits on one record's fields, at or above what the kernel accepts for
// the thing each field names, so no pane the host could start is refused.
const (
	maxShortField = 256       // id, adapter, boot id
	maxNameField  = 1024      // pane names
	maxPathField  = 4096      // PATH_MAX: cwd, worktree fields, cgroup
	maxArgItems   = 1 << 16   // argv and resume_argv items
	maxArgItem    = 128 << 10 // MAX_ARG_STRLEN: one argv item
	maxEnvKeys    = 1 << 12   // env_keys items
)

// ErrTooLarge is matched (errors.Is) by errors for content over one of the
// limits above. Loading treats such a file like a corrupt one: it is moved
// aside whole and reported.
var ErrTooLarge = errors.New("too large")

// limitError says which limit content is over; it matches ErrTooLarge.
type limitError struct{ msg string }

// Error implements error.
func (e *limitError) Error() string { return e.msg }

// Is makes errors.Is(err, ErrTooLarge) true.
func (e *limitError) Is(target error) bool { return target == ErrTooLarge }

// overLimit returns a *limitError: "what is N, more than the limit of M".
func overLimit(what string, n, limit int64, unit func(int64) string) error {
	return &limitError{msg: fmt.Sprintf("%s is %s, more than the limit of %s", what, unit(n), unit(limit))}
}

// bytesUnit formats a size for humans: "512 bytes", "32 MiB", "1.0 GiB".
func bytesUnit(n int64) string {
	const k = 1024
	switch {
	case n < k:
		return fmt.Sprintf("%d bytes", n)
	case n < k*k:
		return trimUnit(float64(n)/k, "KiB")
	case n < k*k*k:
		return trimUnit(float64(n)/(k*k), "MiB")
	}
	return trimUnit(float64(n)/(k*k*k), "GiB")
}

// trimUnit prints whole values without decimals ("32 MiB") and others
// with one ("1.5 MiB").
func trimUnit(v float64, unit string) string {
	if v == float64(int64(v)) && v >= 10 {
		return fmt.Sprintf("%d %s", int64(v), unit)
	}
	return fmt.Sprintf("%.1f %s", v, unit)
}

// countUnit formats a count: "20000 records".
func countUnit(what string) func(int64) string {
	return func(n int64) string { return fmt.Sprintf("%d %s", n, what) }
}

// checkLen reports a string field over max bytes.
func checkLen(field, s string, max int) error {
	if len(s) > max {
		return overLimit(field, int64(len(s)), int64(max), bytesUnit)
	}
	return nil
}

// checkArgs reports an argv with too many items or an item too long.
func checkArgs(field string, args []string) error {
	if len(args) > maxArgItems {
		return overLimit(field, int64(len(args)), maxArgItems, countUnit("items"))
	}
	for i, a := range args {
		if len(a) > maxArgItem { // the name is formatted only for the error: every save checks every argv
			return checkLen(fmt.Sprintf("%s[%d]", field, i), a, maxArgItem)
		}
	}
	return nil
}
