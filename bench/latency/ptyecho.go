package latency

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"time"

	"github.com/creack/pty"
	"golang.org/x/term"
)

// PTYEcho is the floor under any keystroke round trip: n times, write one
// byte to the master of a PTY whose slave runs cat in raw mode without tty
// echo, and time until cat's copy of it is read back from the master. It
// includes two PTY hops and a wake-up of cat, and nothing else.
func PTYEcho(ctx context.Context, n int) (Samples, error) {
	master, tty, err := pty.Open()
	if err != nil {
		return nil, fmt.Errorf("pty echo: open pty: %w", err)
	}
	defer master.Close()
	if _, err := term.MakeRaw(int(tty.Fd())); err != nil { // raw, so cat sees each byte at once and the tty echoes nothing
		_ = tty.Close() // best effort: already failing
		return nil, fmt.Errorf("pty echo: raw mode: %w", err)
	}
	cmd := exec.CommandContext(ctx, "cat")
	cmd.Stdin, cmd.Stdout, cmd.Stderr = tty, tty, tty
	if err := cmd.Start(); err != nil {
		_ = tty.Close() // best effort: already failing
		return nil, fmt.Errorf("pty echo: start cat: %w", err)
	}
	_ = tty.Close() // cat holds its own copy; ours would keep the slave open after cat exits
	defer func() {
		_ = cmd.Process.Kill() // best effort: cat is ours and done
		_ = cmd.Wait()         // reap it; its exit status (killed) is expected
	}()
	return echoLoop(ctx, master, n)
}

// echoLoop writes a byte and reads it back n times; every read has a
// deadline taken from ctx (or a second, if ctx has none).
func echoLoop(ctx context.Context, master *os.File, n int) (Samples, error) {
	samples := make(Samples, 0, n)
	buf := make([]byte, 64)
	for i := 0; i < n; i++ {
		deadline, ok := ctx.Deadline()
		if !ok {
			deadline = time.Now().Add(time.Second)
		}
		if err := master.SetReadDeadline(deadline); err != nil {
			return samples, fmt.Errorf("pty echo: read deadline: %w", err)
		}
		start := time.Now()
		if _, err := master.Write([]byte{keys[i%len(keys)]}); err != nil {
			return samples, fmt.Errorf("pty echo: write: %w", err)
		}
		if _, err := master.Read(buf); err != nil {
			if errors.Is(err, os.ErrDeadlineExceeded) {
				err = fmt.Errorf("no echo from cat: %w", err)
			}
			return samples, fmt.Errorf("pty echo: read: %w", err)
		}
		samples = append(samples, time.Since(start))
	}
	return samples, nil
}
