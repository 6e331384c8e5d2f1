package proto

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"sync"
	"testing"
)

func TestWireStreamRoundTripsFrames(t *testing.T) {
	var buf bytes.Buffer
	w := NewFrameWriter(&buf)
	var want []Frame
	for _, c := range goldenCases() {
		f, err := NewFrame(c.reqID, c.flags, c.msg)
		if err != nil {
			t.Fatal(err)
		}
		if err := w.WriteFrame(f); err != nil {
			t.Fatal(err)
		}
		f.Version = MaxVersion
		want = append(want, f)
	}
	r := NewFrameReader(&buf)
	for i, wf := range want {
		got, err := r.ReadFrame()
		if err != nil {
			t.Fatalf("frame %d: %v", i, err)
		}
		if got.Type != wf.Type || got.ReqID != wf.ReqID || got.Flags != wf.Flags ||
			got.Version != wf.Version || !bytes.Equal(got.Body, wf.Body) {
			t.Fatalf("frame %d: got %+v want %+v", i, got, wf)
		}
	}
	if _, err := r.ReadFrame(); err != io.EOF {
		t.Fatalf("after the last frame: got %v, want io.EOF", err)
	}
}

func TestWireMaxFrameEnforcedOnWrite(t *testing.T) {
	var buf bytes.Buffer
	w := NewFrameWriter(&buf)
	w.SetMaxFrame(100)
	err := w.WriteFrame(Frame{Type: MsgInput, Body: make([]byte, 81)})
	if !errors.Is(err, ErrFrameTooLarge) || !strings.Contains(err.Error(), "101 bytes > 100") {
		t.Fatalf("got %v, want ErrFrameTooLarge naming the sizes", err)
	}
	if buf.Len() != 0 {
		t.Fatalf("%d bytes written for a refused frame", buf.Len())
	}
	if err := w.WriteFrame(Frame{Type: MsgInput, Body: make([]byte, 80)}); err != nil {
		t.Fatalf("frame at the limit: %v", err)
	}
}

func TestWireMaxFrameEnforcedOnRead(t *testing.T) {
	b, _ := AppendFrame(nil, Frame{Version: MaxVersion, Type: MsgInput, Body: make([]byte, 200)}, WireMaxFrame)
	r := NewFrameReader(bytes.NewReader(b))
	r.SetMaxFrame(100)
	if _, err := r.ReadFrame(); !errors.Is(err, ErrFrameTooLarge) {
		t.Fatalf("got %v, want ErrFrameTooLarge", err)
	}
	huge := append([]byte(nil), b[:WireHeaderSize]...)
	huge[16], huge[17], huge[18], huge[19] = 0xFF, 0xFF, 0xFF, 0xFF
	if _, err := NewFrameReader(bytes.NewReader(huge)).ReadFrame(); !errors.Is(err, ErrFrameTooLarge) {
		t.Fatalf("4 GiB body: got %v, want ErrFrameTooLarge", err)
	}
}

func TestWireReadErrors(t *testing.T) {
	good, _ := AppendFrame(nil, Frame{Version: MaxVersion, Type: MsgOK, Body: []byte("{}")}, WireMaxFrame)
	withFds := bytes.Clone(good)
	withFds[11] = 1
	v2 := bytes.Clone(good)
	v2[4] = 2
	tests := []struct {
		name string
		in   []byte
		want error
	}{
		{"bad magic", append([]byte("HTTP"), good[4:]...), ErrBadMagic},
		{"header cut short", good[:7], io.ErrUnexpectedEOF},
		{"body cut short", good[:len(good)-1], io.ErrUnexpectedEOF},
		{"fds on a plain stream", withFds, ErrFdsUnsupported},
		{"other major", v2, ErrVersion},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := NewFrameReader(bytes.NewReader(tc.in)).ReadFrame()
			if !errors.Is(err, tc.want) {
				t.Fatalf("got %v, want %v", err, tc.want)
			}
		})
	}
}

