// Panes adopted from tmux (clowder adopt tmux; docs/processes.md,
// "Adopted tmux panes"). tmux stays the parent of the pane's process and
// the owner of its terminal: the host has no PTY master for it. Its
// output reaches the host through `pipe-pane -O` into a fifo in the
// runtime dir, after a screen seeded from `capture-pane` in the same tmux
// command list; input goes through send-keys and paste-buffer -p. The
// identity recorded at adoption (tmux server pid and start time, session
// target, pane id, pane process and its start time, its command line) is
// read again before every action; any change refuses it with "refusing
// identity-unverified handoff" and nothing is sent, so a process that
// took the pane's place (respawn-pane) is never signalled or typed into.

package host

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"clowder/panes"
	"clowder/persist"
	"clowder/supervisor"
	"clowder/supervisor/proto"
)

// tmuxEndWait bounds what the end of a pane asks tmux (its exit status,
// stopping the pipe): a stopped or hung server must not hold up the
// pane's exit record.
const tmuxEndWait = 2 * time.Second

// tmuxLink is what the host holds of a pane adopted from tmux.
type tmuxLink struct {
	srv     supervisor.TmuxServer
	fifo    *os.File           // the read end of pipe-pane's output
	path    string             // the fifo's path
	stop    context.CancelFunc // ends the watcher (set before it starts, then read only)
	killing bool               // under the pane's mu: a kill is under way
	ended   bool               // under the pane's mu: its end is recorded
	paste   []byte             // under the pane's mu: the parts of a split paste so far
	done    chan struct{}
}

// tmuxOf is p's tmux link, nil for other panes.
func (p *pane) tmuxOf() *tmuxLink {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.tmux
}

// adoptTmux handles an adopt-tmux request.
func (c *conn) adoptTmux(id uint32, req *proto.AdoptTmuxReq) {
	p, err := c.h.adoptTmux(c.ctx, req)
	if err != nil {
		c.fail(id, err)
		return
	}
	c.reply(id, &proto.AdoptedReply{Pane: p.info()})
}

// adoptTmux verifies the pane req names and makes it a pane of this host,
// its screen seeded and its output flowing.
func (h *Server) adoptTmux(ctx context.Context, req *proto.AdoptTmuxReq) (*pane, error) {
	srv := supervisor.TmuxServer{Socket: req.Socket}
	st, err := srv.Identify(ctx, req.Target)
	if err != nil {
		return nil, tmuxError(req.Target, err)
	}
	if st.Dead {
		return nil, &proto.ErrorReply{Code: proto.CodeExited, Message: fmt.Sprintf(
			"tmux pane %s (%s) is dead: its process %d has exited; nothing to adopt", st.Pane.PaneID, st.Pane.Target, st.Process.PID)}
	}
	p, err := h.registerTmux(req, st)
	if err != nil {
		return nil, err
	}
	if err := h.startTmux(ctx, p, srv); err != nil {
		h.forget(p)
		return nil, err
	}
	info := p.info()
	h.log.Printf("%s (%s) adopted from tmux: %s", p.id, info.Name, info.Containment)
	h.events.publish(proto.PaneEvent{Kind: proto.EventAdded, Pane: p.id, Info: &info})
	h.saveRegistry()
	h.armIdle()
	return p, nil
}

// tmuxError turns a failed tmux command into the protocol's error.
func tmuxError(target string, err error) error {
	var e *proto.ErrorReply
	switch {
	case errors.As(err, &e):
		return e
	case errors.Is(err, supervisor.ErrTmuxServerGone):
		return &proto.ErrorReply{Code: proto.CodeNotFound, Message: fmt.Sprintf("%v; check -L or -S (tmux ls)", err)}
	case errors.Is(err, supervisor.ErrTmuxNoPane):
		return &proto.ErrorReply{Code: proto.CodeNotFound, Message: fmt.Sprintf("no tmux pane %q: %v; see tmux list-panes -a", target, err)}
	}
	return &proto.ErrorReply{Code: proto.CodeBadRequest, Message: err.Error()}
}

