// This file defines the upgrade request (docs/protocol.md, "upgrade"): the
// host hands its panes to a new binary under its own pid (exec), so every
// agent keeps running. Subscriptions end first with CodeUpgrading, which
// tells the client to connect again: the same socket answers once the new
// binary serves.

package proto

import "fmt"

// MsgUpgrade is the upgrade request; the host answers only when it could
// not exec (an error reply). After a successful exec the connection simply
// ends, as every connection of the old image does.
const MsgUpgrade MsgType = 48 // UpgradeReq → MsgError, or the connection ends at the exec

// CodeUpgrading ends every subscription before the host execs its new
// binary: connect again and subscribe from the sequence number you have.
const CodeUpgrading ErrorCode = "upgrading"

// UpgradeReq (MsgUpgrade) asks the host to exec Binary, an absolute path.
type UpgradeReq struct {
	Binary string `json:"binary"`
}

// MsgType implements Message.
func (UpgradeReq) MsgType() MsgType { return MsgUpgrade }

// Validate checks an upgrade request.
func (r *UpgradeReq) Validate() error {
	if r.Binary == "" || r.Binary[0] != '/' {
		return fmt.Errorf("upgrade: binary %q is not an absolute path", r.Binary)
	}
	if len(r.Binary) > 4096 {
		return fmt.Errorf("upgrade: binary path is %d bytes; the limit is 4096", len(r.Binary))
	}
	return nil
}
