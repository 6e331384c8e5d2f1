package proto

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"
)

// init registers -update unless another test file of the package already
// did; the golden tests read it with flag.Lookup.
func init() {
	if flag.Lookup("update") == nil {
		flag.Bool("update", false, "rewrite golden files under testdata/")
	}
}

// updateGolden reports whether -update was given.
func updateGolden() bool {
	f := flag.Lookup("update")
	return f != nil && f.Value.String() == "true"
}

// goldenCase is one message with the frame fields it is sent with.
type goldenCase struct {
	reqID uint32
	flags Flags
	msg   Message // a pointer, as DecodeMessage returns
}

// samplePane is a realistic pane description shared by several cases.
func samplePane() PaneInfo {
	return PaneInfo{
		ID: "p3", Name: "api", Kind: "agent", Adapter: "claude", State: "running",
		Attention: "working", Pid: 41277, PidStart: 8812345, Cwd: "/home/u/src/api",
		Argv: []string{"claude", "--continue"}, Cols: 120, Rows: 40, Title: "✳ api",
		CreatedMS: 1767000000123, Seq: 98211,
	}
}

// goldenCases has one case per message type; TestGoldenCoversEveryType
// keeps it complete.
func goldenCases() []goldenCase {
	exited := samplePane()
	exited.State, exited.ExitCode, exited.ExitReason = "exited", 1, "failed"
	return []goldenCase{
		{1, 0, &HelloReq{Min: Version{1, 0}, Max: Version{1, 0}, Caps: []string{CapFdPassing, CapScreen, CapEvents}, Client: "clowder tui 0.1.0", Pid: 5120}},
		{1, FlagReply, &WelcomeReply{Version: Version{1, 0}, Caps: []string{CapFdPassing, CapScreen, CapEvents}, Host: "clowder host 0.1.0", Pid: 4001}},
		{7, FlagReply, &OKReply{}},
		{8, FlagReply, &ErrorReply{Code: CodeNotFound, Message: `no pane named "web"; see clowder ls`}},
		{2, 0, &ListReq{}},
		{3, 0, &SpawnReq{Nonce: "c5120-1", Argv: []string{"claude"}, Name: "api", Kind: "agent", Adapter: "claude",
			Cwd: "/home/u/src/api", Env: []string{"HOME=/home/u", "LANG=C.UTF-8"}, Cols: 120, Rows: 40,
			TimeoutMS: 3600000, IdleTimeoutMS: 600000, Cgroup: "auto", AllowSecretArgs: false}},
		{4, 0, &SubscribeReq{Pane: "p3", Screen: true, Raw: true, FromSeq: 90000, WantFd: true}},
		{5, 0, &UnsubscribeReq{Sub: 4}},
		{6, 0, &InputReq{Pane: "p3", Data: []byte("ls -l"), Keys: []string{"Enter", "C-c"}}},
		{7, 0, &PasteReq{Pane: "p3", Text: "fix the failing test\nthen run it", Submit: true}},
		{8, 0, &ResizeReq{Pane: "p3", Cols: 100, Rows: 30}},
		{9, 0, &SignalReq{Pane: "p3", Signal: "INT", Pid: 41277, PidStart: 8812345}},
		{10, 0, &KillReq{Pane: "p3", GraceMS: 3000, Pid: 41277, PidStart: 8812345}},
		{11, 0, &RemoveReq{Pane: "p3"}},
		{12, 0, &CaptureReq{Pane: "api", ANSI: true, Scrollback: 200}},
		{13, 0, &HistoryReq{Pane: "p3", Count: 50, FromEnd: true}},
		{14, 0, &WaitReq{Pane: "p3", IdleMS: 5000, Text: `\$ $`, TimeoutMS: 60000}},
		{15, 0, &EventsReq{Panes: []string{"p3"}}},
		{16, 0, &HostStatusReq{}},
		{17, 0, &HostStopReq{Force: true}},
		{18, 0, &RenameReq{Pane: "p3", Name: "api-tests"}},
		{20, 0, &HookReq{Pane: "p3", Agent: "claude", Event: "SessionStart", Session: "3f1c2a9e-6b1d-4c8e-9a51-0d2f7e4b8c10", Source: "clear"}},
		{19, 0, &SetColorsReq{Foreground: "#1e1e2e", Background: "#fafafa", Cursor: "#dc8a78", Palette: []string{"#5c5f77", "", "#40a02b"}}},
		{20, 0, &RespawnReq{Pane: "p3", Env: []string{"HOME=/home/u", "LANG=C.UTF-8"}}},
		{20, FlagReply, &RespawnedReply{Pane: samplePane(), ClientEnv: true, Notes: []string{"the environment p3 started with went with the host's restart; it runs with this client's"}}},
		{20, 0, &EscrowReq{Pane: "p3", Pid: 41277, PidStart: 8812345, BootID: "6f1c3a0e-8a11-4a5e-9d9b-2f5c1f3e0b7a", Screen: mustScreenBody(sampleScreen())}},
		{20, FlagReply, &EscrowedReply{Pane: samplePane()}},
		{21, 0, &AdoptTmuxReq{Socket: "/tmp/tmux-1000/default", Target: "work:1.0", Name: "build"}},
		{21, FlagReply, &AdoptedReply{Pane: samplePane()}},
		{21, 0, &UpgradeReq{Binary: "/home/u/go/bin/clowder"}},
		{2, FlagReply, &PaneListReply{Panes: []PaneInfo{samplePane(), exited}}},
		{3, FlagReply, &SpawnedReply{Pane: samplePane(), Existing: true}},
		{4, FlagReply, &SubscribedReply{Pane: "p3", Seq: 98211, Oldest: 12, Fd: true}},
		{12, FlagReply, &CapturedReply{Pane: "p3", Text: "$ ls\nREADME.md\n$ \n", Cols: 80, Rows: 3, CursorX: 2, CursorY: 2}},
		{12, FlagReply, &CapturedText{Pane: "p3", Text: "$ ls\nREADME.md\n$ \n", Cols: 80, Rows: 3, CursorX: 2, CursorY: 2}},
		{13, FlagReply, sampleHistory()},
		{14, FlagReply, &WaitDoneReply{Met: "text", Match: "$ ", Pane: samplePane()}},
		{16, FlagReply, &HostInfoReply{Pid: 4001, Build: "0.1.0", Protocol: Version{1, 0}, StartedMS: 1767000000000, Panes: 3, Clients: 2, Socket: "/run/user/1000/clowder/host.sock",
			Escrow: []EscrowHolder{{Pane: "p3", Client: "clowder", Pid: 5120}}}},
		{4, FlagPush, &OutputChunk{Pane: "p3", Seq: 98211, Gap: 0, Data: []byte("\x1b[1mok\x1b[m\r\n")}},
		{4, FlagPush, sampleScreen()},
		{15, FlagPush, &PaneEvent{Kind: EventExited, Pane: "p3", Info: &exited}},
	}
}

