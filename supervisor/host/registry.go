// agents.json: the host is its single writer (docs/state.md). It is written
// on durable changes only (spawn, exit, removal), never on output or
// attention. On start, panes recorded as running are looked for again: one
// with any process of its tree alive is "orphaned" (its master is gone with
// the old host, so it cannot be attached; it is watched, and left alone
// until `clowder kill`); any other is "lost" (orphans.go).

package host

import (
	"errors"
	"strconv"
	"strings"
	"sync/atomic"

	"clowder/persist"
	"clowder/supervisor/proto"
)

// loadRegistry reads agents.json into panes without processes. A file
// that cannot be loaded is reported (host status, log) and the host serves
// anyway, but never destroys what a person may still need: after a corrupt
// file (moved aside, its .bak kept as agents.json.lastgood-<time>) it also
// leaves agents.json.bak alone; after any other failure (unreadable,
// refused, from a newer clowder) it does not write agents.json at all.
//
// Serve calls it holding the host lock, so no other host is writing
// agents.json: every temp file of a write is a crashed host's, and goes.
func (h *Server) loadRegistry() {
	path := h.opts.Paths.AgentsFile()
	gone, err := persist.RemoveStaleTemps(path, 0)
	if len(gone) > 0 {
		h.log.Printf("agents.json: removed temp files of interrupted saves: %v", gone)
	}
	if err != nil {
		h.log.Printf("agents.json: %v", err) // a leftover temp costs only disk
	}
	reg, err := persist.LoadRegistry(path)
	if err != nil {
		h.registryUnloaded(path, err)
		return
	}
	if gone := reg.TrimExited(h.keepExited()); len(gone) > 0 {
		h.log.Printf("agents.json: forgot %d exited panes beyond host.keep_exited = %d", len(gone), h.keepExited())
	}
	for _, rec := range reg.Panes {
		h.adoptRecord(rec)
	}
	h.orphans.forgetScan()
	h.resumeAfter = wasRunning(reg.Panes)
	h.cleanDeadLeaves(reg.Panes)
}

// registryUnloaded decides how the host writes agents.json after loading
// it failed with err, and says so in host status.
func (h *Server) registryUnloaded(path string, err error) {
	var corrupt *persist.CorruptError
	switch {
	case errors.As(err, &corrupt) && corrupt.MoveErr == nil && corrupt.Backup != "":
		h.regKeepBak = true
		h.regLoad = err.Error() + "; stop the host first: " + // err says to copy it back
			restoreCommand(corrupt.Backup, path) + " (panes started since then drop out of the list)"
	case errors.As(err, &corrupt) && corrupt.MoveErr == nil:
		h.regLoad = err.Error()
	default:
		h.regReadOnly = true
		h.regLoad = err.Error() + "; this host is not saving agents.json, so new panes are not recorded; " +
			"fix or move the file, then restart the host (clowder host stop)"
	}
	h.regIssue = h.regLoad
	h.log.Printf("agents.json: %s", h.regLoad)
}

// restoreCommand is the shell command that puts the last good copy back.
// The host must be stopped first: it would otherwise replace the restored
// agents.json with its own list at its next save, and again as it stops.
func restoreCommand(bak, path string) string {
	return "clowder host stop && cp " + shellQuote(bak) + " " + shellQuote(path)
}

