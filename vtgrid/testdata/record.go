//go:build ignore

// Command record runs a program in a pseudo-terminal of a fixed size, types
// scripted keystrokes into it, answers the terminal queries a modern TUI sends
// the way xterm would, and saves every byte the program wrote. The saved file
// is the corpus the vtgrid differential harness (vtgrid/vtdiff_test.go)
// replays into vtgrid and into tmux.
//
// Usage (from the main module root):
//
//	go run vtgrid/testdata/record.go -o vtgrid/testdata/rec/NAME.bin \
//	    [-size 120x40] [-dir DIR] [-env K=V]... [-timeout 15s] [-max 1000000] \
//	    [-step STEP]... -- COMMAND [ARG...]
//
// A STEP is one of
//
//	wait:TEXT    wait until TEXT appears in the output written since the last
//	             send (escape sequences stripped, so cursor moves between
//	             words still match if the words are contiguous)
//	send:KEYS    type KEYS; Go string escapes work (\r, \x1b, \x03, \u00e9)
//	idle:DUR     wait until the program has been silent for DUR
//	sleep:DUR    wait DUR unconditionally (for animations worth recording)
//	end:         keep only the output written so far and hang the program up
//	             now (so the last screen is the program's, not its exit)
//
// After the last step the recorder waits up to -exit for the program to exit
// and then hangs it up. The environment is minimal and explicit: TERM,
// COLORTERM, LANG, PATH, plus every -env; nothing else leaks in.
package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/creack/pty"
)

type stringList []string

func (l *stringList) String() string     { return strings.Join(*l, ",") }
func (l *stringList) Set(s string) error { *l = append(*l, s); return nil }

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "record:", err)
		os.Exit(1)
	}
}

func run() error {
	out := flag.String("o", "", "output file (required)")
	size := flag.String("size", "120x40", "terminal size COLSxROWS")
	dir := flag.String("dir", "", "working directory of the program")
	timeout := flag.Duration("timeout", 15*time.Second, "deadline of each wait/idle step")
	exitWait := flag.Duration("exit", 5*time.Second, "how long to wait for the program to exit after the last step")
	max := flag.Int("max", 1_000_000, "fail if the recording grows beyond this many bytes")
	var envs, steps stringList
	flag.Var(&envs, "env", "K=V added to the environment (repeatable)")
	flag.Var(&steps, "step", "script step (repeatable), see the package doc")
	flag.Parse()
	if *out == "" || flag.NArg() == 0 {
		return errors.New("usage: record -o FILE [flags] -- COMMAND [ARG...]")
	}
	var cols, rows int
	if _, err := fmt.Sscanf(*size, "%dx%d", &cols, &rows); err != nil {
		return fmt.Errorf("parse -size %q: %w", *size, err)
	}
	cmd := exec.Command(flag.Arg(0), flag.Args()[1:]...)
	cmd.Dir = *dir
	cmd.Env = append([]string{
		"TERM=xterm-256color", "COLORTERM=truecolor", "LANG=C.UTF-8",
		"PATH=" + os.Getenv("PATH"),
	}, envs...)
	rec := newRecorder(cols, rows)
	ptmx, err := pty.StartWithSize(cmd, &pty.Winsize{Cols: uint16(cols), Rows: uint16(rows)})
	if err != nil {
		return fmt.Errorf("start %s: %w", flag.Arg(0), err)
	}
	rec.w = ptmx
	done := make(chan struct{})
	go func() { rec.pump(ptmx); close(done) }()
	cut, stepErr := rec.script(steps, *timeout, *max)
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	grace := *exitWait
	if cut >= 0 {
		grace = 0
	}
	select {
	case <-exited:
	case <-time.After(grace):
		_ = cmd.Process.Signal(syscall.SIGHUP) // best effort: it did not quit by itself
		select {
		case <-exited:
		case <-time.After(2 * time.Second):
			_ = cmd.Process.Kill() // best effort: last resort
			<-exited
		}
	}
	// The PTY may still hold output; read until EOF (EIO once the child is gone).
	select {
	case <-done:
	case <-time.After(2 * time.Second):
	}
	_ = ptmx.Close() // best effort: the recording is in memory
	data := rec.bytes()
	if cut >= 0 {
		data = data[:cut]
	}
	if err := os.WriteFile(*out, data, 0o644); err != nil {
		return fmt.Errorf("write %s: %w", *out, err)
	}
	fmt.Fprintf(os.Stderr, "record: %s: %d bytes\n", *out, len(data))
	return stepErr
}

