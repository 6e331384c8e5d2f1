package persist

// Typed values shared by agents.json and config.toml: the enums (each with
// String and a text form used by both JSON and TOML) and Duration, which is
// written as a Go duration string ("3s") rather than nanoseconds.

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Kind is what runs in a pane. The zero value is invalid, so a record that
// forgot to set it is refused on save.
type Kind uint8

// The kinds of pane.
const (
	KindAgent Kind = iota + 1 // an AI coding agent, through an adapter
	KindShell                 // an interactive shell
	KindRun                   // a plain command (clowder new -- CMD, exec)
)

var kindNames = [...]string{KindAgent: "agent", KindShell: "shell", KindRun: "run"}

// String returns the text form ("agent"), or Kind(N) for an invalid value.
func (k Kind) String() string { return enumString("Kind", kindNames[:], int(k)) }

// MarshalText implements encoding.TextMarshaler; invalid values fail.
func (k Kind) MarshalText() ([]byte, error) { return enumMarshal("kind", kindNames[:], int(k)) }

// UnmarshalText implements encoding.TextUnmarshaler.
func (k *Kind) UnmarshalText(b []byte) error { return enumUnmarshal("kind", kindNames[:], b, k) }

// State is where a pane is in its life. The zero value is invalid.
type State uint8

// The states of a pane.
const (
	StateStarting State = iota + 1 // spawn requested, process not yet confirmed
	StateRunning                   // the process is alive
	StateExited                    // the process ended; Exit says how
	StateOrphaned                  // alive but its host is gone (found after a host crash)
	StateLost                      // recorded as running, but gone without an exit status
)

var stateNames = [...]string{
	StateStarting: "starting", StateRunning: "running", StateExited: "exited",
	StateOrphaned: "orphaned", StateLost: "lost",
}

// String returns the text form ("running"), or State(N) for an invalid value.
func (s State) String() string { return enumString("State", stateNames[:], int(s)) }

// MarshalText implements encoding.TextMarshaler; invalid values fail.
func (s State) MarshalText() ([]byte, error) { return enumMarshal("state", stateNames[:], int(s)) }

// UnmarshalText implements encoding.TextUnmarshaler.
func (s *State) UnmarshalText(b []byte) error { return enumUnmarshal("state", stateNames[:], b, s) }

// ExitReason says why a pane's process ended (docs/processes.md). The zero
// value is invalid.
type ExitReason uint8

// The exit reasons.
const (
	ExitCompleted    ExitReason = iota + 1 // exit code 0
	ExitFailed                             // non-zero exit code
	ExitSignalled                          // killed by a signal nobody at clowder sent
	ExitKilled                             // killed on request (clowder kill, rm)
	ExitTimeout                            // the overall timeout fired
	ExitIdleTimeout                        // the no-output timeout fired
	ExitLost                               // gone without an exit status (e.g. reboot)
	ExitLostParent                         // an orphan of a dead host that ended while adopted, or unwatched
	ExitUnverifiable                       // ended while a host that was not its parent watched it (re-adopted from escrow): no exit status to read
)

var exitReasonNames = [...]string{
	ExitCompleted: "completed", ExitFailed: "failed", ExitSignalled: "signalled",
	ExitKilled: "killed", ExitTimeout: "timeout", ExitIdleTimeout: "idle-timeout", ExitLost: "lost",
	ExitLostParent:   "lost-parent",
	ExitUnverifiable: "unverifiable",
}

// String returns the text form ("idle-timeout"), or ExitReason(N).
func (r ExitReason) String() string { return enumString("ExitReason", exitReasonNames[:], int(r)) }

// MarshalText implements encoding.TextMarshaler; invalid values fail.
func (r ExitReason) MarshalText() ([]byte, error) {
	return enumMarshal("exit reason", exitReasonNames[:], int(r))
}

// UnmarshalText implements encoding.TextUnmarshaler.
func (r *ExitReason) UnmarshalText(b []byte) error {
	return enumUnmarshal("exit reason", exitReasonNames[:], b, r)
}

// RestartPolicy says what the host does when a pane's process exits. The
// zero value, RestartNever, is the default.
type RestartPolicy uint8

// The restart policies.
const (
	RestartNever     RestartPolicy = iota // leave it exited
	RestartOnFailure                      // restart unless it completed
	RestartAlways                         // restart whatever the exit
)

var restartNames = [...]string{RestartNever: "never", RestartOnFailure: "on-failure", RestartAlways: "always"}

// String returns the text form ("on-failure"), or RestartPolicy(N).
func (p RestartPolicy) String() string { return enumString("RestartPolicy", restartNames[:], int(p)) }

// MarshalText implements encoding.TextMarshaler; invalid values fail.
func (p RestartPolicy) MarshalText() ([]byte, error) {
	return enumMarshal("restart policy", restartNames[:], int(p))
}