// shellQuote quotes s for a POSIX shell unless it needs no quoting.
func shellQuote(s string) string {
	const plain = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789/._-+=:,@%"
	if s != "" && strings.IndexFunc(s, func(r rune) bool { return !strings.ContainsRune(plain, r) }) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// adoptRecord turns a recorded pane into a pane of this host.
func (h *Server) adoptRecord(rec persist.PaneRecord) {
	if n := paneNumber(rec.ID); n >= h.nextID {
		h.nextID = n
	}
	if h.readoptTmux(rec) { // a pane of tmux: taken back from tmux, not from /proc (tmux.go)
		return
	}
	tree := h.findSurvivors(&rec)
	// Its process, if alive, is not ours to read: the pane never gets
	// output. So it gets a one-byte ring and a one-cell screen, not
	// ring_bytes (8 MiB) and two screens of cells at its size (100 KB at
	// 80x24), which made each record cost as much as a live pane.
	p := newPaneSized(h, rec, 1, 1, 1)
	p.attn.state = attnOf(rec.State)
	h.panes = append(h.panes, p)
	if rec.Nonce != "" { // a client's retry of this spawn finds it (spawn.go)
		h.nonces[rec.Nonce] = p
	}
	h.adoptOrphan(p, tree)
}

// paneNumber is N of a pane id "pN" (0 if it has another form).
func paneNumber(id string) int {
	n, err := strconv.Atoi(strings.TrimPrefix(id, "p"))
	if err != nil {
		return 0
	}
	return n
}

// saveRegistry forgets the exited panes beyond host.keep_exited, then
// writes every pane's record. Failures are logged and shown in host
// status; the previous file stays intact (persist writes atomically).
func (h *Server) saveRegistry() {
	h.regMu.Lock()
	defer h.regMu.Unlock()
	h.saveRegistryLocked()
}

// saveRegistrySoon saves agents.json from the background, then calls
// then. A request that comes while an earlier one still waits for its
// turn shares that save, which has not looked at the panes yet: 100
// shells ending at once (a host stop) wrote the file 100 times, one after
// the other, each with every record and two fsyncs (issue 12).
func (h *Server) saveRegistrySoon(then func()) {
	if h.regSoon.Swap(true) {
		return // the waiting save will see this change
	}
	h.background(func() {
		h.regMu.Lock()
		h.regSoon.Store(false) // from here on, a change needs a save of its own
		h.saveRegistryLocked()
		h.regMu.Unlock()
		then()
	})
}

// regSaves counts the writes of agents.json, for tests.
var regSaves atomic.Int64

// saveRegistryVolatile is saveRegistry without the fsyncs
// (persist.Registry.SaveVolatile): for a pane about to start.
func (h *Server) saveRegistryVolatile() {
	h.regMu.Lock()
	defer h.regMu.Unlock()
	h.saveRegistryWith(func(reg *persist.Registry, path string) error { return reg.SaveVolatile(path, h.regKeepBak) })
}

// saveRegistryLocked is saveRegistry with regMu held.
func (h *Server) saveRegistryLocked() {
	h.saveRegistryWith(func(reg *persist.Registry, path string) error {
		if h.regKeepBak {
			return reg.SavePreservingBackup(path)
		}
		return reg.Save(path)
	})
}

// saveRegistryWith writes every pane's record with save; regMu is held.
func (h *Server) saveRegistryWith(save func(*persist.Registry, string) error) {
	h.mu.Lock()
	reg := &persist.Registry{SchemaVersion: persist.RegistryVersion, Cache: &h.regCache}
	for _, p := range h.panes {
		reg.Panes = append(reg.Panes, p.record())
	}
	h.mu.Unlock()
	h.forgetTrimmed(reg.TrimExited(h.keepExited()))
	if h.regReadOnly {
		return
	}
	err := save(reg, h.opts.Paths.AgentsFile())
	regSaves.Add(1)
	if err != nil {
		h.log.Printf("save agents.json: %v", err)
	}
	h.mu.Lock()
	h.regIssue = joinIssues(h.regLoad, err)
	h.mu.Unlock()
}

// keepExited is host.keep_exited, or its default for a config built by
// hand without it.
func (h *Server) keepExited() int {
	if n := h.opts.Config.Host.KeepExited; n > 0 {
		return n
	}
	return persist.DefaultKeepExited
}

// forgetTrimmed drops the panes whose records TrimExited removed, as `rm`
// would (they have exited: nothing to kill).
func (h *Server) forgetTrimmed(ids []string) {
	for _, id := range ids {
		if p := h.paneByID(id); p != nil {
			h.forget(p)
			h.events.publish(proto.PaneEvent{Kind: proto.EventRemoved, Pane: id})
		}
	}
}

// paneByID is the pane with that id, or nil.
func (h *Server) paneByID(id string) *pane {
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, p := range h.panes {
		if p.id == id {
			return p
		}
	}
	return nil
}

// joinIssues is host status's registry line: the problem found at start,
// if any, then the last save's error, if any.
func joinIssues(load string, save error) string {
	switch {
	case save == nil:
		return load
	case load == "":
		return save.Error()
	}
	return load + "; then: " + save.Error()
}

// record is a copy of the pane's durable record.
func (p *pane) record() persist.PaneRecord {
	p.mu.Lock()
	defer p.mu.Unlock()
	r := p.rec
	r.Argv = append([]string(nil), r.Argv...)
	cols, rows := p.sizeLocked()
	r.Size = persist.Size{Cols: cols, Rows: rows}
	return r
}

// sizeLocked is the pane's size: its screen's while this host runs it (the
// screen follows the PTY), else the recorded one, since a pane adopted
// from agents.json has a one-cell screen (see adoptRecord).
func (p *pane) sizeLocked() (cols, rows int) {
	if p.run == nil {
		return p.rec.Size.Cols, p.rec.Size.Rows
	}
	return p.term.Size()
}
