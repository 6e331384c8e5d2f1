// This file is the protocol v1 handshake (docs/protocol.md, "Handshake"):
// the client's first frame is hello with its version range and
// capabilities; the host answers welcome with the version it picked and
// the capabilities both sides have, or an error naming both ranges.

package proto

import (
	"errors"
	"fmt"
	"slices"
)

// Capabilities a peer may offer in HelloReq.Caps / WelcomeReply.Caps.
const (
	CapFdPassing = "fd-passing" // frames may carry fds (unix socket only)
	CapScreen    = "screen"     // the client renders screen frames
	CapRaw       = "raw"        // the client reads raw output chunks
	CapEvents    = "events"     // the client subscribes to pane events
	// CapPasteData: paste takes its text as bytes (data) and in parts
	// (part), so a paste of any size and any bytes arrives as sent.
	CapPasteData = "paste-data"
)

// HelloReq (MsgHello) is the client's first frame. Its JSON layout is the
// same in every major, so any host can read it and answer a mismatch.
type HelloReq struct {
	Min    Version  `json:"min"`
	Max    Version  `json:"max"`
	Caps   []string `json:"caps,omitempty"`
	Client string   `json:"client,omitempty"` // program and build, for the host log
	Pid    int      `json:"pid,omitempty"`
}

// WelcomeReply (MsgWelcome) answers HelloReq: the version both sides now
// speak and the capabilities both have.
type WelcomeReply struct {
	Version Version  `json:"version"`
	Caps    []string `json:"caps,omitempty"`
	Host    string   `json:"host,omitempty"` // host build, for messages
	Pid     int      `json:"pid,omitempty"`
}

// ErrNoHello is returned by AcceptHello when the first frame is not hello.
var ErrNoHello = errors.New("first frame is not hello")

// Negotiate picks the newest version in both the client's range and
// [lo, hi]. A mismatch is an *ErrorReply with CodeVersion whose message
// names both ranges.
func Negotiate(h HelloReq, lo, hi Version) (Version, error) {
	if h.Max.Less(h.Min) || h.Min.IsZero() {
		return Version{}, &ErrorReply{Code: CodeBadRequest,
			Message: fmt.Sprintf("hello has an empty version range %s-%s", h.Min, h.Max)}
	}
	pick := hi
	if h.Max.Less(pick) {
		pick = h.Max
	}
	if pick.Less(h.Min) || pick.Less(lo) {
		return Version{}, &ErrorReply{Code: CodeVersion, Message: fmt.Sprintf(
			"protocol version mismatch: client speaks %s-%s, host speaks %s-%s; "+
				"run the same clowder build for both (clowder host stop, then retry)",
			h.Min, h.Max, lo, hi)}
	}
	return pick, nil
}

// commonCaps returns the capabilities in both lists, in a's order; fd
// passing is dropped when the transport cannot carry fds.
func commonCaps(a, b []string, fds bool) []string {
	var out []string
	for _, c := range a {
		if slices.Contains(b, c) && (fds || c != CapFdPassing) && !slices.Contains(out, c) {
			out = append(out, c)
		}
	}
	return out
}

// AcceptHello runs the host side of the handshake on c: it reads the first
// frame, negotiates against [lo, hi], and writes either welcome (with
// w.Version and w.Caps filled in: w.Caps goes in as the host's
// capabilities and comes out as the common ones) or an error reply. On
// success c speaks the chosen version. The returned error is the one sent
// to the client, or a transport error. The host runs it in two steps
// (ReadHello, Greeting.Answer) to register the connection in between;
// the fake hosts of the clients' tests run it whole.
func AcceptHello(c FrameConn, lo, hi Version, w WelcomeReply) (HelloReq, WelcomeReply, error) {
	g, err := ReadHello(c, lo, hi, w)
	if err != nil {
		return g.Hello, g.Welcome, err
	}
	return g.Hello, g.Welcome, g.Answer(c)
}

// Greeting is a hello read and agreed to, its welcome not yet sent: a
// host that must not welcome a client at some moment (an upgrade in
// place telling its connections) decides between ReadHello and Answer.
type Greeting struct {
	Hello   HelloReq
	Welcome WelcomeReply // Version and Caps filled in
	reqID   uint32
}

