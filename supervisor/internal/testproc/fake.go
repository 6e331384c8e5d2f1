// The fake agent: the test binary re-executed with CLOWDER_FAKE_AGENT set
// runs one exact behaviour instead of the tests. Each test package selects
// it from an init function (RunIfFake) rather than TestMain, so it does not
// claim the package's single TestMain; init runs first anyway.

package testproc

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// FakeAgentEnv names the fake agent's mode in a child's environment.
const FakeAgentEnv = "CLOWDER_FAKE_AGENT"

// RunIfFake runs the fake agent and exits when this process was started as
// one (FakeAgentEnv set); otherwise it returns at once. A test package
// calls it from init with the modes only its tests need, besides the
// shared ones.
func RunIfFake(extra map[string]func() int) {
	if mode := os.Getenv(FakeAgentEnv); mode != "" {
		os.Exit(fakeAgent(mode, extra))
	}
}

// fakeModes are the fake agent's behaviours.
var fakeModes = map[string]func() int{
	"exit":         fakeExit,        // print FAKE_BYTES bytes of 'x', exit FAKE_CODE
	"stdio":        fakeStdio,       // "out" to stdout, "err" to stderr, exit FAKE_CODE
	"env":          fakeEnv,         // report environment, session and size, exit 0
	"ignore-term":  fakeIgnoreTerm,  // ignore SIGTERM/SIGHUP, READY, block
	"setsid":       fakeSetsidChild, // start an ignore-term grandchild in its own session
	"bg-job":       fakeBackgroundJob,
	"tree":         fakeTree,         // two sleeping grandchildren (one setsid), block
	"silent":       fakeSilent,       // raw mode, READY, never read stdin; SIGUSR1 prints ALIVE
	"chatty":       fakeChatty,       // a line every 20 ms
	"exit-on-line": fakeExitOnLine,   // exit 0 after reading one line
	"sleep":        fakeSleep,        // block silently
	"lines":        fakeLines,        // READY, then "got: LINE" for each line read, in raw-ish cooked mode
	"stream":       fakeStream,       // write FAKE_BYTES bytes of the test stream, then DONE, block
	"keys":         fakeKeys,         // enable DECCKM and bracketed paste, then print every byte read as hex
	"flood":        fakeFlood,        // READY, read a line, then FAKE_LINES lines and "FLOOD-END N", block
	"signals":      fakeSignals,      // READY, then "GOT <SIGNAL>" for each HUP, INT, TERM, USR1, USR2; never exits by itself
	"claude":       fakeClaudePrompt, // Claude Code's prompt and its input contract (agent.go)
}

func fakeAgent(mode string, extra map[string]func() int) int {
	f, ok := extra[mode]
	if !ok {
		f, ok = fakeModes[mode]
	}
	if !ok {
		fmt.Fprintf(os.Stderr, "fake agent: unknown mode %q\n", mode)
		return 2
	}
	return f()
}

// EnvInt is the environment variable name as a number, 0 when unset.
func EnvInt(name string) int {
	n, _ := strconv.Atoi(os.Getenv(name))
	return n
}

// Block never returns; a child process waits to be killed.
func Block() int {
	for {
		time.Sleep(time.Hour)
	}
}

func fakeExit() int {
	os.Stdout.Write([]byte(strings.Repeat("x", EnvInt("FAKE_BYTES")) + "END\n"))
	return EnvInt("FAKE_CODE")
}

func fakeStdio() int {
	fmt.Fprint(os.Stdout, "out")
	fmt.Fprint(os.Stderr, "err")
	return EnvInt("FAKE_CODE")
}

func fakeEnv() int {
	for _, k := range []string{"TERM", "COLORTERM", "CLOWDER_PANE_ID", "TMUX", "CLAUDECODE", "KEEP"} {
		v, ok := os.LookupEnv(k)
		fmt.Printf("%s=%q %v\n", k, v, ok)
	}
	pid := os.Getpid()
	sid, _ := unix.Getsid(0)
	fg, _ := unix.IoctlGetInt(0, unix.TIOCGPGRP)
	ws, _ := unix.IoctlGetWinsize(0, unix.TIOCGWINSZ)
	fmt.Printf("leader=%v fg=%v size=%dx%d\nDONE\n", sid == pid && unix.Getpgrp() == pid, fg == pid, ws.Col, ws.Row)
	return 0
}

