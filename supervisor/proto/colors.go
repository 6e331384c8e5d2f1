// This file defines the set-colors request (docs/protocol.md, "set-colors"):
// the colours of a client's terminal, which the host uses to answer the
// colour queries (OSC 10, 11, 12, 4) of the programs in its panes.

package proto

// MsgSetColors is the set-colors request: SetColorsReq → MsgOK.
const MsgSetColors MsgType = 33

// SetColorsReq (MsgSetColors) tells the host the colours of the client's
// terminal. It replaces whatever an earlier request said (the newest
// client wins, host-wide): every pane answers colour queries with them
// from then on, new panes included. A colour is "#rrggbb"; "" (or absent)
// is unknown, and the host answers its headless default for it.
type SetColorsReq struct {
	Foreground string `json:"foreground,omitempty"`
	Background string `json:"background,omitempty"`
	Cursor     string `json:"cursor,omitempty"`
	// Palette holds palette entries from 0 up (at most 256); "" is unknown
	// (the host answers the standard xterm colour).
	Palette []string `json:"palette,omitempty"`
}

// MsgType implements Message.
func (SetColorsReq) MsgType() MsgType { return MsgSetColors }
