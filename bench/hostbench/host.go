package hostbench

import (
	"context"
	"fmt"
	"io"
	"log"
	"net"
	"os"
	"path/filepath"
	"time"

	"clowder/persist"
	"clowder/supervisor/client"
	"clowder/supervisor/host"
	"clowder/supervisor/proto"
)

// Host is an in-process clowder host on private directories with a client
// connected to it.
type Host struct {
	Client *client.Client
	paths  persist.Paths
	dir    string
	cancel context.CancelFunc
	done   chan error
}

// DefaultRing is the ring size of a host with the default configuration.
var DefaultRing = persist.DefaultConfig().Host.RingBytes

// Start runs a host with a ring of ringBytes per pane.
func Start(ctx context.Context, ringBytes int64) (*Host, error) {
	dir, err := os.MkdirTemp("", "clwbench")
	if err != nil {
		return nil, err
	}
	paths := persist.Paths{RuntimeDir: filepath.Join(dir, "run"), StateDir: filepath.Join(dir, "state")}
	cfg := persist.DefaultConfig()
	cfg.Host.RingBytes = ringBytes
	// ManageProcs as the host process has it: the host sets this
	// process's processors while it serves (and gives them back at Close).
	h, err := host.New(host.Options{Paths: paths, Config: cfg, Build: "bench", Log: log.New(io.Discard, "", 0), IdleExit: -1, ManageProcs: true})
	if err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	hctx, cancel := context.WithCancel(context.Background())
	b := &Host{paths: paths, dir: dir, cancel: cancel, done: make(chan error, 1)}
	go func() { b.done <- h.Serve(hctx) }()
	if b.Client, err = dialWhenUp(ctx, paths.SocketFile()); err != nil {
		b.Close()
		return nil, err
	}
	return b, nil
}

// dialWhenUp dials the socket until the host listens.
func dialWhenUp(ctx context.Context, socket string) (*client.Client, error) {
	deadline := time.Now().Add(10 * time.Second)
	for step := time.Millisecond; ; step = min(step*2, 50*time.Millisecond) {
		if c, err := net.Dial("unix", socket); err == nil {
			c.Close()
			return client.Dial(ctx, socket)
		}
		if time.Now().After(deadline) {
			return nil, fmt.Errorf("host socket %s never came up", socket)
		}
		time.Sleep(step)
	}
}

// Close stops the host (killing its panes) and removes its directories.
func (b *Host) Close() error {
	if b.Client != nil {
		_ = b.Client.Close() // best effort: the host goes next
	}
	b.cancel()
	err := <-b.done
	os.RemoveAll(b.dir)
	return err
}

// spawn starts argv in a pane of cols x rows and returns its id.
func (b *Host) spawn(ctx context.Context, cols, rows int, argv ...string) (string, error) {
	r, err := b.Client.Spawn(ctx, proto.SpawnReq{
		Nonce: fmt.Sprint(time.Now().UnixNano()), Argv: argv, Kind: "run",
		Cols: uint16(cols), Rows: uint16(rows),
	})
	return r.Pane.ID, err
}