// sampleScreen is a small frame with a styled row, a wide character, a
// combining cluster, blanks and a cursor.
func sampleScreen() *ScreenFrame {
	red := FrameCell{Width: 1, Fg: IndexColor(1), Attrs: AttrBold}
	rows := []FrameRow{
		{Y: 0, Cells: textCells("$ make test", FrameCell{Width: 1})},
		{Y: 1, Wrapped: true, Cells: append(textCells("FAIL", red), FrameCell{Width: 1},
			FrameCell{Text: "日", Width: 2, Bg: RGBColor(0x20, 0x30, 0x40)}, FrameCell{Width: 0, Bg: RGBColor(0x20, 0x30, 0x40)},
			FrameCell{Text: "e\u0301", Width: 1, UL: IndexColor(196), Attrs: FrameAttr(0).WithUnderline(UnderlineCurly), Link: 7})},
		{Y: 2, Cells: []FrameCell{{Text: "$", Width: 1}, {Width: 1}}},
	}
	return &ScreenFrame{Pane: "p3", Seq: 98211, Cols: 12, Rows: 3, Full: true,
		Cursor: FrameCursor{X: 2, Y: 2, Visible: true, Style: 5},
		Modes:  FrameModes{Flags: ModeBracketedPaste | ModeAutowrap, Mouse: 3, MouseEncoding: 2, KittyKeys: 1},
		Lines:  rows}
}

