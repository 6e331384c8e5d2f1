// This file defines the JSON bodies of protocol v1 requests and replies
// (docs/protocol.md, "Messages"). Field names are the wire names; unknown
// fields are ignored on decode, and a later minor only adds optional
// fields. Durations travel as integer milliseconds (`_ms`), signals as
// names ("TERM", "SIGINT") because numbers differ between kernels.
//
// These are data only: what the host does with them (validation, defaults,
// identity checks) is server logic and lives elsewhere.

package proto

import "clowder/persist"

// PaneInfo describes one pane as the host sees it; it is also the row of
// `clowder ls --json` (docs/cli.md).
type PaneInfo struct {
	ID         string   `json:"id"`
	Name       string   `json:"name"`
	Kind       string   `json:"kind"` // agent | shell | run
	Adapter    string   `json:"adapter,omitempty"`
	State      string   `json:"state"`     // starting | running | exited
	Attention  string   `json:"attention"` // attention state (panes package)
	Pid        int      `json:"pid"`
	PidStart   uint64   `json:"pid_start"`         // field 22 of /proc/PID/stat
	BootID     string   `json:"boot_id,omitempty"` // /proc/sys/kernel/random/boot_id when the pane started
	ExitCode   int      `json:"exit_code"`
	ExitSignal string   `json:"exit_signal,omitempty"`
	ExitReason string   `json:"exit_reason"`       // "" while running; docs/processes.md reasons
	Cwd        string   `json:"cwd"`               // where the pane was started
	CwdNow     string   `json:"cwd_now,omitempty"` // where it is now (OSC 7, or its foreground process's cwd)
	Argv       []string `json:"argv"`
	Cols       uint16   `json:"cols"`
	Rows       uint16   `json:"rows"`
	Title      string   `json:"title,omitempty"`
	CreatedMS  int64    `json:"created_ms"` // Unix milliseconds
	Seq        uint64   `json:"seq"`        // end of the raw output ring
	// Containment is how the tree is held: "cgroup", or "process-group"
	// with ContainmentFallback saying why no cgroup (auto mode).
	Containment         string `json:"containment,omitempty"`
	ContainmentFallback string `json:"containment_fallback,omitempty"`
	// Worktree is the pane's own git worktree, if it has one.
	Worktree *persist.Worktree `json:"worktree,omitempty"`
	// Session is the agent's conversation id, as it last reported it
	// (hook requests), or as clowder chose it at launch.
	Session string `json:"session,omitempty"`
	// Note says why the pane is lost, or what its last respawn could not
	// do as before (agents.json's note).
	Note string `json:"note,omitempty"`
	// Survivors are the live processes of an orphaned pane's tree (left
	// by an earlier host), its leader among them while it runs.
	Survivors []int `json:"survivors,omitempty"`
}

// OKReply (MsgOK) answers a request that succeeded and returns no data.
type OKReply struct{}

// ListReq (MsgList) asks for panes; an empty Panes lists all of them.
type ListReq struct {
	Panes []string `json:"panes,omitempty"` // ids or unique names
}

// PaneListReply (MsgPaneList) answers ListReq, in creation order.
type PaneListReply struct {
	Panes []PaneInfo `json:"panes"`
}

// SpawnReq (MsgSpawn) starts a pane. It is idempotent on Nonce: a repeated
// request with the same nonce returns the pane the first one made
// (SpawnedReply.Existing) instead of starting a second one.
type SpawnReq struct {
	Nonce   string   `json:"nonce"`
	Argv    []string `json:"argv"`
	Name    string   `json:"name,omitempty"`
	Kind    string   `json:"kind,omitempty"` // agent | shell | run
	Adapter string   `json:"adapter,omitempty"`
	Cwd     string   `json:"cwd,omitempty"`
	Env     []string `json:"env,omitempty"` // KEY=VALUE, the client's environment
	Cols    uint16   `json:"cols,omitempty"`
	Rows    uint16   `json:"rows,omitempty"`
	// TimeoutMS and IdleTimeoutMS are the watchdogs; 0 takes the host's
	// default (config.toml), unless NoTimeout / NoIdleTimeout say "none".
	TimeoutMS       int64  `json:"timeout_ms,omitempty"`
	IdleTimeoutMS   int64  `json:"idle_timeout_ms,omitempty"`
	NoTimeout       bool   `json:"no_timeout,omitempty"`
	NoIdleTimeout   bool   `json:"no_idle_timeout,omitempty"`
	Cgroup          string `json:"cgroup,omitempty"` // off | auto | required
	AllowSecretArgs bool   `json:"allow_secret_args,omitempty"`
	// Worktree is the git worktree the client made for the pane; the host
	// records it in agents.json.
	Worktree *persist.Worktree `json:"worktree,omitempty"`
	// KillOnDisconnect ties the pane to this connection: when it ends, the
	// host kills the pane's tree (a foreground `clowder exec`).
	KillOnDisconnect bool `json:"kill_on_disconnect,omitempty"`
}

