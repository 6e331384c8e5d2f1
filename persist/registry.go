package persist

// This file is agents.json: the durable record of every pane, written by
// the host alone and only on durable changes (spawn, exit, rename, removal,
// resume data), never on attention or output (docs/state.md). It is what
// brings agents back after a reboot, so it records how to resume each one
// and how to recognise its process (pid + start time + boot id).

import (
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"
)

// RegistryVersion is the schema_version of agents.json this build reads
// and writes.
const RegistryVersion = 1

var registryKind = docKind{what: "registry", version: RegistryVersion, maxBytes: MaxRegistryBytes}

// Registry is the content of agents.json. It is a plain value: not safe for
// concurrent use; the host owns the one copy that is saved.
type Registry struct {
	// SchemaVersion is set by Save; callers need not touch it.
	SchemaVersion int `json:"schema_version"`
	// Panes in creation order.
	Panes []PaneRecord `json:"panes"`
	// Cache, if set, keeps each record's JSON from one save to the next
	// (registry_cache.go): a save then encodes only what changed.
	Cache *RecordCache `json:"-"`
}

// PaneRecord is what agents.json keeps about one pane.
type PaneRecord struct {
	ID         string    `json:"id"`                    // stable pane id, unique in the registry
	Name       string    `json:"name"`                  // user-facing name (renamable)
	Kind       Kind      `json:"kind"`                  // agent, shell or run
	Adapter    string    `json:"adapter,omitempty"`     // agent adapter name; "" for shells and runs
	Argv       []string  `json:"argv"`                  // the command as started
	ResumeArgv []string  `json:"resume_argv,omitempty"` // the command that resumes the conversation
	Resumable  bool      `json:"resumable"`             // ResumeArgv is known to work
	Session    string    `json:"session,omitempty"`     // the agent's conversation id, as it last reported it
	Cwd        string    `json:"cwd"`                   // working directory of the process
	Worktree   *Worktree `json:"worktree,omitempty"`    // nil unless the pane has its own worktree
	// EnvKeys are the names of the environment variables clowder set for
	// the pane. Values are never written: they may be secrets.
	EnvKeys []string  `json:"env_keys,omitempty"`
	Created time.Time `json:"created"` // when the pane was spawned
	// Nonce is the spawn request's idempotency key, written before the
	// process starts: a client's retry after a host crash finds the pane
	// its first attempt made instead of starting a second one.
	Nonce string `json:"nonce,omitempty"`

	// Process identity (docs/processes.md): nothing is signalled unless all of
	// pid, start time and boot id still match.
	PID      int    `json:"pid,omitempty"`
	PIDStart uint64 `json:"pid_start,omitempty"` // field 22 of /proc/PID/stat, clock ticks since boot
	BootID   string `json:"boot_id,omitempty"`   // /proc/sys/kernel/random/boot_id
	PGID     int    `json:"pgid,omitempty"`      // the process group (its own, after setsid)
	Cgroup   string `json:"cgroup,omitempty"`    // cgroup v2 leaf path, "" if none
	// Token is the pane's CLOWDER_PANE_TOKEN, carried by every process of
	// its tree: a later host finds them by it (docs/processes.md). Not a
	// credential, but never logged.
	Token string `json:"token,omitempty"`
	// Since is when the pane's run was about to start, in the clock of
	// PIDStart: its processes started at or after it. Written with the
	// record, and Cgroup, before the process starts (state "starting").
	Since uint64 `json:"since,omitempty"`

	State State `json:"state"`          // where the pane is in its life
	Exit  *Exit `json:"exit,omitempty"` // set once the process ended
	// Note says why the pane is lost, or what its last respawn could not
	// do as before (no session id; the client's environment), for people.
	Note     string        `json:"note,omitempty"`
	Size     Size          `json:"size"`     // last size a client gave it
	Restart  RestartPolicy `json:"restart"`  // what the host does on exit
	Timeouts Timeouts      `json:"timeouts"` // watchdogs; zero means none
	// Tmux is set for a pane adopted from tmux (clowder adopt tmux): the
	// tmux pane it is, checked again before every action. PID, PIDStart
	// and BootID are then the tmux pane's process.
	Tmux *TmuxPane `json:"tmux,omitempty"`
}

