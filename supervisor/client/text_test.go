package client

import (
	"reflect"
	"testing"

	"clowder/supervisor/proto"
)

func TestClientTextFilterStripsControlAtEverySplit(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"plain", "hello\n", "hello\n"},
		{"crlf", "a\r\nb\r\n", "a\nb\n"},
		{"lone cr is a new line", "10%\r20%\r\n", "10%\n20%\n"},
		{"sgr", "\x1b[1;31mred\x1b[0m\n", "red\n"},
		{"cursor moves", "\x1b[2J\x1b[H\x1b[?25lx", "x"},
		{"osc title bel", "\x1b]0;title\x07text", "text"},
		{"osc st", "\x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\", "link"},
		{"dcs", "\x1bP1$r0m\x1b\\ok", "ok"},
		{"charset", "\x1b(Bx\x1b)0y", "xy"},
		{"keypad", "\x1b=a\x1b>b", "ab"},
		{"controls dropped, tab kept", "a\x07\bb\tc", "ab\tc"},
		{"utf-8 kept", "héllo 世界", "héllo 世界"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for cut := 0; cut <= len(tt.in); cut++ {
				var f TextFilter
				got := f.Append(nil, []byte(tt.in[:cut]))
				got = f.Append(got, []byte(tt.in[cut:]))
				if string(got) != tt.want {
					t.Fatalf("split at %d: %q, want %q", cut, got, tt.want)
				}
			}
		})
	}
}

func TestClientLastLines(t *testing.T) {
	tests := []struct {
		in   string
		n    int
		want string
	}{
		{"a\nb\nc\n", 2, "b\nc\n"},
		{"a\nb\nc", 2, "b\nc"},
		{"a\nb\n", 5, "a\nb\n"},
		{"a\nb\n", 0, "a\nb\n"},
		{"", 3, ""},
	}
	for _, tt := range tests {
		if got := string(LastLines([]byte(tt.in), tt.n)); got != tt.want {
			t.Errorf("LastLines(%q, %d) = %q, want %q", tt.in, tt.n, got, tt.want)
		}
	}
}

func TestClientExitStatusMapsReasons(t *testing.T) {
	tests := []struct {
		name string
		info proto.PaneInfo
		want int
	}{
		{"completed", proto.PaneInfo{ExitReason: "completed"}, 0},
		{"failed", proto.PaneInfo{ExitReason: "failed", ExitCode: 3}, 3},
		{"signalled TERM", proto.PaneInfo{ExitReason: "signalled", ExitSignal: "SIGTERM"}, 143},
		{"signalled short name", proto.PaneInfo{ExitReason: "signalled", ExitSignal: "INT"}, 130},
		{"killed without signal", proto.PaneInfo{ExitReason: "killed"}, 137},
		{"timeout", proto.PaneInfo{ExitReason: "timeout"}, 124},
		{"idle-timeout", proto.PaneInfo{ExitReason: "idle-timeout"}, 124},
		{"lost", proto.PaneInfo{ExitReason: "lost"}, 1},
	}
	for _, tt := range tests {
		if got := ExitStatus(tt.info); got != tt.want {
			t.Errorf("%s: ExitStatus = %d, want %d", tt.name, got, tt.want)
		}
	}
}

