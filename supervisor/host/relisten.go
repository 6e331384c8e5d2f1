// A host whose socket file was removed (a /tmp cleaner, an rm of the
// runtime dir's contents) runs on with its panes but no client can reach
// it, and killing it would end them all. On SIGUSR1 (as tmux does) it
// listens on its socket path again; clients send the signal themselves
// when they find the host lock held and no socket (client.Connect).

package host

import (
	"context"
	"net"
	"os"
	"os/signal"
	"syscall"
	"time"

	"clowder/persist"
)

// listener is the socket the host accepts on now.
func (h *Server) listener() *net.UnixListener {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.ln
}

// relistenOnSignal calls relisten at each SIGUSR1 until ctx ends.
func (h *Server) relistenOnSignal(ctx context.Context) {
	usr1 := make(chan os.Signal, 1)
	signal.Notify(usr1, syscall.SIGUSR1)
	defer signal.Stop(usr1)
	for {
		select {
		case <-ctx.Done():
			return
		case <-usr1:
			h.relisten()
		}
	}
}

// relisten listens on the socket path again if nothing answers there any
// more (the file is gone, or is a dead socket); the accept loop moves to
// the new listener and the old one, unreachable, is closed. A socket that
// answers (this host's, or another program's) is left alone.
func (h *Server) relisten() {
	path := h.opts.Paths.SocketFile()
	if c, err := net.DialTimeout("unix", path, relistenDial); err == nil {
		_ = c.Close() // best effort: only asked whether it answers
		return
	}
	ln, err := listenSocket(path)
	if err != nil {
		h.log.Printf("listen again on %s: %v", path, err)
		return
	}
	h.mu.Lock()
	old := h.ln
	h.ln = ln
	h.mu.Unlock()
	old.SetUnlinkOnClose(false) // the path is the new listener's now
	_ = old.Close()             // best effort: ends its Accept; the loop takes the new one
	h.log.Printf("socket %s was gone; listening on it again", path)
}

// relistenDial bounds relisten's check that the socket still answers.
const relistenDial = time.Second

// advertise records in the host lock that SIGUSR1 makes this host listen
// again, so that a client finding the lock held and no socket sends it.
func (h *Server) advertise(lock *persist.Lockfile) {
	if err := lock.Advertise(persist.CanRelisten); err != nil {
		h.log.Printf("%v; a client cannot bring back this host's socket if it is removed", err)
	}
}