// registerTmux records the pane under a new id, refusing a tmux pane some
// live pane already is.
func (h *Server) registerTmux(req *proto.AdoptTmuxReq, st supervisor.TmuxStatus) (*pane, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, q := range h.panes {
		if r := q.record(); r.Tmux != nil && q.live() && r.Tmux.Socket == st.Pane.Socket && r.Tmux.PaneID == st.Pane.PaneID {
			return nil, &proto.ErrorReply{Code: proto.CodeConflict, Message: fmt.Sprintf("tmux pane %s is already pane %s; see clowder ls", st.Pane.PaneID, q.id)}
		}
	}
	name := req.Name
	switch {
	case name != "" && h.nameTakenLocked(name):
		return nil, &proto.ErrorReply{Code: proto.CodeConflict, Message: fmt.Sprintf("a pane is already named %q; choose another --name", name)}
	case name == "":
		name = h.freeNameLocked(panes.SafeName(filepath.Base(firstWord(st.Pane.Command, st.Current))))
	}
	h.nextID++
	tp := st.Pane
	rec := persist.PaneRecord{
		ID: "p" + strconv.Itoa(h.nextID), Name: name, Kind: persist.KindShell,
		Argv: supervisor.Redact(strings.Fields(tp.Command)), Cwd: st.Cwd, Created: time.Now(), State: persist.StateRunning,
		PID: st.Process.PID, PIDStart: st.Process.Start, BootID: st.Process.BootID, PGID: st.Process.PID,
		Size: persist.Size{Cols: st.Cols, Rows: st.Rows}, Tmux: &tp,
	}
	if len(rec.Argv) == 0 {
		rec.Argv = []string{st.Current}
	}
	p := newPane(h, rec)
	h.panes = append(h.panes, p)
	return p, nil
}

// firstWord is the first word of cmd, or fallback when it has none.
func firstWord(cmd, fallback string) string {
	if f := strings.Fields(cmd); len(f) > 0 {
		return f[0]
	}
	return fallback
}

// startTmux opens the pane's fifo, seeds its screen and starts its
// output, and watches its process.
func (h *Server) startTmux(ctx context.Context, p *pane, srv supervisor.TmuxServer) error {
	path := filepath.Join(h.opts.Paths.RuntimeDir, "tmux-"+p.id+".fifo")
	fifo, err := supervisor.OpenFifo(path)
	if err != nil {
		return err
	}
	rec := p.record()
	seed, err := srv.PipeTo(ctx, rec.Tmux.PaneID, fifo, path)
	if err == nil {
		err = p.tmuxSame("adopt", seed.Status)
	}
	if err != nil {
		srv.Unpipe(context.Background(), rec.Tmux.PaneID)
		_ = fifo.Close()    // best effort: nothing read yet
		_ = os.Remove(path) // best effort
		return tmuxError(rec.Tmux.PaneID, err)
	}
	watch, stop := context.WithCancel(h.orphans.context()) // ends with the host, or when rm lets the pane go
	l := &tmuxLink{srv: srv, fifo: fifo, path: path, done: make(chan struct{}), stop: stop}
	p.mu.Lock()
	p.tmux = l
	p.seedLocked(seed)
	p.lastOut = time.Now()
	p.armJudgeLocked()
	p.mu.Unlock()
	go p.readTmux(l)
	h.orphans.run(func(context.Context) { p.watchTmux(watch, l) })
	h.orphans.run(func(context.Context) { p.followTmuxLayout(watch, l) }) // tmux_size.go
	return nil
}

