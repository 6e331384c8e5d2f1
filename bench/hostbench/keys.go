package hostbench

import (
	"context"
	"fmt"
	"strings"
	"time"

	"clowder/bench/latency"
	"clowder/supervisor/client"
	"clowder/supervisor/proto"
)

// EchoPane is a clowder pane running cat in raw mode without tty echo. It
// implements latency.Driver the way the TUI works: keys are written
// straight to the PTY master the host passed over the socket, and the echo
// is seen when the host's screen frame carrying it arrives.
type EchoPane struct {
	sub  *client.Subscription
	row0 string // the first row of the newest frame
}

var _ latency.Driver = (*EchoPane)(nil)

// NewEchoPane opens the pane on b and waits until cat runs.
func NewEchoPane(ctx context.Context, b *Host, cols, rows int) (*EchoPane, error) {
	id, err := b.spawn(ctx, cols, rows, "sh", "-c", `stty raw -echo; printf ready; exec cat`)
	if err != nil {
		return nil, err
	}
	if _, err := b.Client.Wait(ctx, proto.WaitReq{Pane: id, Text: "ready", TimeoutMS: 10000}); err != nil {
		return nil, err
	}
	sub, err := b.Client.Subscribe(ctx, proto.SubscribeReq{Pane: id, Screen: true, WantFd: true})
	if err != nil {
		return nil, err
	}
	if sub.Master == nil {
		return nil, fmt.Errorf("the host passed no master for %s", id)
	}
	e := &EchoPane{sub: sub}
	return e, e.Reset(ctx)
}

// SendKey writes key to the master.
func (e *EchoPane) SendKey(_ context.Context, key string) error {
	_, err := e.sub.Master.Write([]byte(key))
	return err
}

// Screen waits for the next screen frame and returns the first row.
func (e *EchoPane) Screen(ctx context.Context) (string, error) {
	select {
	case m, ok := <-e.sub.C:
		if !ok {
			return "", fmt.Errorf("subscription ended: %v", e.sub.Err())
		}
		if f, ok := m.(*proto.ScreenFrame); ok {
			e.apply(f)
		}
	case <-ctx.Done():
		return "", ctx.Err()
	case <-time.After(100 * time.Millisecond): // the echo may already be in the newest frame
	}
	return e.row0, nil
}

// apply keeps row 0 of a frame.
func (e *EchoPane) apply(f *proto.ScreenFrame) {
	for _, l := range f.Lines {
		if l.Y != 0 {
			continue
		}
		var b strings.Builder
		for _, c := range l.Cells {
			if c.Width != 0 {
				b.WriteString(max(c.Text, " "))
			}
		}
		e.row0 = strings.TrimRight(b.String(), " ")
	}
}

// Reset has cat echo RIS, which clears the screen, and waits for the blank
// row.
func (e *EchoPane) Reset(ctx context.Context) error {
	if _, err := e.sub.Master.Write([]byte("\x1bc")); err != nil {
		return err
	}
	return latency.WaitBlank(ctx, e)
}

// KeyRoundTrip measures n keystroke round trips through a clowder pane.
func KeyRoundTrip(ctx context.Context, cols, rows, n int) (latency.Samples, error) {
	b, err := Start(ctx, 1<<20)
	if err != nil {
		return nil, err
	}
	defer b.Close()
	p, err := NewEchoPane(ctx, b, cols, rows)
	if err != nil {
		return nil, err
	}
	return latency.RoundTrip(ctx, p, n)
}

// SpawnToFirstOutput measures n times from the spawn request to the host
// seeing the program's first output on its screen.
func SpawnToFirstOutput(ctx context.Context, n int) (latency.Samples, error) {
	b, err := Start(ctx, 1<<20)
	if err != nil {
		return nil, err
	}
	defer b.Close()
	var s latency.Samples
	for i := 0; i < n; i++ {
		start := time.Now()
		id, err := b.spawn(ctx, 80, 24, "sh", "-c", "echo first-output; exec sleep 60")
		if err != nil {
			return s, err
		}
		if _, err := b.Client.Wait(ctx, proto.WaitReq{Pane: id, Text: "first-output", TimeoutMS: 10000}); err != nil {
			return s, err
		}
		s = append(s, time.Since(start))
		if err := b.Client.Remove(ctx, id); err != nil {
			return s, err
		}
	}
	return s, nil
}
