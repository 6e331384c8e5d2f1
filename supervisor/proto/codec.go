// This file maps message types to body types and back: JSON for control
// messages, the binary encodings of output.go and screen.go for
// output chunks, screen frames and history rows.

package proto

import (
	"encoding/json"
	"errors"
	"fmt"
)

// Message is a typed frame body. Every body type answers its MsgType with a
// value receiver, so both T and *T are Messages.
type Message interface {
	MsgType() MsgType
}

// binaryAppender is implemented by bodies with a binary encoding.
type binaryAppender interface {
	appendBody(dst []byte) ([]byte, error)
}

// binaryDecoder is implemented by pointers to bodies with a binary encoding.
type binaryDecoder interface {
	decodeBody(b []byte) error
}

// ErrUnknownType is returned by DecodeMessage for a type this build does not
// define; a host answers it with CodeUnknownType.
var ErrUnknownType = errors.New("unknown message type")

// msgBodies makes a fresh body for each defined type.
var msgBodies = map[MsgType]func() Message{
	MsgHello: func() Message { return new(HelloReq) }, MsgWelcome: func() Message { return new(WelcomeReply) },
	MsgOK: func() Message { return new(OKReply) }, MsgError: func() Message { return new(ErrorReply) },
	MsgList: func() Message { return new(ListReq) }, MsgSpawn: func() Message { return new(SpawnReq) },
	MsgSubscribe: func() Message { return new(SubscribeReq) }, MsgUnsubscribe: func() Message { return new(UnsubscribeReq) },
	MsgInput: func() Message { return new(InputReq) }, MsgPaste: func() Message { return new(PasteReq) },
	MsgResize: func() Message { return new(ResizeReq) }, MsgSignal: func() Message { return new(SignalReq) },
	MsgKill: func() Message { return new(KillReq) }, MsgRemove: func() Message { return new(RemoveReq) },
	MsgCapture: func() Message { return new(CaptureReq) }, MsgHistory: func() Message { return new(HistoryReq) },
	MsgWait: func() Message { return new(WaitReq) }, MsgEvents: func() Message { return new(EventsReq) },
	MsgHostStatus: func() Message { return new(HostStatusReq) }, MsgHostStop: func() Message { return new(HostStopReq) },
	MsgRename: func() Message { return new(RenameReq) }, MsgSetColors: func() Message { return new(SetColorsReq) },
	MsgRespawn: func() Message { return new(RespawnReq) }, MsgUpgrade: func() Message { return new(UpgradeReq) }, MsgRespawned: func() Message { return new(RespawnedReply) },
	MsgHook:      func() Message { return new(HookReq) },
	MsgAdoptTmux: func() Message { return new(AdoptTmuxReq) }, MsgAdopted: func() Message { return new(AdoptedReply) },
	MsgEscrow: func() Message { return new(EscrowReq) }, MsgEscrowed: func() Message { return new(EscrowedReply) },
	MsgPaneList: func() Message { return new(PaneListReply) }, MsgSpawned: func() Message { return new(SpawnedReply) },
	MsgSubscribed: func() Message { return new(SubscribedReply) }, MsgCaptured: func() Message { return new(CapturedReply) },
	MsgCapturedText: func() Message { return new(CapturedText) },
	MsgHistoryRows:  func() Message { return new(HistoryRows) }, MsgWaitDone: func() Message { return new(WaitDoneReply) },
	MsgHostInfo: func() Message { return new(HostInfoReply) }, MsgOutput: func() Message { return new(OutputChunk) },
	MsgScreen: func() Message { return new(ScreenFrame) }, MsgEvent: func() Message { return new(PaneEvent) },
}

// EncodeMessage returns m's body bytes: binary for output chunks, screen
// frames and history rows, JSON for every other type (written by hand,
// without reflection, for the bodies of jsonmsgs.go).
func EncodeMessage(m Message) ([]byte, error) {
	if b, ok := m.(binaryAppender); ok {
		body, err := b.appendBody(nil)
		if err != nil {
			return nil, fmt.Errorf("encode %s body: %w", m.MsgType(), err)
		}
		return body, nil
	}
	if a, ok := m.(jsonAppender); ok {
		return a.appendJSON(nil), nil // jsonfast.go: no reflection
	}
	body, err := json.Marshal(m)
	if err != nil {
		return nil, fmt.Errorf("encode %s body: %w", m.MsgType(), err)
	}
	return body, nil
}

