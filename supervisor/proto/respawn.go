// This file defines the respawn request (docs/protocol.md, "respawn"):
// start an exited, lost or orphaned pane again in place, under the same
// id and name, in the same directory and worktree.

package proto

// The respawn request and its reply.
const (
	MsgRespawn   MsgType = 36 // RespawnReq → MsgRespawned
	MsgRespawned MsgType = 73 // RespawnedReply
)

// EventRespawned is the PaneEvent kind of a pane started again in place;
// Info carries the pane, running again under the same id.
const EventRespawned = "respawned"

// RespawnReq (MsgRespawn) starts a pane whose process is gone (exited or
// lost), or an orphan of an earlier host whose process has ended, again:
// an agent with its adapter's resume command, a shell afresh, a command
// with the same argv. The pane keeps its id, name, cwd and worktree; its
// record is replaced, not duplicated. A pane still running, or an orphan
// whose process still runs, is refused (CodeBusy): kill it first.
type RespawnReq struct {
	Pane string `json:"pane"`
	// Env is the client's environment (KEY=VALUE). The host uses it only
	// when it no longer holds the environment the pane was started with
	// (it keeps that in memory only, never on disk): after a host restart.
	Env []string `json:"env,omitempty"`
}

// RespawnedReply (MsgRespawned) answers RespawnReq with the pane running
// again.
type RespawnedReply struct {
	Pane PaneInfo `json:"pane"`
	// ClientEnv is true when the pane runs with the requesting client's
	// environment because the host no longer held its own.
	ClientEnv bool `json:"client_env,omitempty"`
	// Notes say, for people, what the respawn could not do as before: no
	// session id recorded (the adapter's "continue" was used), the
	// client's environment used.
	Notes []string `json:"notes,omitempty"`
}

// MsgType implements Message.
func (RespawnReq) MsgType() MsgType { return MsgRespawn }

// MsgType implements Message.
func (RespawnedReply) MsgType() MsgType { return MsgRespawned }

// Validate checks a respawn request.
func (r *RespawnReq) Validate() error {
	if err := validRef(r.Pane); err != nil {
		return err
	}
	return (&SpawnReq{Env: r.Env}).validateEnv()
}