// sampleHistory is a two-line page of scrollback.
func sampleHistory() *HistoryRows {
	return &HistoryRows{Pane: "p3", Oldest: 100, End: 180, First: 130, Cols: 12,
		Lines: []FrameRow{{Cells: textCells("old line", FrameCell{Width: 1})},
			{Wrapped: true, Cells: textCells("wrapped", FrameCell{Width: 1, Attrs: AttrItalic})}}}
}

// textCells makes one narrow cell per rune of s in the given style.
func textCells(s string, style FrameCell) []FrameCell {
	var cells []FrameCell
	for _, r := range s {
		c := style
		c.Text, c.Width = string(r), 1
		cells = append(cells, c)
	}
	return cells
}

// goldenFrame encodes a case as the bytes on the wire.
func goldenFrame(t testing.TB, c goldenCase) []byte {
	t.Helper()
	f, err := NewFrame(c.reqID, c.flags, c.msg)
	if err != nil {
		t.Fatal(err)
	}
	f.Version = Version{1, 0}
	b, err := AppendFrame(nil, f, WireMaxFrame)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestGoldenFramesEncodeAndDecode(t *testing.T) {
	for _, c := range goldenCases() {
		name := c.msg.MsgType().String()
		t.Run(name, func(t *testing.T) {
			path := filepath.Join("testdata", "proto", name+".bin")
			got := goldenFrame(t, c)
			if updateGolden() {
				if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, got, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run go test ./supervisor -run Golden -update)", err)
			}
			if !bytes.Equal(got, want) {
				t.Fatalf("encoding changed:\n got % x\nwant % x", got, want)
			}
			checkGoldenDecode(t, want, c)
		})
	}
}

// checkGoldenDecode reads a fixture back and compares it with the case.
func checkGoldenDecode(t *testing.T, b []byte, c goldenCase) {
	t.Helper()
	f, err := NewFrameReader(bytes.NewReader(b)).ReadFrame()
	if err != nil {
		t.Fatal(err)
	}
	if f.Type != c.msg.MsgType() || f.ReqID != c.reqID || f.Flags != c.flags || f.Version != (Version{1, 0}) {
		t.Fatalf("header: got %s id %d flags %s v%s", f.Type, f.ReqID, f.Flags, f.Version)
	}
	m, err := f.Message()
	if err != nil {
		t.Fatal(err)
	}
	if want := decodedForm(c.msg); !reflect.DeepEqual(m, want) {
		t.Fatalf("decoded\n%#v\nwant\n%#v", m, want)
	}
}

// decodedForm is m as a decoder gives it back: a copy whose rows hold no
// default blanks at their ends (the reader pads them; decodeRow).
func decodedForm(m Message) Message {
	trim := func(rows []FrameRow) []FrameRow {
		out := slices.Clone(rows)
		for i := range out {
			out[i].Cells = trimBlanks(slices.Clone(out[i].Cells))
		}
		return out
	}
	switch m := m.(type) {
	case *ScreenFrame:
		c := *m
		c.Lines = trim(c.Lines)
		return &c
	case *HistoryRows:
		c := *m
		c.Lines = trim(c.Lines)
		return &c
	}
	return m
}

func TestGoldenCoversEveryType(t *testing.T) {
	seen := map[MsgType]bool{}
	for _, c := range goldenCases() {
		seen[c.msg.MsgType()] = true
	}
	for typ := range msgNames {
		if !seen[typ] {
			t.Errorf("no golden case for %s", typ)
		}
		if _, ok := msgBodies[typ]; !ok {
			t.Errorf("%s has a name but no body type", typ)
		}
	}
	if len(msgBodies) != len(msgNames) {
		t.Errorf("%d body types, %d names", len(msgBodies), len(msgNames))
	}
}

// mustScreenBody is a screen frame's binary body, as EscrowReq carries it.
func mustScreenBody(f *ScreenFrame) []byte {
	b, err := EncodeMessage(f)
	if err != nil {
		panic(err)
	}
	return b
}