// DecodeMessage decodes a body of type t into a fresh pointer to its body
// type (*SpawnReq for MsgSpawn, ...). Unknown JSON fields are ignored and an
// empty JSON body decodes as {}. Binary bodies are checked in full.
// OutputChunk.Data aliases body; no other decoded value does.
func DecodeMessage(t MsgType, body []byte) (Message, error) {
	mk, ok := msgBodies[t]
	if !ok {
		return nil, fmt.Errorf("decode body: %w %d", ErrUnknownType, uint16(t))
	}
	m := mk()
	if d, ok := m.(binaryDecoder); ok {
		if err := d.decodeBody(body); err != nil {
			return nil, fmt.Errorf("decode %s body: %w", t, err)
		}
		return m, nil
	}
	if len(body) == 0 {
		return m, nil
	}
	if d, ok := m.(jsonDecoder); ok {
		if d.decodeJSON(body) {
			return m, nil // jsonfast.go: no reflection
		}
		m = mk() // not the form encoding/json writes: let it decide
	}
	if err := json.Unmarshal(body, m); err != nil {
		return nil, fmt.Errorf("decode %s body: %w", t, boundQuote(err))
	}
	return m, nil
}

// maxQuoted is how much of a wrong value a decode error quotes.
const maxQuoted = 64

// boundQuote shortens the value encoding/json quotes in a type error: it
// quotes the whole literal, and a peer's million-digit number would go
// whole into the error reply and the host's log.
func boundQuote(err error) error {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		te.Value = shorten(te.Value)
	}
	return err
}

// NewFrame encodes m into a frame with the given request id and flags; the
// version is left zero for the writer to fill in.
func NewFrame(reqID uint32, flags Flags, m Message) (Frame, error) {
	body, err := EncodeMessage(m)
	if err != nil {
		return Frame{}, err
	}
	return Frame{Type: m.MsgType(), Flags: flags, ReqID: reqID, Body: body}, nil
}

// Message decodes f's body by f.Type (see DecodeMessage).
func (f Frame) Message() (Message, error) { return DecodeMessage(f.Type, f.Body) }

// MsgType methods: each body type names its message type.

func (HelloReq) MsgType() MsgType        { return MsgHello }
func (WelcomeReply) MsgType() MsgType    { return MsgWelcome }
func (OKReply) MsgType() MsgType         { return MsgOK }
func (ErrorReply) MsgType() MsgType      { return MsgError }
func (ListReq) MsgType() MsgType         { return MsgList }
func (SpawnReq) MsgType() MsgType        { return MsgSpawn }
func (SubscribeReq) MsgType() MsgType    { return MsgSubscribe }
func (UnsubscribeReq) MsgType() MsgType  { return MsgUnsubscribe }
func (InputReq) MsgType() MsgType        { return MsgInput }
func (PasteReq) MsgType() MsgType        { return MsgPaste }
func (ResizeReq) MsgType() MsgType       { return MsgResize }
func (SignalReq) MsgType() MsgType       { return MsgSignal }
func (KillReq) MsgType() MsgType         { return MsgKill }
func (RemoveReq) MsgType() MsgType       { return MsgRemove }
func (CaptureReq) MsgType() MsgType      { return MsgCapture }
func (HistoryReq) MsgType() MsgType      { return MsgHistory }
func (WaitReq) MsgType() MsgType         { return MsgWait }
func (EventsReq) MsgType() MsgType       { return MsgEvents }
func (HostStatusReq) MsgType() MsgType   { return MsgHostStatus }
func (HostStopReq) MsgType() MsgType     { return MsgHostStop }
func (RenameReq) MsgType() MsgType       { return MsgRename }
func (PaneListReply) MsgType() MsgType   { return MsgPaneList }
func (SpawnedReply) MsgType() MsgType    { return MsgSpawned }
func (SubscribedReply) MsgType() MsgType { return MsgSubscribed }
func (CapturedReply) MsgType() MsgType   { return MsgCaptured }
func (HistoryRows) MsgType() MsgType     { return MsgHistoryRows }
func (CapturedText) MsgType() MsgType    { return MsgCapturedText }
func (WaitDoneReply) MsgType() MsgType   { return MsgWaitDone }
func (HostInfoReply) MsgType() MsgType   { return MsgHostInfo }
func (OutputChunk) MsgType() MsgType     { return MsgOutput }
func (ScreenFrame) MsgType() MsgType     { return MsgScreen }
func (PaneEvent) MsgType() MsgType       { return MsgEvent }