// SpawnedReply (MsgSpawned) answers SpawnReq.
type SpawnedReply struct {
	Pane     PaneInfo `json:"pane"`
	Existing bool     `json:"existing,omitempty"` // the nonce matched an earlier spawn
}

// SubscribeReq (MsgSubscribe) asks for a pane's screen frames and/or raw
// output. Raw output starts at FromSeq (or at the current end if FromEnd);
// if FromSeq fell out of the ring, the first chunk carries a gap. WantFd
// asks for a dup of the PTY master, attached to the reply, which needs a
// transport that carries fds and the "fd-passing" capability.
type SubscribeReq struct {
	Pane    string `json:"pane"`
	Screen  bool   `json:"screen,omitempty"`
	Raw     bool   `json:"raw,omitempty"`
	FromSeq uint64 `json:"from_seq,omitempty"`
	FromEnd bool   `json:"from_end,omitempty"`
	WantFd  bool   `json:"want_fd,omitempty"`
}

// SubscribedReply (MsgSubscribed) answers SubscribeReq. Pushes for the
// subscription carry the subscribe request's id. When Fd is true the frame
// carries exactly one fd, the PTY master dup, which the client owns.
type SubscribedReply struct {
	Pane   string `json:"pane"`
	Seq    uint64 `json:"seq"`    // end of the ring when subscribed
	Oldest uint64 `json:"oldest"` // oldest seq still in the ring
	Fd     bool   `json:"fd,omitempty"`
}

// UnsubscribeReq (MsgUnsubscribe) ends the subscription opened by request
// Sub; the host sends a last push with FlagEnd, then MsgOK.
type UnsubscribeReq struct {
	Sub uint32 `json:"sub"`
}

// InputReq (MsgInput) writes to a pane's PTY: Data as is, then Keys (tmux
// key names such as "Enter", "C-c", "M-x", "F1"), encoded by the host for
// the pane's current modes.
type InputReq struct {
	Pane string   `json:"pane"`
	Data []byte   `json:"data,omitempty"` // base64 in JSON
	Keys []string `json:"keys,omitempty"`
}

// PasteReq (MsgPaste) pastes Text, bracketed if the pane enabled mode 2004,
// then presses Enter if Submit. With the paste-data capability the text
// may come as bytes in Data, and a paste too big for one frame as parts
// (paste.go).
type PasteReq struct {
	Pane   string `json:"pane"`
	Text   string `json:"text"`
	Submit bool   `json:"submit,omitempty"`
	Data   []byte `json:"data,omitempty"` // the text as bytes, base64 in JSON; wins over Text
	Part   string `json:"part,omitempty"` // "" whole; "first", "middle", "last" of a split paste
	// WaitMS, with Submit, makes the host reply only once the program shows
	// it took the text (it shows a busy screen, exits, or settles with the
	// text gone from its prompt), or fail with not-taken: the text is still
	// in the prompt, or no sign came within WaitMS.
	WaitMS int64 `json:"wait_ms,omitempty"`
}

// ResizeReq (MsgResize) sets a pane's size.
type ResizeReq struct {
	Pane string `json:"pane"`
	Cols uint16 `json:"cols"`
	Rows uint16 `json:"rows"`
}

// SignalReq (MsgSignal) sends one signal to a pane's process group. Pid,
// PidStart and BootID are the identity the client expects (all three, as
// PaneInfo gives them); the host refuses (identity-mismatch) rather than
// signal anything else. Zero means the identity the host recorded, which
// it still verifies.
type SignalReq struct {
	Pane     string `json:"pane"`
	Signal   string `json:"signal"` // name: "INT", "SIGTERM", ...
	Pid      int    `json:"pid,omitempty"`
	PidStart uint64 `json:"pid_start,omitempty"`
	BootID   string `json:"boot_id,omitempty"` // required with pid
}

// KillReq (MsgKill) runs the kill ladder on a pane's whole process tree:
// Signal (default HUP+TERM), GraceMS (default 3000), then KILL. Identity as
// in SignalReq. The reply comes when the tree is dead.
type KillReq struct {
	Pane     string `json:"pane"`
	Signal   string `json:"signal,omitempty"`
	GraceMS  int64  `json:"grace_ms,omitempty"`
	Pid      int    `json:"pid,omitempty"`
	PidStart uint64 `json:"pid_start,omitempty"`
	BootID   string `json:"boot_id,omitempty"` // required with pid
}

// RenameReq (MsgRename) gives a pane a new unique name; the host records it
// in agents.json and tells event subscribers (EventRenamed).
type RenameReq struct {
	Pane string `json:"pane"`
	Name string `json:"name"`
}

// RemoveReq (MsgRemove) kills a pane if it runs, then forgets it.
type RemoveReq struct {
	Pane string `json:"pane"`
}