// seedLocked paints capture-pane's picture on the screen: the alternate
// screen if the pane shows it, the rows, the cursor.
func (p *pane) seedLocked(seed supervisor.Seed) {
	st := seed.Status
	p.term.Resize(max(st.Cols, 1), max(st.Rows, 1))
	var b strings.Builder
	if st.Alternate {
		b.WriteString("\x1b[?1049h")
	}
	b.WriteString("\x1b[H\x1b[2J")
	rows := strings.Split(strings.TrimSuffix(seed.Screen, "\n"), "\n")
	for i, row := range rows {
		if i > 0 {
			b.WriteString("\r\n")
		}
		b.WriteString(row)
		b.WriteString("\x1b[0m")
	}
	fmt.Fprintf(&b, "\x1b[%d;%dH", st.CursorY+1, st.CursorX+1)
	b.WriteString(seedModes(st))
	_, _ = p.term.Write([]byte(b.String())) // never fails
	_, _ = p.ring.Write(seed.Early)         // never fails
	_, _ = p.term.Write(seed.Early)         // never fails
	p.replies = nil                         // a seed asks nothing
	p.broadcastLocked()
}

// seedModes sets the modes tmux reports, so that keys a client encodes
// from the screen's modes (the TUI) match what the program asked for.
func seedModes(st supervisor.TmuxStatus) string {
	var b strings.Builder
	if st.CursorKeys {
		b.WriteString("\x1b[?1h")
	}
	if st.Keypad {
		b.WriteString("\x1b=")
	}
	if st.CursorHidden {
		b.WriteString("\x1b[?25l")
	}
	return b.String()
}

// readTmux copies the fifo into the pane until the fifo is closed.
func (p *pane) readTmux(l *tmuxLink) {
	buf := make([]byte, 32<<10)
	for {
		n, err := l.fifo.Read(buf)
		if n > 0 {
			_, _ = p.Write(buf[:n]) // never fails
		}
		if err != nil {
			p.Flush() // done means the output is on the screen
			close(l.done)
			return
		}
	}
}

// watchTmux waits for the pane's process to end (it is tmux's child, so
// through a pidfd), then records its end; when the host stops first, it
// only stops the output.
func (p *pane) watchTmux(ctx context.Context, l *tmuxLink) {
	id := p.identity()
	if supervisor.WaitExit(ctx, id) != nil {
		ctx, cancel := context.WithTimeout(context.Background(), tmuxEndWait)
		defer cancel()
		p.releaseTmux(ctx, l)
		return
	}
	p.tmuxEnded(l)
}

// tmuxEnded marks p exited once its process is gone: killed when a kill
// is under way, else with the status tmux saw (remain-on-exit) or
// unverifiable. Idempotent.
func (p *pane) tmuxEnded(l *tmuxLink) {
	rec := p.record()
	ctx, cancel := context.WithTimeout(context.Background(), tmuxEndWait)
	defer cancel()
	st, err := l.srv.Identify(ctx, rec.Tmux.PaneID)
	p.releaseTmux(ctx, l)
	l.stop() // the size follower's control client detaches
	exit := persist.Exit{Code: -1, Reason: persist.ExitUnverifiable, At: time.Now()}
	if err == nil && st.Process.PID == rec.PID && st.DeadStatus >= 0 {
		exit.Code, exit.Reason = st.DeadStatus, persist.ExitCompleted
		if st.DeadStatus != 0 {
			exit.Reason = persist.ExitFailed
		}
	}
	p.mu.Lock()
	if l.ended || p.rec.State != persist.StateRunning {
		p.mu.Unlock()
		return
	}
	l.ended = true
	if l.killing {
		exit.Reason = persist.ExitKilled
	}
	p.mu.Unlock()
	p.exited(supervisor.Exit{Code: exit.Code, Reason: exit.Reason, At: exit.At})
}

// releaseTmux stops the pane's output: tmux stops piping, and the host
// reads what is left in the fifo (until it has been quiet a moment) and
// closes it. Idempotent.
func (p *pane) releaseTmux(ctx context.Context, l *tmuxLink) {
	rec := p.record()
	l.srv.Unpipe(ctx, rec.Tmux.PaneID)
	_ = l.fifo.SetReadDeadline(time.Now().Add(200 * time.Millisecond)) // drain what tmux wrote before it stopped
	<-l.done
	_ = l.fifo.Close()    // best effort: read to the end
	_ = os.Remove(l.path) // best effort
}