// recorder owns the recorded bytes and the query answering. pump appends
// under mu and signals changed; the script goroutine waits on it.
type recorder struct {
	mu      sync.Mutex
	changed *sync.Cond
	buf     []byte
	scanned int // bytes of buf already scanned for queries
	last    time.Time
	eof     bool
	w       io.Writer
	term    *tracker
}

func newRecorder(cols, rows int) *recorder {
	r := &recorder{term: newTracker(cols, rows), last: time.Now()}
	r.changed = sync.NewCond(&r.mu)
	return r
}

func (r *recorder) bytes() []byte {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]byte(nil), r.buf...)
}

func (r *recorder) pump(f io.Reader) {
	p := make([]byte, 32<<10)
	for {
		n, err := f.Read(p)
		r.mu.Lock()
		if n > 0 {
			r.buf = append(r.buf, p[:n]...)
			r.last = time.Now()
			r.scanned += r.term.feed(r.buf[r.scanned:], r.w)
		}
		if err != nil {
			r.eof = true
		}
		r.changed.Broadcast()
		r.mu.Unlock()
		if err != nil {
			return
		}
	}
}

// waitFor waits, with a deadline, until cond holds over the recording. A
// ticker wakes it so idle steps can observe silence.
func (r *recorder) waitFor(d time.Duration, what string, cond func() bool) error {
	deadline := time.Now().Add(d)
	stop := make(chan struct{})
	defer close(stop)
	go func() {
		t := time.NewTicker(20 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-stop:
				return
			case <-t.C:
				r.mu.Lock()
				r.changed.Broadcast()
				r.mu.Unlock()
			}
		}
	}()
	r.mu.Lock()
	defer r.mu.Unlock()
	for !cond() {
		if time.Now().After(deadline) {
			tail := stripped(r.buf)
			if len(tail) > 600 {
				tail = tail[len(tail)-600:]
			}
			return fmt.Errorf("timed out after %v waiting for %s; output tail:\n%s", d, what, tail)
		}
		if r.eof {
			return fmt.Errorf("program exited while waiting for %s", what)
		}
		r.changed.Wait()
	}
	return nil
}

// script runs the steps and returns the cut-off of an end step (-1 if none).
func (r *recorder) script(steps []string, timeout time.Duration, max int) (int, error) {
	mark := 0 // wait steps look at output after the last send
	for _, s := range steps {
		kind, arg, _ := strings.Cut(s, ":")
		var err error
		switch kind {
		case "wait":
			err = r.waitFor(timeout, strconv.Quote(arg), func() bool {
				return strings.Contains(stripped(r.buf[min(mark, len(r.buf)):]), arg)
			})
		case "send":
			keys, uerr := strconv.Unquote(`"` + strings.ReplaceAll(arg, `"`, `\"`) + `"`)
			if uerr != nil {
				return -1, fmt.Errorf("step %q: %w", s, uerr)
			}
			r.mu.Lock()
			mark = len(r.buf)
			r.last = time.Now() // silence is counted from the keystroke on
			r.mu.Unlock()
			_, err = io.WriteString(r.w, keys)
		case "idle":
			d, derr := time.ParseDuration(arg)
			if derr != nil {
				return -1, fmt.Errorf("step %q: %w", s, derr)
			}
			err = r.waitFor(timeout, "silence of "+arg, func() bool { return time.Since(r.last) >= d })
		case "sleep":
			d, derr := time.ParseDuration(arg)
			if derr != nil {
				return -1, fmt.Errorf("step %q: %w", s, derr)
			}
			time.Sleep(d) // a recorder, not a test: animation is content here
		case "end":
			r.mu.Lock()
			defer r.mu.Unlock()
			return len(r.buf), nil
		default:
			return -1, fmt.Errorf("unknown step %q", s)
		}
		if err != nil {
			return -1, fmt.Errorf("step %q: %w", s, err)
		}
		r.mu.Lock()
		n := len(r.buf)
		r.mu.Unlock()
		if n > max {
			return -1, fmt.Errorf("recording is %d bytes, over -max %d", n, max)
		}
	}
	return -1, nil
}

