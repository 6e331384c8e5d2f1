// This file holds the vocabulary of protocol v1 (docs/protocol.md): the
// version, the message types and the header flags. The framing lives in
// wire.go, the typed bodies in msgs.go, output.go and
// screen.go, the handshake in hello.go.
//
// Nothing in the proto*/wire*/fdpass* files knows about panes, processes or
// the host's state: they turn typed messages into bytes and back, and
// nothing else.

package proto

import (
	"fmt"
	"strconv"
	"strings"
)

// Version is a protocol version. Majors are incompatible with each
// other; a minor only adds (optional JSON fields, message types,
// capabilities), so a peer of minor m understands every minor below m.
type Version struct {
	Major uint8 `json:"major"`
	Minor uint8 `json:"minor"`
}

// The versions this build speaks: MinVersion up to MaxVersion inclusive.
var (
	MinVersion = Version{Major: 1, Minor: 0}
	MaxVersion = Version{Major: 1, Minor: 0}
)

// String gives "major.minor".
func (v Version) String() string {
	return strconv.Itoa(int(v.Major)) + "." + strconv.Itoa(int(v.Minor))
}

// Less reports whether v is older than o.
func (v Version) Less(o Version) bool {
	if v.Major != o.Major {
		return v.Major < o.Major
	}
	return v.Minor < o.Minor
}

// IsZero reports whether v is the zero (unset) version; no protocol has
// major 0.
func (v Version) IsZero() bool { return v == Version{} }

// MsgType says what a frame's body holds. Values are part of the wire format
// and never reused; 0 is invalid.
type MsgType uint16

// Handshake and generic replies.
const (
	MsgHello   MsgType = 1 // client → host, first frame: HelloReq
	MsgWelcome MsgType = 2 // host → client: WelcomeReply, the version chosen
	MsgOK      MsgType = 3 // host → client: OKReply, success with no data
	MsgError   MsgType = 4 // host → client: ErrorReply
)

// Requests, client → host.
const (
	MsgList        MsgType = 16 // ListReq → MsgPaneList
	MsgSpawn       MsgType = 17 // SpawnReq → MsgSpawned
	MsgSubscribe   MsgType = 18 // SubscribeReq → MsgSubscribed, then pushes
	MsgUnsubscribe MsgType = 19 // UnsubscribeReq → MsgOK
	MsgInput       MsgType = 20 // InputReq → MsgOK
	MsgPaste       MsgType = 21 // PasteReq → MsgOK
	MsgResize      MsgType = 22 // ResizeReq → MsgOK
	MsgSignal      MsgType = 23 // SignalReq → MsgOK
	MsgKill        MsgType = 24 // KillReq → MsgOK
	MsgRemove      MsgType = 25 // RemoveReq → MsgOK
	MsgCapture     MsgType = 26 // CaptureReq → MsgCaptured
	MsgHistory     MsgType = 27 // HistoryReq → MsgHistoryRows
	MsgWait        MsgType = 28 // WaitReq → MsgWaitDone
	MsgEvents      MsgType = 29 // EventsReq → MsgOK, then MsgEvent pushes
	MsgHostStatus  MsgType = 30 // HostStatusReq → MsgHostInfo
	MsgHostStop    MsgType = 31 // HostStopReq → MsgOK
	MsgRename      MsgType = 32 // RenameReq → MsgOK (minor 1.0 addition; unknown to no 1.0 host)
)

// Replies with data, host → client.
const (
	MsgPaneList    MsgType = 64 // PaneListReply
	MsgSpawned     MsgType = 65 // SpawnedReply
	MsgSubscribed  MsgType = 66 // SubscribedReply (+ PTY master fd if asked)
	MsgCaptured    MsgType = 67 // CapturedReply
	MsgHistoryRows MsgType = 68 // HistoryRows (binary body)
	// MsgCapturedText answers a CaptureReq with TextBody (binary body).
	MsgCapturedText MsgType = 83
	MsgWaitDone     MsgType = 69 // WaitDoneReply
	MsgHostInfo     MsgType = 70 // HostInfoReply
)

// Pushes, host → client, on a subscription's request id.
const (
	MsgOutput MsgType = 96 // OutputChunk (binary body)
	MsgScreen MsgType = 97 // ScreenFrame (binary body)
	MsgEvent  MsgType = 98 // PaneEvent
)

// msgNames is the String table; every defined MsgType has an entry, and
// TestGoldenCoversEveryType keeps it in step with msgBodies.
var msgNames = map[MsgType]string{
	MsgHello: "hello", MsgWelcome: "welcome", MsgOK: "ok", MsgError: "error",
	MsgList: "list", MsgSpawn: "spawn", MsgSubscribe: "subscribe",
	MsgUnsubscribe: "unsubscribe", MsgInput: "input", MsgPaste: "paste",
	MsgResize: "resize", MsgSignal: "signal", MsgKill: "kill",
	MsgRemove: "remove", MsgCapture: "capture", MsgHistory: "history",
	MsgWait: "wait", MsgEvents: "events", MsgHostStatus: "host-status",
	MsgHostStop: "host-stop", MsgRename: "rename", MsgSetColors: "set-colors", MsgHook: "hook", MsgEscrow: "escrow", MsgEscrowed: "escrowed", MsgPaneList: "pane-list", MsgSpawned: "spawned",
	MsgSubscribed: "subscribed", MsgCaptured: "captured",
	MsgHistoryRows: "history-rows", MsgWaitDone: "wait-done",
	MsgHostInfo: "host-info", MsgOutput: "output", MsgScreen: "screen",
	MsgEvent: "event", MsgRespawn: "respawn", MsgRespawned: "respawned",
	MsgAdoptTmux: "adopt-tmux", MsgAdopted: "adopted", MsgUpgrade: "upgrade",
	MsgCapturedText: "captured-text",
}

// String gives the type's name as docs/protocol.md spells it, or
// "MsgType(N)" for a type this build does not know.
func (t MsgType) String() string {
	if s, ok := msgNames[t]; ok {
		return s
	}
	return "MsgType(" + strconv.Itoa(int(t)) + ")"
}

// Known reports whether this build defines t.
func (t MsgType) Known() bool {
	_, ok := msgNames[t]
	return ok
}

// Flags are the header's flag bits. Bits not defined here are reserved: a
// sender sets them to zero and a receiver ignores them (a later minor may
// define them), but they are kept so a frame re-encodes to the same bytes.
type Flags uint16

const (
	// FlagReply marks a frame that answers the request with the same id.
	// Exactly one reply (with FlagReply) ends a request.
	FlagReply Flags = 1 << 0
	// FlagPush marks a frame the host sends on its own on a subscription;
	// its request id is the id of the subscribe or events request.
	FlagPush Flags = 1 << 1
	// FlagEnd marks the last push of a subscription (the pane is gone or
	// the client unsubscribed); no frame with that id follows.
	FlagEnd Flags = 1 << 2
)

// String lists the set flags, e.g. "reply|end", "0" when none is set.
func (f Flags) String() string {
	if f == 0 {
		return "0"
	}
	var parts []string
	for _, fl := range []struct {
		bit  Flags
		name string
	}{{FlagReply, "reply"}, {FlagPush, "push"}, {FlagEnd, "end"}} {
		if f&fl.bit != 0 {
			parts = append(parts, fl.name)
			f &^= fl.bit
		}
	}
	if f != 0 {
		parts = append(parts, fmt.Sprintf("%#x", uint16(f)))
	}
	return strings.Join(parts, "|")
}