// CaptureReq (MsgCapture) asks for the screen as text, with SGR escapes if
// ANSI, preceded by up to Scrollback lines of history.
type CaptureReq struct {
	Pane       string `json:"pane"`
	ANSI       bool   `json:"ansi,omitempty"`
	Scrollback int    `json:"scrollback,omitempty"`
	// TextBody asks for the answer as captured-text (MsgCapturedText), a
	// binary body; a host that predates it answers captured, as without.
	TextBody bool `json:"text_body,omitempty"`
}

// CapturedReply (MsgCaptured) answers CaptureReq; Text has one line per
// row, each ending in "\n".
type CapturedReply struct {
	Pane    string `json:"pane"`
	Text    string `json:"text"`
	Cols    uint16 `json:"cols"`
	Rows    uint16 `json:"rows"`
	CursorX uint16 `json:"cursor_x"`
	CursorY uint16 `json:"cursor_y"`
}

// HistoryReq (MsgHistory) asks for Count scrollback lines starting at
// absolute line From, or the last Count lines if FromEnd. The reply is
// HistoryRows.
type HistoryReq struct {
	Pane    string `json:"pane"`
	From    uint64 `json:"from,omitempty"`
	Count   int    `json:"count"`
	FromEnd bool   `json:"from_end,omitempty"`
}

// WaitReq (MsgWait) waits until the first of the set conditions holds: the
// pane exited, no output for IdleMS, it needs input, or its screen matches
// the regexp Text. TimeoutMS > 0 bounds the wait (error code "timeout").
type WaitReq struct {
	Pane       string `json:"pane"`
	Exit       bool   `json:"exit,omitempty"`
	IdleMS     int64  `json:"idle_ms,omitempty"`
	NeedsInput bool   `json:"needs_input,omitempty"`
	Text       string `json:"text,omitempty"`
	TimeoutMS  int64  `json:"timeout_ms,omitempty"`
}

// WaitDoneReply (MsgWaitDone) answers WaitReq: which condition was met
// ("exit", "idle", "needs-input", "text"), the matched text, and the pane
// at that moment.
type WaitDoneReply struct {
	Met   string   `json:"met"`
	Match string   `json:"match,omitempty"`
	Pane  PaneInfo `json:"pane"`
}

// EventsReq (MsgEvents) subscribes to PaneEvent pushes for Panes (all if
// empty); they carry this request's id until MsgUnsubscribe.
type EventsReq struct {
	Panes []string `json:"panes,omitempty"`
}

// Event kinds of PaneEvent.Kind.
const (
	EventAdded     = "added"
	EventExited    = "exited"
	EventAttention = "attention"
	EventTitle     = "title"
	EventRemoved   = "removed"
	EventRenamed   = "renamed" // Info carries the pane with its new name
)

// PaneEvent (MsgEvent) is one change in a pane. Info is set for added and
// exited, Attention for attention, Title for title.
type PaneEvent struct {
	Kind      string    `json:"kind"`
	Pane      string    `json:"pane"`
	Info      *PaneInfo `json:"info,omitempty"`
	Attention string    `json:"attention,omitempty"`
	Title     string    `json:"title,omitempty"`
}

// HostStatusReq (MsgHostStatus) asks about the host itself.
type HostStatusReq struct{}

// HostInfoReply (MsgHostInfo) answers HostStatusReq.
type HostInfoReply struct {
	Pid       int     `json:"pid"`
	Build     string  `json:"build"` // clowder version of the host binary
	Protocol  Version `json:"protocol"`
	StartedMS int64   `json:"started_ms"` // Unix milliseconds
	Panes     int     `json:"panes"`
	Clients   int     `json:"clients"`
	Socket    string  `json:"socket"`
	// Registry is what went wrong reading or writing agents.json ("" if
	// nothing): a corrupt file moved aside, or a newer schema left alone.
	Registry string `json:"registry,omitempty"`
	// Containment says how pane trees are contained: "cgroup" or, when the
	// host could not make cgroup leaves, "process-group" and why.
	Containment string `json:"containment,omitempty"`
	// StaleCgroups are cgroup leaves a dead host left that still hold
	// processes and belong to no pane (the empty ones are removed).
	StaleCgroups []string `json:"stale_cgroups,omitempty"`
	// Orphans are the panes whose processes a dead host left, each as
	// "pN: PID PID..." (its survivors).
	Orphans []string `json:"orphans,omitempty"`
	// Escrow lists the clients holding a copy of each pane's PTY master
	// (escrow.go); absent from hosts older than escrow.
	Escrow []EscrowHolder `json:"escrow,omitempty"`
	// Upgrade says how the host's last upgrade in place went: "from build
	// B", or why the new binary refused the state and the host went back
	// to its own ("refused: ..."); "" when it never upgraded.
	Upgrade string `json:"upgrade,omitempty"`
}

// HostStopReq (MsgHostStop) asks the host to exit. With live panes it
// refuses (error "busy") unless Force, which kills them first.
type HostStopReq struct {
	Force bool `json:"force,omitempty"`
}
