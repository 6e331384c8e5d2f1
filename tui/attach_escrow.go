package tui

// This file is how `clowder attach` outlives its host (ADR 0004). Attach
// holds the pane's PTY master (its subscription passed it) and writes keys
// to it. When the subscription ends because the connection was lost (the
// host died) or the host is upgrading in place, attach keeps that master
// open, so the agent gets no SIGHUP and keys still reach it, and tries
// every reconnectRetry to connect again (starting a host if none runs, as
// the TUI does). On a new connection it hands the master back with an
// escrow request naming the leader and carrying the screen it last drew
// (client.HandBack; a host that runs the pane already answers "existing",
// as after an upgrade), takes a fresh frame, redraws and streams on.
//
// Leaving (the detach key, or the session's end) while the host may not
// hold the terminal hands it over first. If no host can be reached, the
// detach key asks, in one line on the bottom row, before hanging the agent
// up; anything but y stays attached.

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"clowder/supervisor/client"
)

// resumeTimeout bounds one attempt to reconnect, hand back and subscribe
// (a host started on demand has client.HostStartTimeout to answer).
const resumeTimeout = 30 * time.Second

// masterBox is the pane's master, replaced when a new host passes its own
// copy. Writes go to the current one.
type masterBox struct {
	mu sync.Mutex
	f  *client.Master
}

// Write writes keys to the current master.
func (b *masterBox) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.f == nil {
		return 0, errors.New("the pane's terminal is closed")
	}
	return b.f.Write(p)
}

// set makes f the master and closes the one it replaces (f's twin: the
// same terminal, which the host holds again).
func (b *masterBox) set(f *client.Master) {
	b.mu.Lock()
	old := b.f
	b.f = f
	b.mu.Unlock()
	if old != nil && old != f {
		_ = old.Close() // best effort: a copy of a terminal still open elsewhere
	}
}

// file is the current master.
func (b *masterBox) file() *client.Master {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.f
}

// resumed is the outcome of one resume attempt.
type resumed struct {
	link    *link
	refused error // the host would not take the terminal back
	err     error // no host reached, or the pane not subscribed again
}

// resumable reports whether the link's subscription ended because the
// connection was lost or the host is upgrading: attach then goes on.
// Any other end ends the session.
func (s *session) resumable() bool {
	return client.Resumable(s.link.sub.Err()) || s.r.Lost()
}

// suspend drops the lost link, keeping its master, and starts resuming.
func (s *session) suspend(ctx context.Context) {
	s.link.close()
	s.link, s.events, s.held = nil, nil, true
	s.startResume(ctx)
}

// startResume makes one attempt in the background; its outcome comes on
// s.resumed.
func (s *session) startResume(ctx context.Context) {
	s.retry = nil
	held := s.heldMaster()
	go func() { s.resumed <- s.resume(ctx, held) }()
}

// heldMaster is the hand-back of the master: the leader as last seen and
// the screen last drawn.
func (s *session) heldMaster() client.Held {
	info := s.info
	info.ID = s.pane
	return client.Held{Req: client.EscrowRequest(info, s.scr.frame(s.pane)), Master: s.master.file()}
}

// resume connects again if the connection is lost, hands the master back
// to a new connection's host, and opens a new link.
func (s *session) resume(ctx context.Context, held client.Held) resumed {
	ctx, cancel := context.WithTimeout(ctx, resumeTimeout)
	defer cancel()
	refused, err := handOver(ctx, s.r, held)
	if err != nil || refused != nil {
		return resumed{refused: refused, err: err}
	}
	c := s.r.Client()
	if sz, ok := attachSize(s.in); ok {
		_ = c.Resize(ctx, s.pane, uint16(sz.Cols), uint16(sz.Rows)) // best effort, as at start
	}
	l, err := openLink(ctx, c, s.pane)
	return resumed{link: l, err: err}
}

// errLeaderEnded is handOver's refusal when the pane's process ended
// with its host (a forced stop) and no host runs: nothing to hand back.
var errLeaderEnded = errors.New("its process ended with its host, and no host runs (no host was started for it)")