// verifyTmux reads the pane again and refuses op when anything of its
// identity changed (CodeIdentity, naming what), or when its process is
// gone (CodeExited).
func (p *pane) verifyTmux(ctx context.Context, op string) (*tmuxLink, error) {
	p.mu.Lock()
	l, rec := p.tmux, p.rec
	p.mu.Unlock()
	st, err := l.srv.Identify(ctx, rec.Tmux.PaneID)
	switch {
	case errors.Is(err, supervisor.ErrTmuxServerGone) || errors.Is(err, supervisor.ErrTmuxNoPane):
		return nil, &proto.ErrorReply{Code: proto.CodeExited, Message: fmt.Sprintf(
			"pane %s is not running: tmux pane %s is gone (%v); nothing was sent", p.id, rec.Tmux.PaneID, err)}
	case err != nil:
		return nil, &proto.ErrorReply{Code: proto.CodeIdentity, Message: fmt.Sprintf(
			"refusing identity-unverified handoff: %s of pane %s: tmux pane %s cannot be checked (%v); nothing was sent", op, p.id, rec.Tmux.PaneID, err)}
	}
	if err := p.tmuxSame(op, st); err != nil {
		return nil, err
	}
	if st.Dead || rec.State != persist.StateRunning {
		return nil, &proto.ErrorReply{Code: proto.CodeExited, Message: fmt.Sprintf(
			"pane %s is not running: tmux pane %s is dead (its process %d exited); nothing was sent", p.id, rec.Tmux.PaneID, rec.PID)}
	}
	p.followTmuxSize(st)
	return l, nil
}

// followTmuxSize gives the screen the size tmux reports for the pane
// (tmux resizes it with its window), so what the program draws next lands
// where it should.
func (p *pane) followTmuxSize(st supervisor.TmuxStatus) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if st.Cols <= 0 || st.Rows <= 0 {
		return
	}
	if c, r := p.term.Size(); c != st.Cols || r != st.Rows {
		p.term.Resize(st.Cols, st.Rows)
		p.broadcastLocked()
	}
	p.rec.Size = persist.Size{Cols: st.Cols, Rows: st.Rows} // what ls shows: a tmux pane has no PTY of ours to ask
}

// tmuxSame refuses op when st is not the pane as adopted.
func (p *pane) tmuxSame(op string, st supervisor.TmuxStatus) error {
	rec := p.record()
	proc := supervisor.Identity{PID: rec.PID, Start: rec.PIDStart, BootID: rec.BootID}
	if what := supervisor.TmuxChanged(*rec.Tmux, proc, st); what != "" {
		return &proto.ErrorReply{Code: proto.CodeIdentity, Message: fmt.Sprintf(
			"refusing identity-unverified handoff: %s of pane %s: tmux pane %s changed (%s); nothing was sent or signalled", op, p.id, rec.Tmux.PaneID, what)}
	}
	return nil
}

// tmuxWrite types raw bytes (a client's encoded keys, a paste it
// bracketed itself) into the pane.
func (p *pane) tmuxWrite(b []byte) error {
	l, err := p.verifyTmux(context.Background(), "input")
	if err != nil {
		return err
	}
	p.tookInput()
	return l.srv.SendText(context.Background(), p.record().Tmux.PaneID, b)
}

// tmuxInput handles an input request: its data typed literally, then its
// keys by name, which tmux encodes for the pane's modes.
func (p *pane) tmuxInput(req *proto.InputReq) error {
	keys, err := panes.ParseKeys(req.Keys)
	if err != nil {
		return &proto.ErrorReply{Code: proto.CodeBadRequest, Message: err.Error()}
	}
	l, err := p.verifyTmux(context.Background(), "input")
	if err != nil {
		return err
	}
	p.tookInput()
	pane := p.record().Tmux.PaneID
	if err := l.srv.SendText(context.Background(), pane, req.Data); err != nil {
		return err
	}
	names := make([]string, len(keys))
	for i, k := range keys {
		names[i] = k.String()
	}
	return l.srv.SendKeys(context.Background(), pane, names)
}

