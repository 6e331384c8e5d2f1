// A Run's I/O: the PTY master or the output pipes, the single reader of
// each, input writes with a timeout, and resizing. The PTY master is kept
// in non-blocking mode so reads, writes and deadlines go through Go's
// poller; O_NONBLOCK is shared by every dup of it (DupMaster), which
// receivers handle by wrapping the fd with os.NewFile.

package supervisor

import (
	"errors"
	"fmt"
	"io"
	"os"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/creack/pty"
	"golang.org/x/sys/unix"
)

// openIO opens the PTY or the pipes for spec.
func (r *Run) openIO(spec Spec) error {
	if spec.PTY != nil {
		return r.openPTY(spec.PTY)
	}
	return r.openPipes(spec.Pipe)
}

func (r *Run) openPTY(arm *PTYArm) error {
	m, slave, err := pty.Open()
	if err != nil {
		return fmt.Errorf("open pty: %w", err)
	}
	master, err := nonblocking(m)
	if err != nil {
		_ = slave.Close() // best effort: error path
		return err
	}
	r.master = master
	r.readers, r.sinks = []*os.File{master}, []io.Writer{orDiscard(arm.Output)}
	r.childFiles = []*os.File{slave, slave, slave}
	r.ownedChild = []*os.File{slave}
	size := arm.Size
	if size == (Size{}) {
		size = defaultSize
	}
	return r.Resize(size)
}

// nonblocking replaces f (which creack/pty left in blocking mode) with a
// non-blocking, poller-backed dup and closes f.
func nonblocking(f *os.File) (*os.File, error) {
	defer func() { _ = f.Close() }() // best effort: the dup below is what we keep
	fd, err := unix.FcntlInt(f.Fd(), unix.F_DUPFD_CLOEXEC, 0)
	if err != nil {
		return nil, fmt.Errorf("dup pty master: %w", err)
	}
	if err := unix.SetNonblock(fd, true); err != nil {
		_ = unix.Close(fd) // best effort: error path
		return nil, fmt.Errorf("set pty master non-blocking: %w", err)
	}
	return os.NewFile(uintptr(fd), "/dev/ptmx"), nil
}

func (r *Run) openPipes(arm *PipeArm) error {
	stdin := arm.Stdin
	if stdin == nil {
		null, err := os.Open(os.DevNull)
		if err != nil {
			return fmt.Errorf("open stdin: %w", err)
		}
		stdin = null
		r.ownedChild = append(r.ownedChild, null)
	}
	r.childFiles = []*os.File{stdin, nil, nil}
	for i, sink := range []io.Writer{arm.Stdout, arm.Stderr} {
		rd, wr, err := os.Pipe()
		if err != nil {
			return fmt.Errorf("open output pipe: %w", err)
		}
		r.readers, r.sinks = append(r.readers, rd), append(r.sinks, orDiscard(sink))
		r.childFiles[i+1] = wr
		r.ownedChild = append(r.ownedChild, wr)
	}
	return nil
}

func orDiscard(w io.Writer) io.Writer {
	if w == nil {
		return io.Discard
	}
	return w
}

// closeChildFiles closes the parent's copies of the child's ends.
func (r *Run) closeChildFiles() {
	for _, f := range r.ownedChild {
		_ = f.Close() // best effort: the child holds its own copies
	}
	r.ownedChild = nil
}

// releaseUnstarted undoes openIO and the cgroup leaf when no child exists.
func (r *Run) releaseUnstarted() {
	r.closeChildFiles()
	for _, f := range r.readers {
		_ = f.Close() // best effort: nothing was read or written
	}
	if r.leaf != nil {
		_ = r.leaf.remove() // best effort: an empty leaf left behind is harmless
	}
}

// readChunk is the size of a read buffer: a PTY hands over at most about
// 4 KiB a read.
const readChunk = 8 << 10

// readBufs holds the read buffers: a reader takes one only once its file
// is readable and gives it back after handing the chunk on, so an idle
// pane holds none (8 KiB each was a fifth of an idle shell's heap).
var readBufs = sync.Pool{New: func() any { b := make([]byte, readChunk); return &b }}

// Flusher is an Output that may still be handling a chunk after its Write
// returned (the host parses a flood on another goroutine). The reader
// calls Flush before it parks (Freeze) or returns, so that once a run is
// drained or frozen its output has been handled whole.
type Flusher interface {
	Flush()
}

// TimedOutput is an Output that takes each chunk with the time it was
// read: the reader reads the clock once per chunk (for the watchdog's
// stamp), and the output reuses that reading rather than its own (issue
// 12: a keystroke's echo read the clock three times on the host).
type TimedOutput interface {
	WriteAt(b []byte, now time.Time)
}

// readLoop is the single reader of f: it copies to sink until EOF, EIO
// (the PTY master's EOF), a closed file or the drain deadline.
func (r *Run) readLoop(f *os.File, sink io.Writer) {
	rc, err := f.SyscallConn()
	for err == nil {
		var buf *[]byte
		var n int
		n, buf, err = readPooled(rc)
		if n > 0 {
			writeOutput(sink, (*buf)[:n], &r.lastOutput)
		}
		if buf != nil {
			readBufs.Put(buf)
		}
		if err != nil {
			if fl, ok := sink.(Flusher); ok {
				fl.Flush()
			}
			if r.parkIfHeld(f, err) {
				err = nil
			}
		}
	}
}

