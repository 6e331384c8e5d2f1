package tuibench

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"time"
)

// control is a control-mode client (`tmux -C attach`) of the outer tmux:
// it sends commands on stdin and sees, as %output notifications, every byte
// the program in the outer pane writes to its terminal, as it is written.
// Timing keys through it costs no client process per poll.
type control struct {
	cmd   *exec.Cmd
	in    io.WriteCloser
	lines chan ctlOutput
	done  chan struct{}
}

// ctlOutput is one %output notification: when it was read and its bytes.
type ctlOutput struct {
	at   time.Time
	data []byte
}

// startControl attaches a control-mode client to o's session.
func startControl(ctx context.Context, o *outer) (*control, error) {
	cmd := exec.CommandContext(ctx, "tmux", "-L", o.sock, "-f", "/dev/null", "-C", "attach")
	cmd.Env = o.env
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start a control-mode client: %w", err)
	}
	c := &control{cmd: cmd, in: in, lines: make(chan ctlOutput, 4096), done: make(chan struct{})}
	go c.read(out)
	return c, nil
}

// read forwards %output notifications until the client ends.
func (c *control) read(r io.Reader) {
	defer close(c.done)
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		line := sc.Text()
		rest, ok := strings.CutPrefix(line, "%output ")
		if !ok {
			continue
		}
		_, data, _ := strings.Cut(rest, " ") // the pane id, then the bytes
		select {
		case c.lines <- ctlOutput{at: time.Now(), data: unescape(data)}:
		default: // nobody is timing: drop, the reader must never block tmux
		}
	}
}

// unescape decodes control mode's octal escapes (\ooo for bytes below
// space and for the backslash).
func unescape(s string) []byte {
	out := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+3 < len(s) && isOctal(s[i+1:i+4]) {
			out = append(out, (s[i+1]-'0')<<6|(s[i+2]-'0')<<3|(s[i+3]-'0'))
			i += 3
			continue
		}
		out = append(out, s[i])
	}
	return out
}

func isOctal(s string) bool {
	if len(s) != 3 {
		return false
	}
	for i := 0; i < 3; i++ {
		if s[i] < '0' || s[i] > '7' {
			return false
		}
	}
	return true
}

// send writes one command line.
func (c *control) send(line string) error {
	_, err := io.WriteString(c.in, line+"\n")
	return err
}

// drain discards output until none came for quiet, and returns how many
// bytes it discarded.
func (c *control) drain(ctx context.Context, quiet time.Duration) (int, error) {
	n := 0
	for {
		select {
		case o := <-c.lines:
			n += len(o.data)
		case <-time.After(quiet):
			return n, nil
		case <-c.done:
			return n, fmt.Errorf("the control-mode client ended")
		case <-ctx.Done():
			return n, ctx.Err()
		}
	}
}

// close detaches the client.
func (c *control) close() {
	_ = c.in.Close() // a control client exits at the end of its input
	select {
	case <-c.done:
	case <-time.After(5 * time.Second):
		_ = c.cmd.Process.Kill() // best effort: it did not exit by itself
	}
	_ = c.cmd.Wait() // reap it; its status does not matter
}

// visibleText is data without escape sequences and control characters:
// what it puts on the screen as text.
func visibleText(data []byte) string {
	var b strings.Builder
	for i := 0; i < len(data); i++ {
		switch c := data[i]; {
		case c == 0x1b:
			i = skipEscape(data, i)
		case c >= 0x20 && c != 0x7f:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// skipEscape returns the index of the last byte of the escape sequence
// starting at data[i] (ESC).
func skipEscape(data []byte, i int) int {
	if i+1 >= len(data) {
		return i
	}
	switch data[i+1] {
	case '[':
		for j := i + 2; j < len(data); j++ {
			if data[j] >= 0x40 && data[j] <= 0x7e {
				return j
			}
		}
	case ']', 'P', '_', '^', 'X':
		for j := i + 2; j < len(data); j++ {
			if data[j] == 0x07 {
				return j
			}
			if data[j] == 0x1b && j+1 < len(data) && data[j+1] == '\\' {
				return j + 1
			}
		}
	case '(', ')', '*', '+', '#', ' ':
		return min(i+2, len(data)-1)
	default:
		return i + 1
	}
	return len(data) - 1
}