func TestWireHandshakeFramesReadInAnyMajor(t *testing.T) {
	for _, typ := range []MsgType{MsgHello, MsgWelcome, MsgError} {
		b, _ := AppendFrame(nil, Frame{Version: Version{7, 3}, Type: typ, Body: []byte("{}")}, WireMaxFrame)
		f, err := NewFrameReader(bytes.NewReader(b)).ReadFrame()
		if err != nil || f.Version != (Version{7, 3}) {
			t.Fatalf("%s in major 7: %v, version %s", typ, err, f.Version)
		}
	}
}

func TestWirePlainStreamRefusesToWriteFds(t *testing.T) {
	var buf bytes.Buffer
	err := NewFrameWriter(&buf).WriteFrame(Frame{Type: MsgSubscribed, Body: []byte("{}"), Fds: []int{0}})
	if !errors.Is(err, ErrFdsUnsupported) || buf.Len() != 0 {
		t.Fatalf("got %v and %d bytes, want ErrFdsUnsupported and nothing written", err, buf.Len())
	}
}

func TestWireTooManyFdsRefused(t *testing.T) {
	_, err := AppendFrame(nil, Frame{Type: MsgOK, Fds: make([]int, WireMaxFds+1)}, WireMaxFrame)
	if !errors.Is(err, ErrTooManyFds) {
		t.Fatalf("got %v, want ErrTooManyFds", err)
	}
}

// TestWireConcurrentWritesDoNotInterleave writes from many goroutines into
// a pipe and reads every frame back whole.
func TestWireConcurrentWritesDoNotInterleave(t *testing.T) {
	pr, pw := io.Pipe()
	w := NewFrameWriter(pw)
	const writers, each = 8, 50
	var wg sync.WaitGroup
	for g := range writers {
		wg.Go(func() {
			for i := range each {
				body := bytes.Repeat([]byte{byte('a' + g)}, 100+i)
				if err := w.WriteFrame(Frame{Type: MsgInput, ReqID: uint32(g), Body: body}); err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	go func() { wg.Wait(); _ = pw.Close() }()
	r := NewFrameReader(pr)
	for n := 0; n < writers*each; n++ {
		f, err := r.ReadFrame()
		if err != nil {
			t.Fatalf("frame %d: %v", n, err)
		}
		if bytes.Count(f.Body, []byte{byte('a' + f.ReqID)}) != len(f.Body) {
			t.Fatalf("frame %d from writer %d is interleaved", n, f.ReqID)
		}
	}
}

func TestWireTypeAndFlagNames(t *testing.T) {
	tests := []struct{ got, want string }{
		{MsgSpawn.String(), "spawn"},
		{MsgHostStop.String(), "host-stop"},
		{MsgType(999).String(), "MsgType(999)"},
		{(FlagReply | FlagEnd).String(), "reply|end"},
		{Flags(0).String(), "0"},
		{(FlagPush | 0x100).String(), "push|0x100"},
		{Version{1, 4}.String(), "1.4"},
	}
	for _, tc := range tests {
		if tc.got != tc.want {
			t.Errorf("got %q, want %q", tc.got, tc.want)
		}
	}
}

func TestWireDecodeUnknownTypeIsTyped(t *testing.T) {
	if _, err := DecodeMessage(MsgType(999), nil); !errors.Is(err, ErrUnknownType) {
		t.Fatalf("got %v, want ErrUnknownType", err)
	}
}

func TestWireJSONIgnoresUnknownFieldsAndEmptyBody(t *testing.T) {
	m, err := DecodeMessage(MsgResize, []byte(`{"pane":"p1","cols":80,"rows":24,"future":{"x":1}}`))
	if err != nil || *m.(*ResizeReq) != (ResizeReq{Pane: "p1", Cols: 80, Rows: 24}) {
		t.Fatalf("got %+v, %v", m, err)
	}
	if m, err := DecodeMessage(MsgList, nil); err != nil || m.(*ListReq).Panes != nil {
		t.Fatalf("empty body: got %+v, %v", m, err)
	}
}