// TmuxPane is the identity of a tmux pane clowder adopted: which server
// (its socket, and its process: pid and start time), which pane (its
// session target when adopted, its %N id) and what it ran (the pane
// process's command line). Nothing is sent to the pane unless all of it,
// and the pane process's identity, still match.
type TmuxPane struct {
	Socket      string `json:"socket"`       // the server's socket path
	ServerPID   int    `json:"server_pid"`   // the tmux server's pid
	ServerStart uint64 `json:"server_start"` // its start time (field 22 of /proc/PID/stat)
	Target      string `json:"target"`       // session:window.pane when adopted
	PaneID      string `json:"pane_id"`      // tmux's pane id, %N
	Command     string `json:"command"`      // the pane process's command line
}

// Worktree is the git worktree a pane runs in.
type Worktree struct {
	Repo   string `json:"repo"`   // the main repository's path
	Path   string `json:"path"`   // the worktree's path
	Branch string `json:"branch"` // the branch checked out there
	Base   string `json:"base"`   // the commit or branch it was created from
}

// Exit is how a pane's process ended.
type Exit struct {
	Code   int        `json:"code"`             // exit code; meaningful unless Signal != 0
	Signal int        `json:"signal,omitempty"` // the terminating signal number, 0 if none
	Reason ExitReason `json:"reason"`
	At     time.Time  `json:"at"`
}

// Size is a pane's terminal size in cells.
type Size struct {
	Cols int `json:"cols"`
	Rows int `json:"rows"`
}

// Timeouts are a pane's watchdogs; zero means none.
type Timeouts struct {
	Overall Duration `json:"overall,omitempty"`
	Idle    Duration `json:"idle,omitempty"` // no output for this long
}

// LoadRegistry reads agents.json at path. A missing file is an empty
// registry and no error. A file from a newer clowder gives
// *NewerSchemaError and is left in place; a corrupt one is moved aside and
// gives *CorruptError.
func LoadRegistry(path string) (*Registry, error) {
	r := &Registry{}
	found, err := loadDocument(registryKind, path, r)
	if err != nil {
		return nil, err
	}
	if !found {
		return &Registry{SchemaVersion: RegistryVersion}, nil
	}
	return r, nil
}

// Save writes the registry to path atomically, keeping the previous copy
// as path.bak. Call it on durable changes only; the caller decides which
// those are. It refuses an inconsistent registry (see check) and a path
// that holds a newer schema.
func (r *Registry) Save(path string) error {
	return r.save(path, withBackup)
}

// SavePreservingBackup is Save without touching path.bak. A host that
// started from a corrupt agents.json uses it for its whole life: the
// CorruptError pointed the user at .bak as the last good copy, and that
// copy must survive until a person restores it or starts afresh.
func (r *Registry) SavePreservingBackup(path string) error {
	return r.save(path, withoutBackup)
}

// SaveVolatile is Save (or, with keepBak, SavePreservingBackup) without
// the fsyncs: atomic against a crash of the host, not against the
// machine's. For a record that only matters while the machine runs: a pane
// about to start, recorded so that the next host finds its processes
// should this one die (they do not outlive the machine), and saved
// durably once it runs.
func (r *Registry) SaveVolatile(path string, keepBak bool) error {
	bak := withBackup
	if keepBak {
		bak = withoutBackup
	}
	return r.saveWith(volatileOps(), path, bak)
}

// save is Save with the choice about .bak.
func (r *Registry) save(path string, bak backupMode) error {
	return r.saveWith(systemOps(), path, bak)
}

// saveWith is save with the filesystem's steps given.
func (r *Registry) saveWith(ops fileOps, path string, bak backupMode) error {
	if r.Panes == nil {
		r.Panes = []PaneRecord{} // "panes": [] reads better than null
	}
	return saveDocumentWith(ops, registryKind, path, r, bak)
}

// Get returns the record with the given id.
func (r *Registry) Get(id string) (PaneRecord, bool) {
	if i := r.index(id); i >= 0 {
		return r.Panes[i], true
	}
	return PaneRecord{}, false
}

// Put replaces the record with rec's id, or appends rec if there is none.
func (r *Registry) Put(rec PaneRecord) {
	if i := r.index(rec.ID); i >= 0 {
		r.Panes[i] = rec
		return
	}
	r.Panes = append(r.Panes, rec)
}