// ReadHello is AcceptHello up to the welcome: it reads the first frame
// and negotiates; a refusal is answered and returned as AcceptHello's.
func ReadHello(c FrameConn, lo, hi Version, w WelcomeReply) (Greeting, error) {
	f, err := c.ReadFrame()
	if err != nil {
		return Greeting{Welcome: w}, fmt.Errorf("handshake: %w", err)
	}
	CloseFds(f.Fds)
	h, err := helloBody(f)
	if err == nil {
		w.Version, err = Negotiate(h, lo, hi)
	}
	if err != nil {
		return Greeting{Hello: h, Welcome: w}, replyError(c, f.ReqID, err)
	}
	w.Caps = commonCaps(h.Caps, w.Caps, c.CarriesFds())
	return Greeting{Hello: h, Welcome: w, reqID: f.ReqID}, nil
}

// Answer sends g's welcome: from then on c speaks the chosen version.
func (g Greeting) Answer(c FrameConn) error {
	c.SetVersion(g.Welcome.Version)
	if err := writeMessage(c, g.reqID, FlagReply, g.Welcome); err != nil {
		return fmt.Errorf("handshake: %w", err)
	}
	return nil
}

// Refuse answers g's hello with e instead of a welcome (a host that is
// stopping).
func (g Greeting) Refuse(c FrameConn, e *ErrorReply) error {
	c.SetVersion(g.Welcome.Version)
	if err := writeMessage(c, g.reqID, FlagReply, e); err != nil {
		return fmt.Errorf("handshake: %w", err)
	}
	return nil
}

// helloBody decodes a first frame that must be hello.
func helloBody(f Frame) (HelloReq, error) {
	if f.Type != MsgHello {
		return HelloReq{}, &ErrorReply{Code: CodeBadRequest,
			Message: fmt.Sprintf("%v: got %s; a client must send hello first", ErrNoHello, f.Type)}
	}
	m, err := f.Message()
	if err != nil {
		return HelloReq{}, &ErrorReply{Code: CodeBadRequest, Message: err.Error()}
	}
	return *m.(*HelloReq), nil
}

// replyError sends err to the peer as an error reply (an *ErrorReply as is,
// anything else as CodeInternal) and returns it.
func replyError(c FrameConn, reqID uint32, err error) error {
	var e *ErrorReply
	if !errors.As(err, &e) {
		e = &ErrorReply{Code: CodeInternal, Message: err.Error()}
	}
	if werr := writeMessage(c, reqID, FlagReply, e); werr != nil {
		return fmt.Errorf("handshake: %w (and sending it failed: %v)", err, werr)
	}
	return fmt.Errorf("handshake: %w", err)
}

// Hello runs the client side of the handshake on c with request id 1: it
// sends h and reads the reply. On welcome, c speaks the chosen version; an
// error reply comes back as *ErrorReply.
func Hello(c FrameConn, h HelloReq) (WelcomeReply, error) {
	if err := writeMessage(c, 1, 0, h); err != nil {
		return WelcomeReply{}, fmt.Errorf("handshake: %w", err)
	}
	f, err := c.ReadFrame()
	if err != nil {
		return WelcomeReply{}, fmt.Errorf("handshake: %w", err)
	}
	CloseFds(f.Fds)
	m, err := f.Message()
	if err != nil {
		return WelcomeReply{}, fmt.Errorf("handshake: %w", err)
	}
	switch r := m.(type) {
	case *WelcomeReply:
		c.SetVersion(r.Version)
		return *r, nil
	case *ErrorReply:
		return WelcomeReply{}, fmt.Errorf("handshake: %w", r)
	default:
		return WelcomeReply{}, fmt.Errorf("handshake: host answered hello with %s", f.Type)
	}
}

// writeMessage encodes m and writes it as one frame.
func writeMessage(c FrameConn, reqID uint32, flags Flags, m Message) error {
	f, err := NewFrame(reqID, flags, m)
	if err != nil {
		return err
	}
	return c.WriteFrame(f)
}
