package host

import (
	"bufio"
	"context"
	"fmt"
	"net"
	"os"
	"strings"
	"testing"

	"clowder/supervisor/client"
	"clowder/supervisor/internal/testproc"
	"clowder/supervisor/proto"
)

// fakeColors is the fake agent of mode "colors": a program that asks its
// terminal's background (OSC 11) as Codex does, in raw mode so the answer
// arrives as sent, and shows it as "BG 11;rgb:...". Each key it reads
// afterwards makes it ask again.
func fakeColors() int {
	testproc.MakeRaw(0)
	in := bufio.NewReader(os.Stdin)
	for {
		fmt.Print("\x1b]11;?\x07")
		reply, err := readOSCReply(in)
		if err != nil {
			return 1
		}
		fmt.Printf("BG %s\r\n", reply)
		if _, err := in.ReadByte(); err != nil {
			return 1
		}
	}
}

// readOSCReply reads one OSC answer (ESC ] ... BEL or ST) and returns its
// payload.
func readOSCReply(in *bufio.Reader) (string, error) {
	var b strings.Builder
	for {
		c, err := in.ReadByte()
		if err != nil {
			return "", err
		}
		switch {
		case c == 0x07:
			return strings.TrimPrefix(b.String(), "\x1b]"), nil
		case c == '\\' && strings.HasSuffix(b.String(), "\x1b"):
			return strings.TrimSuffix(strings.TrimPrefix(b.String(), "\x1b]"), "\x1b"), nil
		}
		b.WriteByte(c)
	}
}

// dialClient connects a real Client (the library the TUI and CLI use) to
// th's host.
func (th *testHost) dialClient() *client.Client {
	th.t.Helper()
	nc, err := net.Dial("unix", th.paths.SocketFile())
	if err != nil {
		th.t.Fatal(err)
	}
	uc := nc.(*net.UnixConn)
	c, err := client.New(context.Background(), proto.NewFdConn(uc), uc, "colors-test")
	if err != nil {
		th.t.Fatal(err)
	}
	th.t.Cleanup(func() { _ = c.Close() })
	return c
}

// Regression: a pane's colour queries were answered black whatever the
// user's terminal was, so Codex painted its composer dark on a light
// terminal. Now the colours a client sets answer them: in panes already
// running (at once) and in panes spawned later.
func TestHostAnswersColorQueriesWithTheColorsAClientSet(t *testing.T) {
	th := startHost(t)
	c := th.dial()
	old := th.spawnFake(c, "colors")
	c.waitText(old.ID, `BG 11;rgb:0000/0000/0000`) // the headless default
	lib := th.dialClient()
	if err := lib.SetColors(context.Background(), proto.SetColorsReq{Foreground: "#101010", Background: "#FAFAF0"}); err != nil {
		t.Fatalf("set-colors: %v", err)
	}
	c.call(&proto.InputReq{Pane: old.ID, Data: []byte("q")})
	c.waitText(old.ID, `BG 11;rgb:fafa/fafa/f0f0`)
	fresh := th.spawnFake(c, "colors")
	c.waitText(fresh.ID, `BG 11;rgb:fafa/fafa/f0f0`)
	c.call(&proto.SetColorsReq{}) // the newest client knows nothing: back to the default
	c.call(&proto.InputReq{Pane: fresh.ID, Data: []byte("q")})
	c.waitText(fresh.ID, `BG 11;rgb:0000/0000/0000`)
}

func TestHostRefusesBadColors(t *testing.T) {
	th := startHost(t)
	c := th.dial()
	c.call(&proto.SetColorsReq{Background: "#ffffff"})
	tests := []struct {
		req  proto.SetColorsReq
		want string
	}{
		{proto.SetColorsReq{Foreground: "white"}, `set-colors: foreground "white" is not a colour; send #rrggbb`},
		{proto.SetColorsReq{Background: "#12345"}, `set-colors: background "#12345" is not a colour; send #rrggbb`},
		{proto.SetColorsReq{Cursor: "#12345g"}, `set-colors: cursor "#12345g" is not a colour; send #rrggbb`},
		{proto.SetColorsReq{Palette: []string{"", "rgb:1/2/3"}}, `set-colors: palette entry 1 "rgb:1/2/3" is not a colour; send #rrggbb`},
		{proto.SetColorsReq{Palette: make([]string, 257)}, `set-colors: 257 palette entries; send at most 256`},
	}
	for _, tc := range tests {
		e := c.callErr(&tc.req)
		if e.Code != proto.CodeBadRequest || e.Message != tc.want {
			t.Errorf("%+v: %s %q want bad-request %q", tc.req, e.Code, e.Message, tc.want)
		}
	}
	p := th.spawnFake(c, "colors")
	c.waitText(p.ID, `BG 11;rgb:ffff/ffff/ffff`) // a refused request lost nothing
}