// tmuxPaste handles a paste request: load-buffer and paste-buffer -p, so
// tmux brackets it when the program asked; then Enter, after the
// adapter's gap, if it submits.
func (p *pane) tmuxPaste(req *proto.PasteReq) error {
	text := req.PasteText()
	if err := panes.CheckPaste(text); err != nil {
		// tmux brackets a paste but does not clean it: an ESC could end
		// the bracket early and reach the program as keys.
		return &proto.ErrorReply{Code: proto.CodeBadRequest, Message: err.Error()}
	}
	l, err := p.verifyTmux(context.Background(), "paste")
	if err != nil {
		return err
	}
	whole, ok := p.tmuxPastePart(l, req.Part, text)
	if !ok {
		return nil // a first or middle part: pasted with the last one, as one bracketed paste
	}
	p.tookInput()
	pane := p.record().Tmux.PaneID
	// tmux turns each LF into CR as a terminal paste does; CRLF would
	// become two.
	if err := l.srv.Paste(context.Background(), pane, "clowder-"+p.id, strings.ReplaceAll(whole, "\r\n", "\n")); err != nil {
		return err
	}
	if !req.PasteSubmits() {
		return nil
	}
	time.Sleep(p.adapter.SubmitGap) // the adapter's documented pause, not a wait for a condition
	return l.srv.SendKeys(context.Background(), pane, []string{"Enter"})
}

// tmuxPastePart gathers the parts of a paste split over requests, and
// returns the whole text once it has it (ok).
func (p *pane) tmuxPastePart(l *tmuxLink, part, text string) (whole string, ok bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	switch part {
	case "":
		return text, true
	case proto.PastePartFirst:
		l.paste = append(l.paste[:0], text...)
		return "", false
	case proto.PastePartMiddle:
		l.paste = append(l.paste, text...)
		return "", false
	}
	whole = string(append(l.paste, text...))
	l.paste = nil
	return whole, true
}

// tmuxResize asks tmux for the size and takes the size tmux gave.
func (p *pane) tmuxResize(cols, rows int) error {
	if err := panes.ValidateSize(persist.Size{Cols: cols, Rows: rows}); err != nil {
		return proto.Invalid("cols/rows", "%v", err)
	}
	l, err := p.verifyTmux(context.Background(), "resize")
	if err != nil {
		return err
	}
	pane := p.record().Tmux.PaneID
	if err := l.srv.Resize(context.Background(), pane, cols, rows); err != nil {
		return err
	}
	st, err := l.srv.Identify(context.Background(), pane)
	if err != nil {
		return tmuxError(pane, err)
	}
	p.followTmuxSize(st)
	return nil
}

// tmuxTree is the pane's process tree: its process, group and session.
func (p *pane) tmuxTree() *supervisor.AdoptedTree {
	r := p.record()
	return supervisor.AdoptTree(supervisor.TreeSpec{
		Leader: supervisor.Identity{PID: r.PID, Start: r.PIDStart, BootID: r.BootID}, PGID: r.PGID,
	})
}

// tmuxSignal sends sig to the pane's process once its identity checks.
func (p *pane) tmuxSignal(expected supervisor.Identity, sig syscall.Signal) error {
	if _, err := p.verifyTmux(context.Background(), "signal"); err != nil {
		return err
	}
	leader := p.identity()
	if !expected.IsZero() && expected != leader {
		return identityError(&supervisor.MismatchError{Op: "signal", Expected: expected, Actual: leader})
	}
	return identityError(supervisor.SignalProcess(leader, sig))
}

// tmuxKill runs the kill ladder on the pane's whole tree once its identity
// checks; tmux then closes the pane or keeps it dead, as it is set to.
func (p *pane) tmuxKill(expected supervisor.Identity, sig syscall.Signal, grace time.Duration) error {
	l, err := p.verifyTmux(context.Background(), "kill")
	if err != nil {
		return err
	}
	if leader := p.identity(); !expected.IsZero() && expected != leader {
		return identityError(&supervisor.MismatchError{Op: "kill", Expected: expected, Actual: leader})
	}
	p.mu.Lock()
	l.killing = true
	p.mu.Unlock()
	if grace <= 0 {
		grace = supervisor.DefaultLimits().Grace
	}
	tree := p.tmuxTree()
	rep := tree.Kill(sig, grace, supervisor.DefaultLimits().KillWait)
	if len(rep.Survivors) > 0 {
		return fmt.Errorf("kill %s: %d processes survive SIGKILL (%v); see clowder ls --json", p.id, len(rep.Survivors), rep.Survivors)
	}
	p.tmuxEnded(l)
	return nil
}

