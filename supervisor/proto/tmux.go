// This file defines the adopt-tmux request (docs/protocol.md,
// "adopt-tmux"): bring a pane that already runs in tmux in as a clowder
// pane, after checking and recording its identity.

package proto

import (
	"path/filepath"
	"strings"

	"clowder/panes"
)

// The adopt-tmux request and its reply.
const (
	MsgAdoptTmux MsgType = 50 // AdoptTmuxReq → MsgAdopted
	MsgAdopted   MsgType = 87 // AdoptedReply
)

// MaxTmuxTargetLen bounds AdoptTmuxReq.Target.
const MaxTmuxTargetLen = 256

// AdoptTmuxReq (MsgAdoptTmux) adopts the tmux pane Target names on the tmux
// server listening on Socket. The client resolves the socket as tmux does
// (-L, -S, $TMUX, the default), so the host needs none of its
// environment. The host refuses a dead pane (CodeExited), a pane it has
// adopted already (CodeConflict) and a server or pane it cannot find
// (CodeNotFound).
type AdoptTmuxReq struct {
	Socket string `json:"socket"`         // absolute path of the tmux server's socket
	Target string `json:"target"`         // a tmux target: %N, session, session:window.pane
	Name   string `json:"name,omitempty"` // the pane's name; default: its command's
}

// AdoptedReply (MsgAdopted) answers AdoptTmuxReq with the new pane; its
// Containment says "tmux %N on server PID".
type AdoptedReply struct {
	Pane PaneInfo `json:"pane"`
}

// MsgType implements Message.
func (AdoptTmuxReq) MsgType() MsgType { return MsgAdoptTmux }

// MsgType implements Message.
func (AdoptedReply) MsgType() MsgType { return MsgAdopted }

// Validate checks an adopt-tmux request.
func (r *AdoptTmuxReq) Validate() error {
	switch {
	case r.Socket == "" || !filepath.IsAbs(r.Socket) || len(r.Socket) > 4096 || hasControl(r.Socket):
		return Invalid("socket", "%q is not an absolute path of a tmux socket; give -S PATH or -L NAME", r.Socket)
	case r.Target == "" || len(r.Target) > MaxTmuxTargetLen || hasControl(r.Target) || strings.HasPrefix(r.Target, "-"):
		return Invalid("target", "%q is not a tmux target; give one such as %%3 or work:1.0 (tmux list-panes -a)", r.Target)
	}
	if r.Name != "" {
		if err := panes.ValidateName(r.Name); err != nil {
			return Invalid("name", "%v", err)
		}
	}
	return nil
}
