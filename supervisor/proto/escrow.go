// This file defines the escrow request (docs/protocol.md, "escrow"): a
// client that held a copy of a pane's PTY master while its host died hands
// it to the next host, which re-adopts the pane after checking its
// identity. It is the one request that carries a file descriptor.

package proto

import "fmt"

// Escrow messages.
const (
	MsgEscrow   MsgType = 34 // EscrowReq (+1 fd: the PTY master) → MsgEscrowed
	MsgEscrowed MsgType = 71 // EscrowedReply
)

// MaxEscrowScreen bounds EscrowReq.Screen: a full frame at the largest
// pane size with every cell styled fits.
const MaxEscrowScreen = 8 << 20

// EscrowReq (MsgEscrow) hands a pane's PTY master back to a host, with
// the identity of the pane's leader as the client last saw it and the
// screen it last drew. The frame carries exactly one fd, the master.
type EscrowReq struct {
	Pane     string `json:"pane"`
	Pid      int    `json:"pid"`
	PidStart uint64 `json:"pid_start"`
	BootID   string `json:"boot_id,omitempty"` // "" when the client does not know it
	// Screen is a full screen frame (the binary body of MsgScreen), the
	// picture the new host's screen starts from; empty for a blank one.
	Screen []byte `json:"screen,omitempty"`

	// Fds are the descriptors that came with the frame (not JSON): the
	// host's dispatch fills them in, and whoever handles the request owns
	// and closes them (CloseFds).
	Fds []int `json:"-"`
}

// MsgType implements Message.
func (EscrowReq) MsgType() MsgType { return MsgEscrow }

// CloseFds closes the descriptors still held; idempotent.
func (r *EscrowReq) CloseFds() {
	CloseFds(r.Fds)
	r.Fds = nil
}

// Validate checks the pane, the identity and the descriptor count.
func (r *EscrowReq) Validate() error {
	if err := validRef(r.Pane); err != nil {
		return err
	}
	if r.Pid <= 0 {
		return Invalid("pid", "%d is not a process id; give the pid of the pane whose terminal you hand back", r.Pid)
	}
	if len(r.BootID) > MaxPaneRefLen || hasControl(r.BootID) {
		return Invalid("boot_id", "give the boot id as /proc/sys/kernel/random/boot_id has it")
	}
	if len(r.Screen) > MaxEscrowScreen {
		return Invalid("screen", "%d bytes is over the limit of %d", len(r.Screen), MaxEscrowScreen)
	}
	if len(r.Fds) != 1 {
		return Invalid("fd", "got %d file descriptors; send exactly one, the pane's PTY master (over a unix socket)", len(r.Fds))
	}
	return nil
}

// EscrowScreen decodes Screen; nil when there is none.
func (r *EscrowReq) EscrowScreen() (*ScreenFrame, error) {
	if len(r.Screen) == 0 {
		return nil, nil
	}
	m, err := DecodeMessage(MsgScreen, r.Screen)
	if err != nil {
		return nil, Invalid("screen", "%v", err)
	}
	f := m.(*ScreenFrame)
	if !f.Full {
		return nil, Invalid("screen", "send a full frame, not the changed rows")
	}
	return f, nil
}

// EscrowedReply (MsgEscrowed) answers EscrowReq: the pane as the host now
// runs it. Existing means the host already ran the pane (another client
// handed it back first, or the host never lost it): the client's master
// was not needed, and the client closes its copy either way.
type EscrowedReply struct {
	Pane     PaneInfo `json:"pane"`
	Existing bool     `json:"existing,omitempty"`
}

// MsgType implements Message.
func (EscrowedReply) MsgType() MsgType { return MsgEscrowed }

// EscrowHolder is a client that holds a copy of a pane's PTY master, as
// host status shows it: were the host to die, this client would keep the
// pane's terminal open and hand it to the next host.
type EscrowHolder struct {
	Pane   string `json:"pane"`
	Client string `json:"client"` // the program name from its hello
	Pid    int    `json:"pid"`    // the client's pid from its hello
}

// String is "p3 by clowder (pid 4242)".
func (e EscrowHolder) String() string {
	return fmt.Sprintf("%s by %s (pid %d)", e.Pane, e.Client, e.Pid)
}
