package persist

// This file is an agent's restart policy: what the host does with an agent
// that was running when the host (or the machine) went down, once a host
// starts again ([agents.NAME] on_restart in config.toml).

// OnRestart says what a starting host does with an agent whose process
// is gone although it was running: the machine rebooted, or the host and
// its panes were killed. The zero value, OnRestartResume, is the default.
type OnRestart uint8

// The restart policies of agents.
const (
	OnRestartResume OnRestart = iota // start it again with its conversation
	OnRestartNone                    // leave it lost
)

var onRestartNames = [...]string{OnRestartResume: "resume", OnRestartNone: "none"}

// String returns the text form ("resume"), or OnRestart(N).
func (o OnRestart) String() string { return enumString("OnRestart", onRestartNames[:], int(o)) }

// MarshalText implements encoding.TextMarshaler; invalid values fail.
func (o OnRestart) MarshalText() ([]byte, error) {
	return enumMarshal("on_restart policy", onRestartNames[:], int(o))
}

// UnmarshalText implements encoding.TextUnmarshaler.
func (o *OnRestart) UnmarshalText(b []byte) error {
	return enumUnmarshal("on_restart policy", onRestartNames[:], b, o)
}
