// agents.json: the host is its single writer (docs/state.md). It is written
// on durable changes only (spawn, exit, removal), never on output or
// attention. On start, panes recorded as running are checked by identity:
// one still alive is "orphaned" (its master is gone with the old host, so
// it cannot be attached, and it is left alone until `clowder kill`); any
// other is "lost".

package supervisor

import (
	"errors"
	"strconv"
	"strings"
	"time"

	"clowder/persist"
)

// loadRegistry reads agents.json into panes without processes. A corrupt
// or newer file is reported (host status, log) and the host serves anyway.
func (h *Host) loadRegistry() {
	path := h.opts.Paths.AgentsFile()
	reg, err := persist.LoadRegistry(path)
	if err != nil {
		h.regIssue = err.Error()
		h.log.Printf("agents.json: %v", err)
		var newer *persist.NewerSchemaError
		if errors.As(err, &newer) {
			h.regReadOnly = true // never overwrite what a newer clowder wrote
		}
		return
	}
	for _, rec := range reg.Panes {
		h.adoptRecord(rec)
	}
}

// adoptRecord turns a recorded pane into a pane of this host.
func (h *Host) adoptRecord(rec persist.PaneRecord) {
	if n := paneNumber(rec.ID); n >= h.nextID {
		h.nextID = n
	}
	if rec.State == persist.StateRunning || rec.State == persist.StateStarting || rec.State == persist.StateOrphaned {
		rec.State = persist.StateLost
		if id, err := ReadIdentity(rec.PID); err == nil && id.Start == rec.PIDStart && (rec.BootID == "" || id.BootID == rec.BootID) {
			rec.State = persist.StateOrphaned
		}
		if rec.State == persist.StateLost && rec.Exit == nil {
			rec.Exit = &persist.Exit{Code: -1, Reason: persist.ExitLost, At: time.Now()}
		}
	}
	p := newPane(h, rec)
	p.attn.state = attnOf(rec.State)
	h.panes = append(h.panes, p)
}

// paneNumber is N of a pane id "pN" (0 if it has another form).
func paneNumber(id string) int {
	n, err := strconv.Atoi(strings.TrimPrefix(id, "p"))
	if err != nil {
		return 0
	}
	return n
}

// saveRegistry writes every pane's record. Failures are logged and shown in
// host status; the previous file stays intact (persist writes atomically).
func (h *Host) saveRegistry() {
	h.regMu.Lock()
	defer h.regMu.Unlock()
	if h.regReadOnly {
		return
	}
	h.mu.Lock()
	reg := &persist.Registry{SchemaVersion: persist.RegistryVersion}
	for _, p := range h.panes {
		reg.Panes = append(reg.Panes, p.record())
	}
	h.mu.Unlock()
	if err := reg.Save(h.opts.Paths.AgentsFile()); err != nil {
		h.log.Printf("save agents.json: %v", err)
		h.mu.Lock()
		h.regIssue = err.Error()
		h.mu.Unlock()
	}
}

// record is a copy of the pane's durable record.
func (p *pane) record() persist.PaneRecord {
	p.mu.Lock()
	defer p.mu.Unlock()
	r := p.rec
	r.Argv = append([]string(nil), r.Argv...)
	cols, rows := p.term.Size()
	r.Size = persist.Size{Cols: cols, Rows: rows}
	return r
}