var escRE = regexp.MustCompile(`\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(\x07|\x1b\\)|\x1b[P_^X][^\x1b]*\x1b\\|\x1b[()*+].|\x1b.|[\x00-\x1f]`)

func stripped(b []byte) string { return escRE.ReplaceAllString(string(b), "") }

// tracker follows the cursor roughly (enough for DSR answers at startup) and
// answers queries like xterm 390 with a black background would.
type tracker struct {
	cols, rows   int
	x, y         int
	sx, sy       int
	decModes     map[int]bool
	pendingReply bytes.Buffer
}

func newTracker(cols, rows int) *tracker {
	return &tracker{cols: cols, rows: rows, decModes: map[int]bool{7: true, 25: true}}
}

// feed scans p, answers queries on w and returns how many bytes it consumed;
// an incomplete escape sequence at the end is left for the next call.
func (t *tracker) feed(p []byte, w io.Writer) int {
	i := 0
	for i < len(p) {
		c := p[i]
		if c != 0x1b {
			n := t.text(p[i:])
			i += n
			continue
		}
		n := t.escape(p[i:])
		if n == 0 {
			break
		}
		i += n
	}
	if t.pendingReply.Len() > 0 && w != nil {
		_, _ = w.Write(t.pendingReply.Bytes()) // best effort: the program may be gone
		t.pendingReply.Reset()
	}
	return i
}

func (t *tracker) text(p []byte) int {
	s := string(p)
	for i, r := range s {
		switch {
		case r == 0x1b:
			return i
		case r == '\r':
			t.x = 0
		case r == '\n' || r == '\v' || r == '\f':
			t.y = min(t.y+1, t.rows-1)
		case r == '\b':
			t.x = max(t.x-1, 0)
		case r == '\t':
			t.x = min((t.x/8+1)*8, t.cols-1)
		case r < 0x20 || r == 0x7f:
		default:
			w := 1
			if r >= 0x1100 && (r <= 0x115f || (r >= 0x2e80 && r <= 0xa4cf) || (r >= 0xac00 && r <= 0xd7a3) ||
				(r >= 0xf900 && r <= 0xfaff) || (r >= 0xfe30 && r <= 0xfe4f) || (r >= 0xff00 && r <= 0xff60) ||
				(r >= 0x1f300 && r <= 0x1faff) || (r >= 0x20000 && r <= 0x3fffd)) {
				w = 2
			}
			if r >= 0x300 && r <= 0x36f {
				w = 0
			}
			if t.x+w > t.cols {
				t.x = 0
				t.y = min(t.y+1, t.rows-1)
			}
			t.x += w
			if t.x >= t.cols {
				t.x = t.cols - 1 // approximate pending wrap
			}
		}
	}
	return len(p)
}