// handOver makes sure a host holds the terminal of held: over a new
// connection (starting a host) it hands the master back; a connection
// that is still up keeps it. err is a failure to reach a host; refused
// is the host's refusal, or the pane's leader ended with no host running
// (host stop --force killed it): then no host is started for it.
func handOver(ctx context.Context, r *client.Redialer, held client.Held) (refused, err error) {
	need := func() bool { return client.LeaderAlive(held.Req.Pid, held.Req.PidStart) }
	swapped, err := r.Reconnect(client.StartOnlyIf(ctx, need))
	if errors.Is(err, client.ErrNoHostNeeded) {
		return errLeaderEnded, nil
	}
	if err != nil || !swapped {
		return nil, err
	}
	errs := client.HandBack(ctx, r, []client.Held{held}, callTimeout)
	return errs[held.Req.Pane], nil
}

// onResumed goes on with a new link, or tries again later. A refused
// hand-back ends the session: the host runs another process as the pane,
// or none.
func (s *session) onResumed(ctx context.Context, res resumed) error {
	switch {
	case errors.Is(res.refused, errLeaderEnded):
		return fmt.Errorf("attach %s: %w", s.pane, res.refused)
	case res.refused != nil:
		return fmt.Errorf("attach %s: the new host did not take the pane's terminal back: %w", s.pane, res.refused)
	case res.err != nil:
		s.retry = time.After(reconnectRetry)
		return nil
	case res.link.master == nil:
		res.link.close()
		return fmt.Errorf("attach %s: the pane no longer runs on the new host (%s)", s.pane, res.link.info.State)
	}
	s.use(res.link)
	s.hint = false
	_, err := io.WriteString(s.out, drawFrame(s.first))
	return err
}

// leave reports whether the session may end on the detach key: yes when a
// host holds the terminal (handed over now if need be), else only if the
// user says so. When it stays, keys are read again.
func (s *session) leave(ctx context.Context) bool {
	ctx, cancel := context.WithTimeout(ctx, resumeTimeout)
	defer cancel()
	if !s.mayBeHeld(ctx) {
		return true
	}
	refused, err := handOver(ctx, s.r, s.heldMaster())
	if err == nil && (refused == nil || errors.Is(refused, errLeaderEnded)) {
		s.held = false // a host holds the terminal, or nothing is left to hang up
		return true
	}
	if err == nil {
		err = refused
	}
	if s.askHangUp(err) {
		return true
	}
	s.startKeys()
	return false
}

// askHangUp asks on the bottom row whether to end with no host holding
// the pane's terminal, which hangs the agent up; only y says yes.
func (s *session) askHangUp(err error) bool {
	rows, cols := s.scr.rows, s.scr.cols
	if rows == 0 || cols == 0 {
		rows, cols = int(s.first.Rows), int(s.first.Cols)
	}
	why := strings.ReplaceAll(err.Error(), "\n", " ")
	text := fmt.Sprintf(" hang up %s and detach? y/N (no host can take it back: %s) ", s.pane, why)
	if len(text) > cols {
		text = text[:max(cols, 0)]
	}
	io.WriteString(s.out, cup(rows-1, 0)+"\x1b[0;7m"+text+"\x1b[0m")
	var b [1]byte
	n, _ := s.in.Read(b[:])
	yes := n == 1 && (b[0] == 'y' || b[0] == 'Y')
	if f := s.scr.frame(s.pane); !yes && f != nil {
		io.WriteString(s.out, drawFrame(f))
	}
	return yes
}

// close ends the session's link and closes the master, handing it over
// first (without asking) when the host may not hold it.
func (s *session) close() {
	if s.link != nil {
		s.link.close()
	}
	ctx, cancel := context.WithTimeout(context.Background(), resumeTimeout)
	defer cancel()
	if s.master.file() != nil && s.mayBeHeld(ctx) {
		_, _ = handOver(ctx, s.r, s.heldMaster()) // best effort: no one is left to ask
	}
	s.master.set(nil)
}

// mayBeHeld reports whether the host may not hold the pane's terminal:
// the link was lost, or the connection turns out lost under a round trip
// (the host died a moment ago, and the link's end is still to come).
func (s *session) mayBeHeld(ctx context.Context) bool {
	if !s.held && s.r.Probe(ctx) {
		s.held = true
	}
	return s.held
}