func fakeIgnoreTerm() int {
	signal.Ignore(syscall.SIGTERM, syscall.SIGHUP)
	fmt.Println("READY")
	return Block()
}

// startGrandchild starts the test binary in mode, with attr, sharing our
// stdout (so it holds the PTY open), and prints "CHILD <pid>".
func startGrandchild(mode string, attr *syscall.SysProcAttr) {
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), FakeAgentEnv+"="+mode)
	cmd.Stdout, cmd.SysProcAttr = os.Stdout, attr
	if err := cmd.Start(); err != nil {
		fmt.Println("START FAILED", err)
		os.Exit(3)
	}
	fmt.Printf("CHILD %d\n", cmd.Process.Pid)
}

func fakeSetsidChild() int {
	startGrandchild("ignore-term", &syscall.SysProcAttr{Setsid: true})
	return fakeIgnoreTerm()
}

func fakeBackgroundJob() int {
	startGrandchild("ignore-term", &syscall.SysProcAttr{Setpgid: true})
	return fakeIgnoreTerm()
}

func fakeTree() int {
	startGrandchild("sleep", nil)
	startGrandchild("sleep", &syscall.SysProcAttr{Setsid: true})
	fmt.Println("READY")
	return Block()
}

func fakeSilent() int {
	// Raw mode: a full cooked-mode line buffer discards input on some kernels
	// (Linux 6.18) instead of blocking the writer, and a child that never
	// reads must make the writer wait on every kernel.
	MakeRaw(0)
	usr1 := make(chan os.Signal, 1)
	signal.Notify(usr1, syscall.SIGUSR1)
	fmt.Println("READY")
	for range usr1 {
		fmt.Println("ALIVE")
	}
	return 0
}

func fakeChatty() int {
	for i := 0; ; i++ {
		fmt.Printf("line %d\n", i)
		time.Sleep(20 * time.Millisecond)
	}
}

func fakeExitOnLine() int {
	fmt.Println("READY")
	_, _ = bufio.NewReader(os.Stdin).ReadString('\n')
	return 0
}

func fakeSleep() int { return Block() }

func fakeLines() int {
	fmt.Println("READY")
	sc := bufio.NewScanner(os.Stdin)
	for sc.Scan() {
		fmt.Printf("got: %s\n", sc.Text())
	}
	return Block()
}

// TestStream is the deterministic byte stream of the "stream" mode: every
// byte value, so byte exactness is proven for all of them.
func TestStream(n int) []byte {
	b := make([]byte, n)
	x := uint32(2463534242)
	for i := range b {
		x ^= x << 13
		x ^= x >> 17
		x ^= x << 5
		b[i] = byte(x)
	}
	return b
}

func fakeStream() int {
	MakeRaw(1)
	data := TestStream(EnvInt("FAKE_BYTES"))
	for len(data) > 0 {
		n, err := os.Stdout.Write(data[:min(len(data), 1<<16)])
		if err != nil {
			return 1
		}
		data = data[n:]
	}
	return Block()
}

func fakeKeys() int {
	MakeRaw(0)
	fmt.Print("\x1b[?1h\x1b[?2004hREADY\r\n")
	buf := make([]byte, 256)
	for {
		n, err := os.Stdin.Read(buf)
		if err != nil {
			return 1
		}
		fmt.Printf("IN %x\r\n", buf[:n])
	}
}

func fakeSignals() int {
	got := make(chan os.Signal, 8)
	signal.Notify(got, syscall.SIGHUP, syscall.SIGINT, syscall.SIGTERM, syscall.SIGUSR1, syscall.SIGUSR2)
	fmt.Println("READY")
	for sig := range got {
		fmt.Printf("GOT %s\n", unix.SignalName(sig.(syscall.Signal)))
	}
	return 0
}

func fakeFlood() int {
	fmt.Println("READY")
	_, _ = bufio.NewReader(os.Stdin).ReadString('\n')
	w := bufio.NewWriterSize(os.Stdout, 1<<16)
	n := EnvInt("FAKE_LINES")
	for i := range n {
		fmt.Fprintf(w, "flood line %d of a long burst of output\n", i)
	}
	fmt.Fprintf(w, "FLOOD-END %d\n", n)
	_ = w.Flush()
	return Block()
}