func TestClientMergeFramesKeepsNewestPicture(t *testing.T) {
	row := func(y uint16, s string) proto.FrameRow {
		return proto.FrameRow{Y: y, Cells: []proto.FrameCell{{Text: s, Width: 1}}}
	}
	full := &proto.ScreenFrame{Seq: 1, Cols: 2, Rows: 3, Full: true, Lines: []proto.FrameRow{row(0, "a"), row(1, "b"), row(2, "c")}}
	diff := &proto.ScreenFrame{Seq: 2, Cols: 2, Rows: 3, Cursor: proto.FrameCursor{X: 1}, Lines: []proto.FrameRow{row(1, "B")}}
	got := mergeFrames(full, diff)
	want := &proto.ScreenFrame{Seq: 2, Cols: 2, Rows: 3, Full: true, Cursor: proto.FrameCursor{X: 1},
		Lines: []proto.FrameRow{row(0, "a"), row(1, "B"), row(2, "c")}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("full+diff = %+v\nwant %+v", got, want)
	}
	d1 := &proto.ScreenFrame{Seq: 1, Cols: 2, Rows: 3, Lines: []proto.FrameRow{row(2, "x")}}
	d2 := &proto.ScreenFrame{Seq: 2, Cols: 2, Rows: 3, Lines: []proto.FrameRow{row(0, "y")}}
	if got := mergeFrames(d1, d2); got.Full || len(got.Lines) != 2 || got.Lines[0].Y != 0 || got.Lines[1].Y != 2 {
		t.Errorf("diff+diff = %+v", got)
	}
	resized := &proto.ScreenFrame{Seq: 3, Cols: 4, Rows: 3, Full: true}
	if got := mergeFrames(full, resized); got != resized {
		t.Error("a resized full frame must replace the queued one")
	}
}

func TestClientScreenFramesCoalesceForSlowConsumer(t *testing.T) {
	s := newSubscription(&Client{}, 9, 0)
	defer s.Close()
	for i := uint64(1); i <= 100; i++ {
		s.push(&proto.ScreenFrame{Seq: i, Cols: 2, Rows: 100, Lines: []proto.FrameRow{{Y: uint16(i - 1)}}})
	}
	s.push(&proto.OutputChunk{Seq: 0, Data: []byte("x")})
	var frames []*proto.ScreenFrame
	for m := range s.C {
		if c, ok := m.(*proto.OutputChunk); ok {
			if string(c.Data) != "x" {
				t.Fatalf("chunk %q", c.Data)
			}
			break
		}
		frames = append(frames, m.(*proto.ScreenFrame))
	}
	// The pump may have taken frame 1 before the rest arrived; everything
	// after it must have merged into one frame showing the newest picture.
	if n := len(frames); n == 0 || n > 2 || frames[n-1].Seq != 100 {
		t.Fatalf("%d screen frames delivered, last seq %d; want at most 2, the last at seq 100", n, frames[len(frames)-1].Seq)
	}
	rows := 0
	for _, f := range frames {
		rows += len(f.Lines)
	}
	if rows != 100 {
		t.Errorf("delivered frames carry %d dirty rows, want all 100", rows)
	}
}

func TestClientNewlineFilterAtEverySplit(t *testing.T) {
	tests := []struct{ in, want string }{
		{"a\r\nb\r\n", "a\nb\n"},
		{"progress\rdone\r\n", "progress\rdone\n"},
		{"\r\r\n", "\r\n"},
		{"end\r", "end\r"},
	}
	for _, tt := range tests {
		for cut := 0; cut <= len(tt.in); cut++ {
			var f NewlineFilter
			got := f.Append(nil, []byte(tt.in[:cut]))
			got = f.Flush(f.Append(got, []byte(tt.in[cut:])))
			if string(got) != tt.want {
				t.Errorf("%q split at %d: %q, want %q", tt.in, cut, got, tt.want)
			}
		}
	}
}

func TestClientEscapeControlsLeavesNoControlForATerminal(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"plain", "/home/me/src", "/home/me/src"},
		{"utf-8 and backslash kept", `héllo 世界 a\b`, `héllo 世界 a\b`},
		{"newline and tab", "a\nb\tc\r", `a\nb\tc\r`},
		{"title change", "\x1b]0;pwned\x07", `\x1b]0;pwned\x07`},
		{"screen clear", "\x1b[2J", `\x1b[2J`},
		{"del and c1 csi", "a\x7fb\u009b2J", `a\x7fb\u009b2J`},
		{"invalid utf-8", "a\xff\x9bb", `a\xff\x9bb`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := EscapeControls(tt.in); got != tt.want {
				t.Errorf("EscapeControls(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}
