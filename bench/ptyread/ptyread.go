// Package ptyread measures the floor under any multiplexer's flood: a
// process that reads a PTY master and discards what it reads, while `cat
// FILE` writes to the slave in raw mode. It reads the way the host's pane
// reader does (os.File.Read through the runtime poller, 32 KiB buffer), so
// the gap between this figure and the host's is the host's own work.
package ptyread

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"syscall"
	"time"

	"github.com/creack/pty"
	"golang.org/x/term"

	"clowder/bench/throughput"
)

// Result is one bare read of a file through a PTY.
type Result struct {
	Bytes int64
	Wall  time.Duration // start of cat until the master's EOF
	CPU   time.Duration // this process's CPU over the same time (cat's own excluded)
	Reads int           // read calls that returned data
}

// MBps is the wall-clock rate.
func (r Result) MBps() float64 { return float64(r.Bytes) / 1e6 / r.Wall.Seconds() }

// MBperCPUs is megabytes per CPU second of the reader.
func (r Result) MBperCPUs() float64 {
	if r.CPU <= 0 {
		return 0
	}
	return float64(r.Bytes) / 1e6 / r.CPU.Seconds()
}

// Read runs cat FILE on a raw-mode PTY of cols x rows and reads the master
// to EOF, discarding the bytes.
func Read(ctx context.Context, file string, cols, rows int) (Result, error) {
	master, tty, err := pty.Open()
	if err != nil {
		return Result{}, fmt.Errorf("bare pty read: open pty: %w", err)
	}
	defer master.Close()
	_ = pty.Setsize(master, &pty.Winsize{Cols: uint16(cols), Rows: uint16(rows)}) // best effort: cat ignores the size
	if _, err := term.MakeRaw(int(tty.Fd())); err != nil {
		_ = tty.Close() // best effort: already failing
		return Result{}, fmt.Errorf("bare pty read: raw mode: %w", err)
	}
	cmd := exec.CommandContext(ctx, "cat", file)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = tty, tty, tty
	start, cpu := time.Now(), throughput.ProcessCPU()
	if err := cmd.Start(); err != nil {
		_ = tty.Close() // best effort: already failing
		return Result{}, fmt.Errorf("bare pty read: start cat: %w", err)
	}
	_ = tty.Close() // cat holds its own copy: its exit brings the master's EOF
	r, err := drain(master)
	r.Wall, r.CPU = time.Since(start), throughput.ProcessCPU()-cpu
	if werr := cmd.Wait(); err == nil && werr != nil {
		err = fmt.Errorf("bare pty read: cat %s: %w", file, werr)
	}
	return r, err
}

// drain reads master until EOF (EIO once the slave is closed).
func drain(master *os.File) (Result, error) {
	var r Result
	buf := make([]byte, 32<<10)
	for {
		n, err := master.Read(buf)
		if n > 0 {
			r.Bytes += int64(n)
			r.Reads++
		}
		switch {
		case err == nil:
		case errors.Is(err, io.EOF), errors.Is(err, syscall.EIO):
			return r, nil
		default:
			return r, fmt.Errorf("bare pty read: %w", err)
		}
	}
}