// UnmarshalText implements encoding.TextUnmarshaler.
func (p *RestartPolicy) UnmarshalText(b []byte) error {
	return enumUnmarshal("restart policy", restartNames[:], b, p)
}

// CgroupMode says whether the host puts each pane in its own cgroup v2
// leaf (docs/processes.md).
type CgroupMode uint8

// The cgroup modes.
const (
	CgroupOff      CgroupMode = iota // never use cgroups
	CgroupAuto                       // use them where the host can create one
	CgroupRequired                   // refuse to spawn without one
)

var cgroupNames = [...]string{CgroupOff: "off", CgroupAuto: "auto", CgroupRequired: "required"}

// String returns the text form ("auto"), or CgroupMode(N).
func (m CgroupMode) String() string { return enumString("CgroupMode", cgroupNames[:], int(m)) }

// MarshalText implements encoding.TextMarshaler; invalid values fail.
func (m CgroupMode) MarshalText() ([]byte, error) {
	return enumMarshal("cgroup mode", cgroupNames[:], int(m))
}

// UnmarshalText implements encoding.TextUnmarshaler.
func (m *CgroupMode) UnmarshalText(b []byte) error {
	return enumUnmarshal("cgroup mode", cgroupNames[:], b, m)
}

// enumString names v from names, or Type(N) when v has no name.
func enumString(typ string, names []string, v int) string {
	if v >= 0 && v < len(names) && names[v] != "" {
		return names[v]
	}
	return typ + "(" + strconv.Itoa(v) + ")"
}

// enumMarshal is MarshalText for an enum whose names are indexed by value.
func enumMarshal(what string, names []string, v int) ([]byte, error) {
	if v >= 0 && v < len(names) && names[v] != "" {
		return []byte(names[v]), nil
	}
	return nil, fmt.Errorf("invalid %s %d", what, v)
}

// enumUnmarshal is UnmarshalText for an enum whose names are indexed by
// value; the error lists the valid names.
func enumUnmarshal[E ~uint8](what string, names []string, text []byte, dst *E) error {
	for v, name := range names {
		if name != "" && name == string(text) {
			*dst = E(v)
			return nil
		}
	}
	return fmt.Errorf("unknown %s %q (want one of %s)", what, text, validNames(names))
}

// validNames lists the non-empty names, quoted, for error messages.
func validNames(names []string) string {
	var quoted []string
	for _, n := range names {
		if n != "" {
			quoted = append(quoted, strconv.Quote(n))
		}
	}
	return strings.Join(quoted, ", ")
}

// Duration is a time.Duration written as a Go duration string ("3s",
// "1m30s") in JSON and TOML. A bare number is refused, because "3" would
// otherwise mean three nanoseconds.
type Duration time.Duration

// Std returns d as a time.Duration.
func (d Duration) Std() time.Duration { return time.Duration(d) }

// String returns the Go duration string.
func (d Duration) String() string { return time.Duration(d).String() }

// MarshalText implements encoding.TextMarshaler.
func (d Duration) MarshalText() ([]byte, error) { return []byte(d.String()), nil }

// UnmarshalText implements encoding.TextUnmarshaler; negative durations are
// refused.
func (d *Duration) UnmarshalText(b []byte) error {
	v, err := time.ParseDuration(string(b))
	if err != nil {
		return fmt.Errorf("duration %q: want a number with a unit, like \"3s\" or \"1m30s\"", b)
	}
	if v < 0 {
		return fmt.Errorf("duration %q is negative", b)
	}
	*d = Duration(v)
	return nil
}

// KeyList is the keys of one [keys] entry in config.toml, in tmux key-name
// syntax. The file may give a list, split-right = ["%", "|"], or one
// string, split-right = "%", where spaces separate several keys
// ("% |"). Key names themselves are checked by the TUI, which owns them.
type KeyList []string

// UnmarshalTOML implements toml.Unmarshaler for both forms.
func (k *KeyList) UnmarshalTOML(v any) error {
	switch v := v.(type) {
	case string:
		*k = strings.Fields(v)
		return nil
	case []any:
		keys := make(KeyList, len(v))
		for i, e := range v {
			s, ok := e.(string)
			if !ok {
				return fmt.Errorf("key %d is %T; want a key name such as \"%%\" or \"C-x\"", i+1, e)
			}
			keys[i] = s
		}
		*k = keys
		return nil
	}
	return fmt.Errorf("keys are %T; want a key name (\"%%\") or a list of them ([\"%%\", \"|\"])", v)
}

// check reports an empty list, or an item that is empty or holds several
// keys.
func (k KeyList) check() error {
	if len(k) == 0 {
		return errors.New("is empty")
	}
	for _, s := range k {
		if s == "" || strings.ContainsAny(s, " \t") {
			return fmt.Errorf("item %q is not one key name; give each key as its own list item", s)
		}
	}
	return nil
}