// tmuxContainment is ls's containment of a tmux pane.
func (p *pane) tmuxContainmentLocked() string {
	t := p.rec.Tmux
	return fmt.Sprintf("tmux %s on server %d", t.PaneID, t.ServerPID)
}

// tmuxRunningLocked reports whether p is a tmux pane whose process runs.
func (p *pane) tmuxRunningLocked() bool {
	return p.tmux != nil && p.rec.State == persist.StateRunning
}

// tmuxNoRespawn refuses to respawn a pane adopted from tmux: its process
// is tmux's to start again.
func (p *pane) tmuxNoRespawn() error {
	if r := p.record(); r.Tmux != nil {
		return &proto.ErrorReply{Code: proto.CodeBadRequest, Message: fmt.Sprintf(
			"pane %s is tmux pane %s on %s: start it again in tmux (tmux respawn-pane -t %s), then clowder rm %s and clowder adopt tmux it again",
			p.id, r.Tmux.PaneID, r.Tmux.Socket, r.Tmux.PaneID, p.id)}
	}
	return nil
}

// readoptTmux takes back, as an earlier host left it in agents.json, a
// pane adopted from tmux that was running: once its identity checks, its
// output flows again (the screen seeded afresh from capture-pane); else
// it is recorded exited (reason lost, never respawned by clowder: it is
// tmux's), with why in its note. It reports whether rec was a tmux pane
// it handled; other records load as always.
func (h *Server) readoptTmux(rec persist.PaneRecord) bool {
	if rec.Tmux == nil || rec.State != persist.StateRunning {
		return false
	}
	p := newPane(h, rec)
	h.panes = append(h.panes, p)
	ctx, cancel := context.WithTimeout(context.Background(), tmuxEndWait)
	defer cancel()
	srv := supervisor.TmuxServer{Socket: rec.Tmux.Socket}
	st, err := srv.Identify(ctx, rec.Tmux.PaneID)
	switch {
	case err != nil:
	case st.Dead:
		err = fmt.Errorf("its process %d has exited", rec.PID)
	default:
		if err = p.tmuxSame("re-adoption", st); err == nil {
			err = h.startTmux(ctx, p, srv)
		}
	}
	if err != nil {
		p.tmuxLost(err)
		return true
	}
	h.log.Printf("%s (%s) re-adopted from tmux: tmux %s on server %d", p.id, rec.Name, rec.Tmux.PaneID, rec.Tmux.ServerPID)
	return true
}

// tmuxLost records a tmux pane that could not be taken back.
func (p *pane) tmuxLost(why error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.rec.State = persist.StateExited
	p.rec.Exit = &persist.Exit{Code: -1, Reason: persist.ExitLost, At: time.Now()}
	p.rec.Note = "tmux pane not taken back after the host restart: " + errorText(why)
	p.attn.state = attnOf(p.rec.State)
	p.h.log.Printf("%s: %s", p.id, p.rec.Note)
}

// tmuxLetGo decides, for rm, what to do with a tmux pane whose kill was
// refused because its identity changed (err): it is no longer the pane
// that was adopted, so it is not killed, but let go (its watcher and its
// pipe stopped) so that rm can forget it. It reports whether it did.
func (p *pane) tmuxLetGo(err error) bool {
	var e *proto.ErrorReply
	if !errors.As(err, &e) || e.Code != proto.CodeIdentity {
		return false
	}
	l := p.tmuxOf()
	if l == nil {
		return false
	}
	l.stop() // the watcher stops the pipe as it ends,
	<-l.done // and the reader once tmux stopped writing
	p.h.log.Printf("%s: let go without a kill: %v", p.id, err)
	return true
}