// escape handles one escape sequence at p[0] == ESC and returns its length,
// or 0 if it is incomplete.
func (t *tracker) escape(p []byte) int {
	if len(p) < 2 {
		return 0
	}
	switch p[1] {
	case '[':
		for j := 2; j < len(p); j++ {
			if p[j] >= 0x40 && p[j] <= 0x7e {
				t.csi(string(p[2:j]), p[j])
				return j + 1
			}
			if p[j] < 0x20 && p[j] != 0x1b {
				continue
			}
			if p[j] == 0x1b {
				return j // broken sequence: drop it
			}
		}
		return 0
	case ']', 'P', '_', '^', 'X':
		for j := 2; j < len(p); j++ {
			if p[j] == 0x07 {
				t.str(p[1], string(p[2:j]), "\x07")
				return j + 1
			}
			if p[j] == 0x1b {
				if j+1 >= len(p) {
					return 0
				}
				t.str(p[1], string(p[2:j]), "\x1b\\")
				return j + 2
			}
		}
		return 0
	case '(', ')', '*', '+', '#', ' ', '%':
		if len(p) < 3 {
			return 0
		}
		return 3
	case '7':
		t.sx, t.sy = t.x, t.y
	case '8':
		t.x, t.y = t.sx, t.sy
	case 'c':
		t.x, t.y = 0, 0
	case 'D', 'E':
		t.y = min(t.y+1, t.rows-1)
		if p[1] == 'E' {
			t.x = 0
		}
	case 'M':
		t.y = max(t.y-1, 0)
	}
	return 2
}

func (t *tracker) csi(params string, final byte) {
	prefix := ""
	if params != "" && strings.ContainsRune("<=>?", rune(params[0])) {
		prefix, params = params[:1], params[1:]
	}
	inter := ""
	for len(params) > 0 && params[len(params)-1] >= 0x20 && params[len(params)-1] <= 0x2f {
		inter = params[len(params)-1:] + inter
		params = params[:len(params)-1]
	}
	var ps []int
	for _, f := range strings.Split(params, ";") {
		n, _ := strconv.Atoi(strings.Split(f, ":")[0])
		ps = append(ps, n)
	}
	arg := func(i, def int) int {
		if i < len(ps) && ps[i] != 0 {
			return ps[i]
		}
		return def
	}
	reply := func(format string, a ...any) { fmt.Fprintf(&t.pendingReply, format, a...) }
	switch {
	case inter == "" && prefix == "" && (final == 'H' || final == 'f'):
		t.y, t.x = min(arg(0, 1), t.rows)-1, min(arg(1, 1), t.cols)-1
	case inter == "" && prefix == "" && final == 'A':
		t.y = max(t.y-arg(0, 1), 0)
	case inter == "" && prefix == "" && (final == 'B' || final == 'e'):
		t.y = min(t.y+arg(0, 1), t.rows-1)
	case inter == "" && prefix == "" && (final == 'C' || final == 'a'):
		t.x = min(t.x+arg(0, 1), t.cols-1)
	case inter == "" && prefix == "" && final == 'D':
		t.x = max(t.x-arg(0, 1), 0)
	case inter == "" && prefix == "" && (final == 'G' || final == '`'):
		t.x = min(arg(0, 1), t.cols) - 1
	case inter == "" && prefix == "" && final == 'd':
		t.y = min(arg(0, 1), t.rows) - 1
	case inter == "" && prefix == "" && final == 'c' && arg(0, 0) == 0:
		reply("\x1b[?64;1;2;6;9;15;16;17;18;21;22;28c") // DA1, xterm as a VT420
	case inter == "" && prefix == ">" && final == 'c':
		reply("\x1b[>41;390;0c") // DA2
	case inter == "" && prefix == "" && final == 'n' && arg(0, 0) == 5:
		reply("\x1b[0n")
	case inter == "" && prefix == "" && final == 'n' && arg(0, 0) == 6:
		reply("\x1b[%d;%dR", t.y+1, t.x+1)
	case inter == "" && prefix == "?" && final == 'n' && arg(0, 0) == 6:
		reply("\x1b[?%d;%d;1R", t.y+1, t.x+1)
	case inter == "" && prefix == "?" && final == 'u':
		reply("\x1b[?0u") // kitty keyboard: supported, no flags
	case inter == "" && prefix == ">" && final == 'q':
		reply("\x1bP>|XTerm(390)\x1b\\")
	case inter == "" && prefix == "?" && (final == 'h' || final == 'l'):
		for _, m := range ps {
			t.decModes[m] = final == 'h'
		}
	case inter == "$" && prefix == "?" && final == 'p':
		reply("\x1b[?%d;%d$y", arg(0, 0), t.decrqm(arg(0, 0)))
	case inter == "$" && prefix == "" && final == 'p':
		reply("\x1b[%d;%d$y", arg(0, 0), 0)
	case inter == "" && prefix == "" && final == 't':
		switch arg(0, 0) {
		case 14:
			reply("\x1b[4;%d;%dt", t.rows*16, t.cols*8)
		case 16:
			reply("\x1b[6;16;8t")
		case 18:
			reply("\x1b[8;%d;%dt", t.rows, t.cols)
		case 19:
			reply("\x1b[9;%d;%dt", t.rows, t.cols)
		}
	}
}