// Remove deletes the record with the given id and reports whether there
// was one.
func (r *Registry) Remove(id string) bool {
	i := r.index(id)
	if i < 0 {
		return false
	}
	r.Panes = append(r.Panes[:i], r.Panes[i+1:]...)
	return true
}

// TrimExited removes the records of panes whose process is gone (exited
// or lost) beyond the keep that ended last, and returns their ids, oldest
// exit first. Live records (starting, running, orphaned) are never
// removed; the rest keep their creation order.
func (r *Registry) TrimExited(keep int) []string {
	var ended []int // indexes into Panes
	for i := range r.Panes {
		if r.Panes[i].ended() {
			ended = append(ended, i)
		}
	}
	if len(ended) <= max(keep, 0) {
		return nil
	}
	sort.SliceStable(ended, func(a, b int) bool {
		return r.Panes[ended[a]].endedAt().Before(r.Panes[ended[b]].endedAt())
	})
	drop := make(map[int]bool, len(ended)-keep)
	ids := make([]string, 0, len(ended)-keep)
	for _, i := range ended[:len(ended)-max(keep, 0)] {
		drop[i] = true
		ids = append(ids, r.Panes[i].ID)
	}
	kept := r.Panes[:0]
	for i, p := range r.Panes {
		if !drop[i] {
			kept = append(kept, p)
		}
	}
	clear(r.Panes[len(kept):]) // let the dropped records' strings go
	r.Panes = kept
	return ids
}

// ended reports whether the record's process is known to be gone.
func (p *PaneRecord) ended() bool { return p.State == StateExited || p.State == StateLost }

// endedAt is when the process ended, or when the pane was created if that
// was not recorded.
func (p *PaneRecord) endedAt() time.Time {
	if p.Exit != nil {
		return p.Exit.At
	}
	return p.Created
}

// index returns the position of id in Panes, or -1.
func (r *Registry) index(id string) int {
	for i := range r.Panes {
		if r.Panes[i].ID == id {
			return i
		}
	}
	return -1
}

// setSchemaVersion implements document.
func (r *Registry) setSchemaVersion(v int) { r.SchemaVersion = v }

// check implements document: there are not too many records, ids are set
// and unique, and every record is valid.
func (r *Registry) check() error {
	if n := len(r.Panes); n > MaxRegistryRecords {
		return overLimit("the number of records", int64(n), MaxRegistryRecords, countUnit("records"))
	}
	seen := make(map[string]bool, len(r.Panes))
	for i := range r.Panes {
		p := &r.Panes[i]
		if seen[p.ID] {
			return fmt.Errorf("pane id %q appears twice", p.ID)
		}
		seen[p.ID] = true
		if err := p.check(); err != nil {
			return fmt.Errorf("pane %d (id %q): %w", i, p.ID, err)
		}
	}
	return nil
}

// check reports a record that cannot be right. A field over its limit
// is reported alone, as an error matching ErrTooLarge.
func (p *PaneRecord) check() error {
	if err := p.checkSizes(); err != nil {
		return err
	}
	var errs []error
	if p.ID == "" {
		errs = append(errs, errors.New("empty id"))
	}
	if _, err := p.Kind.MarshalText(); err != nil {
		errs = append(errs, err)
	}
	if _, err := p.State.MarshalText(); err != nil {
		errs = append(errs, err)
	}
	if _, err := p.Restart.MarshalText(); err != nil {
		errs = append(errs, err)
	}
	if p.Exit != nil {
		if _, err := p.Exit.Reason.MarshalText(); err != nil {
			errs = append(errs, err)
		}
	}
	if p.Size.Cols < 0 || p.Size.Rows < 0 {
		errs = append(errs, fmt.Errorf("negative size %dx%d", p.Size.Cols, p.Size.Rows))
	}
	for _, k := range p.EnvKeys {
		// A "KEY=value" here would be a value on disk, possibly a secret.
		if k == "" || strings.ContainsRune(k, '=') {
			errs = append(errs, fmt.Errorf("env key %q is not a bare variable name", redactEnv(k)))
		}
	}
	return errors.Join(errs...)
}

// redactEnv keeps only the name of a "KEY=value" pair, so an error message
// never repeats a value.
func redactEnv(kv string) string {
	if k, _, ok := strings.Cut(kv, "="); ok {
		return k + "=…"
	}
	return kv
}
