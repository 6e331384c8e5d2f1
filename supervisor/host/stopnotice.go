// A stopping host tells its clients so (docs/protocol.md, "Stop
// notice"). Without a word, a client whose connection ended unanswered
// took the host for crashed and waited for one to come back (20 s,
// client.reconnectWait) before it said that none runs. Now, once a stop
// begins (host stop, idle exit, a signal):
//
//   - the host lock says so (persist.Stopping), and the socket file is
//     removed, so no new connection can queue;
//   - every connection already queued gets its hello answered with the
//     error shutting-down instead of a welcome;
//   - every welcomed connection, once its running requests are answered,
//     gets the stop notice as its last frame: a push on request id 0,
//     flagged end, carrying shutting-down. A request with no reply by
//     then may or may not have run, as after a crash; but no host serves,
//     and the client need not wait for one.

package host

import (
	"errors"
	"net"
	"os"
	"sync"
	"syscall"
	"time"

	"golang.org/x/sys/unix"

	"clowder/persist"
	"clowder/supervisor/proto"
)

// errStopping is what a stopping host answers a queued hello, and its
// stop notice.
var errStopping = &proto.ErrorReply{Code: proto.CodeShuttingDown,
	Message: "the clowder host is stopping; requests without a reply may or may not have run: see clowder ls"}

// stopListening says in the host lock that the host is stopping, removes
// the socket file, so that no new connection queues for a host that is
// going away, and wakes the accept loop.
func (h *Server) stopListening() {
	h.mu.Lock()
	ln, lock := h.ln, h.lock
	h.mu.Unlock()
	if lock != nil { // before the socket goes: a client that finds no socket reads the lock
		if err := lock.Advertise(persist.Stopping); err != nil {
			h.log.Printf("stop: %v", err)
		}
	}
	ln.SetUnlinkOnClose(false) // removed here, before the queue is read
	path := h.opts.Paths.SocketFile()
	if err := os.Remove(path); err != nil && !errors.Is(err, os.ErrNotExist) {
		h.log.Printf("stop: remove socket %s: %v", path, err)
	}
	_ = ln.SetDeadline(time.Now()) // best effort: ends the loop's Accept; Close below would too
}

// refuseQueued answers every connection that queued before the socket
// was removed with shutting-down, and closes the listener. The queue is
// read without waiting: nothing can join it any more.
func (h *Server) refuseQueued() {
	ln := h.listener()
	defer ln.Close()
	var wg sync.WaitGroup
	for _, uc := range acceptQueued(ln) {
		wg.Add(1)
		go func() { // each bounded by shutdownWriteTimeout
			defer wg.Done()
			refuseStopping(uc)
		}()
	}
	wg.Wait()
}

// acceptQueued accepts the connections waiting in ln's queue, without
// waiting for more.
func acceptQueued(ln *net.UnixListener) []*net.UnixConn {
	raw, err := ln.SyscallConn()
	if err != nil {
		return nil
	}
	var fds []int
	_ = raw.Control(func(lfd uintptr) { // best effort: a queue not read is closed with the listener
		for { // the listener does not block: EAGAIN once the queue is empty
			syscall.ForkLock.RLock() // no spawn inherits it before close-on-exec
			fd, _, err := unix.Accept(int(lfd))
			if err == nil {
				unix.CloseOnExec(fd)
			}
			syscall.ForkLock.RUnlock()
			if errors.Is(err, unix.EINTR) || errors.Is(err, unix.ECONNABORTED) {
				continue // a signal, or a client that hung up while queued
			}
			if err != nil {
				return
			}
			fds = append(fds, fd)
		}
	})
	var conns []*net.UnixConn
	for _, fd := range fds {
		f := os.NewFile(uintptr(fd), "queued client")
		c, err := net.FileConn(f)
		_ = f.Close() // FileConn holds its own copy
		if uc, ok := c.(*net.UnixConn); err == nil && ok {
			conns = append(conns, uc)
		} else if err == nil {
			_ = c.Close()
		}
	}
	return conns
}

// refuseStopping reads a queued client's hello and answers it with
// shutting-down. The hello is read first: a reply written before it came
// could be lost to the client's write failing on a closed connection. A
// stranger is closed on as always.
func refuseStopping(uc *net.UnixConn) {
	defer uc.Close()
	if checkPeer(uc) != nil {
		return
	}
	_ = uc.SetDeadline(time.Now().Add(shutdownWriteTimeout))
	fc := proto.NewFdConn(uc)
	g, err := proto.ReadHello(fc, proto.MinVersion, proto.MaxVersion, proto.WelcomeReply{})
	if err != nil {
		return // refused already (version, no hello), or gone
	}
	_ = g.Refuse(fc, errStopping) // best effort: the client sees the connection end
}

// tellStopping sends c the stop notice, its last frame.
func (c *conn) tellStopping() {
	_ = c.fc.WriteFrame(mustFrame(0, proto.FlagPush|proto.FlagEnd, errStopping)) // best effort, within shutdownWriteTimeout (readLoop)
}