// decrqm reports a DEC private mode like xterm: 1 set, 2 reset, 0 unknown.
func (t *tracker) decrqm(mode int) int {
	switch mode {
	case 1, 3, 5, 6, 7, 9, 12, 25, 47, 66, 1000, 1002, 1003, 1004, 1005, 1006, 1015, 1016, 1047, 1048, 1049, 2004:
		if t.decModes[mode] {
			return 1
		}
		return 2
	}
	return 0
}

// str answers OSC colour queries and DCS capability requests.
func (t *tracker) str(kind byte, body, term string) {
	switch kind {
	case ']':
		num, rest, _ := strings.Cut(body, ";")
		switch {
		case num == "10" && rest == "?":
			fmt.Fprintf(&t.pendingReply, "\x1b]10;rgb:e5e5/e5e5/e5e5%s", term)
		case num == "11" && rest == "?":
			fmt.Fprintf(&t.pendingReply, "\x1b]11;rgb:0000/0000/0000%s", term)
		case num == "12" && rest == "?":
			fmt.Fprintf(&t.pendingReply, "\x1b]12;rgb:e5e5/e5e5/e5e5%s", term)
		case num == "4":
			f := strings.Split(rest, ";")
			for i := 0; i+1 < len(f); i += 2 {
				if n, err := strconv.Atoi(f[i]); err == nil && f[i+1] == "?" {
					r, g, b := xtermColour(n)
					fmt.Fprintf(&t.pendingReply, "\x1b]4;%d;rgb:%02x%02x/%02x%02x/%02x%02x%s", n, r, r, g, g, b, b, term)
				}
			}
		}
	case 'P':
		switch {
		case strings.HasPrefix(body, "+q"):
			t.pendingReply.WriteString("\x1bP0+r\x1b\\")
		case strings.HasPrefix(body, "$q"):
			t.pendingReply.WriteString("\x1bP0$r\x1b\\")
		}
	}
}

// xtermColour is xterm's default 256-colour palette.
func xtermColour(n int) (r, g, b int) {
	base := [16][3]int{{0, 0, 0}, {205, 0, 0}, {0, 205, 0}, {205, 205, 0}, {0, 0, 238}, {205, 0, 205}, {0, 205, 205}, {229, 229, 229},
		{127, 127, 127}, {255, 0, 0}, {0, 255, 0}, {255, 255, 0}, {92, 92, 255}, {255, 0, 255}, {0, 255, 255}, {255, 255, 255}}
	switch {
	case n < 16 && n >= 0:
		return base[n][0], base[n][1], base[n][2]
	case n < 232 && n >= 16:
		n -= 16
		lv := func(v int) int {
			if v == 0 {
				return 0
			}
			return 55 + 40*v
		}
		return lv(n / 36), lv(n / 6 % 6), lv(n % 6)
	case n < 256 && n >= 232:
		v := 8 + 10*(n-232)
		return v, v, v
	}
	return 0, 0, 0
}