// writeOutput stamps last with the time of chunk b and hands b to sink.
func writeOutput(sink io.Writer, b []byte, last *atomic.Int64) {
	now := time.Now()
	last.Store(now.UnixNano())
	if tw, ok := sink.(TimedOutput); ok {
		tw.WriteAt(b, now)
		return
	}
	_, _ = sink.Write(b) // best effort: the sink owns its errors
}

// readPooled waits until rc is readable, then reads into a buffer from
// readBufs, which the caller puts back. End of file is io.EOF.
func readPooled(rc syscall.RawConn) (n int, buf *[]byte, err error) {
	var rerr error
	err = rc.Read(func(fd uintptr) bool {
		if buf == nil {
			buf = readBufs.Get().(*[]byte)
		}
		n, rerr = ignoringEINTR(func() (int, error) { return unix.Read(int(fd), *buf) })
		if rerr == unix.EAGAIN {
			readBufs.Put(buf)
			buf = nil
			return false // wait in the poller, holding no buffer
		}
		return true
	})
	switch {
	case err != nil:
	case rerr != nil:
		err = fmt.Errorf("read %w", rerr)
	case n == 0:
		err = io.EOF
	}
	return max(n, 0), buf, err
}

// ignoringEINTR retries fn while a signal interrupts it.
func ignoringEINTR(fn func() (int, error)) (int, error) {
	for {
		n, err := fn()
		if err != unix.EINTR {
			return n, err
		}
	}
}

// WriteInput writes p to the PTY. If the child stops reading and the input
// buffer stays full for the run's InputTimeout, it returns how much was
// written and an error wrapping os.ErrDeadlineExceeded; the pane is left
// as it was. The deadline restarts whenever the child took some of p: a
// program that reads a big paste steadily, however slowly, gets all of it
// (a deadline for the whole write cut a 4 MiB paste part into a program
// reading under 840 KB/s). Writes are serialized.
func (r *Run) WriteInput(p []byte) (int, error) {
	if r.master == nil {
		return 0, fmt.Errorf("write input to %s: not a PTY run", r.id)
	}
	r.writeMu.Lock()
	defer r.writeMu.Unlock()
	var n int
	var err error
	for {
		if err = r.master.SetWriteDeadline(time.Now().Add(r.limits.InputTimeout)); err != nil {
			return n, fmt.Errorf("write input to %s: %w", r.id, err)
		}
		var k int
		k, err = r.master.Write(p[n:])
		n += k
		if k == 0 || !errors.Is(err, os.ErrDeadlineExceeded) {
			break // done, failed, or nothing taken for a whole InputTimeout
		}
	}
	if errors.Is(err, os.ErrDeadlineExceeded) {
		return n, fmt.Errorf("write input to %s: wrote %d of %d bytes; the program has not read its input for %v (input buffer full): %w",
			r.id, n, len(p), r.limits.InputTimeout, err)
	}
	if err != nil {
		return n, fmt.Errorf("write input to %s: %w", r.id, err)
	}
	return n, nil
}

// Resize sets the PTY window size (TIOCSWINSZ); the kernel sends SIGWINCH.
func (r *Run) Resize(s Size) error {
	if r.master == nil {
		return fmt.Errorf("resize %s: not a PTY run", r.id)
	}
	ws := &unix.Winsize{Row: s.Rows, Col: s.Cols}
	var ioctlErr error
	err := r.controlMaster(func(fd int) { ioctlErr = unix.IoctlSetWinsize(fd, unix.TIOCSWINSZ, ws) })
	if err = errors.Join(err, ioctlErr); err != nil {
		return fmt.Errorf("resize pty of %s to %dx%d: %w", r.id, s.Cols, s.Rows, err)
	}
	return nil
}

// DupMaster returns a new file on the PTY master (close-on-exec), for
// SCM_RIGHTS. The caller owns and closes it. Valid until Done is closed.
func (r *Run) DupMaster() (*os.File, error) {
	if r.master == nil {
		return nil, fmt.Errorf("dup pty master of %s: not a PTY run", r.id)
	}
	nfd, dupErr := -1, error(nil)
	err := r.controlMaster(func(fd int) { nfd, dupErr = unix.FcntlInt(uintptr(fd), unix.F_DUPFD_CLOEXEC, 0) })
	if err = errors.Join(err, dupErr); err != nil {
		return nil, fmt.Errorf("dup pty master of %s: %w", r.id, err)
	}
	return os.NewFile(uintptr(nfd), "/dev/ptmx"), nil
}

// controlMaster runs fn on the master's fd without switching it to
// blocking mode (which os.File.Fd would do).
func (r *Run) controlMaster(fn func(fd int)) error {
	rc, err := r.master.SyscallConn()
	if err != nil {
		return err
	}
	return rc.Control(func(fd uintptr) { fn(int(fd)) })
}
