// The host: the long-lived process that owns every pane (ARCHITECTURE.md; docs/processes.md).
// It is the parent of each pane's process tree and the only reader of its
// PTY master, keeps each pane's output ring and vtgrid screen, and serves
// protocol v1 on a unix socket in the runtime dir. Goroutines it owns: the
// accept loop, one per client connection (plus its request goroutines and
// per-pane input lanes, dispatch.go, and one per subscription), and
// each Run's own (see run.go). All exit when Serve's context ends or a
// client asks the host to stop.

package host

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"clowder/panes"
	"clowder/persist"
	"clowder/supervisor"
	"clowder/supervisor/proto"
)

// Options configure a Server.
type Options struct {
	Paths  persist.Paths
	Config persist.Config
	Build  string      // clowder version, for status and the handshake
	Log    *log.Logger // nil logs nowhere
	// IdleExit ends Serve after this long with no panes of its own (running
	// or exited) and no clients;
	// 0 means DefaultIdleExit, negative means never.
	IdleExit time.Duration
	// WriteTimeout bounds each write to a client (a reply or a push); a
	// client that reads nothing for this long is disconnected. 0 means
	// DefaultWriteTimeout.
	WriteTimeout time.Duration
	// HandshakeTimeout bounds how long a new connection may take to say
	// hello; 0 means DefaultHandshakeTimeout.
	HandshakeTimeout time.Duration
	// Listening, if set, is called once: with nil when the socket listens,
	// or with the error that stopped Serve before it could (one matching
	// persist.ErrLocked when another host holds the lock). The client that
	// started the host learns from it when to dial, without polling.
	Listening func(error)
	// HookBinary is the clowder binary agents' hooks run (`clowder hook`,
	// hook.go); "" installs no hooks (agents still get a session id at
	// launch where they take one).
	HookBinary string
	// Handover, when set, is the state an upgrading host image handed this
	// one (upgrade.go): Serve takes its panes, socket and lock over.
	Handover *os.File
	// UpgradeBack is the previous image's binary, which a Handover this
	// image cannot read goes back to (upgrade.go); nil for none.
	UpgradeBack *os.File
	// ManageProcs lets the host set the runtime's processors as its panes
	// flood (procs.go): the host process's own; a host run inside a test's
	// or a benchmark's process leaves them alone.
	ManageProcs bool
	// StartWork, if set, runs on a goroutine of its own once the socket
	// listens and neither a request nor (for at most startOutputMax)
	// output has come for startQuiet: the host process drops its start-up
	// pages, which a cold start's requests or a flood would otherwise
	// fault back in a page at a time. The host serves meanwhile.
	StartWork func()
	// FramePeriod, for tests, replaces the display refresh that paces
	// screen frames (frames.go); 0 means a 60 Hz refresh.
	FramePeriod time.Duration
}

// DefaultIdleExit is how long a host with nothing to do stays up, so a
// quick sequence of CLI calls reuses one host.
const DefaultIdleExit = 30 * time.Second

// Server serves panes. Create it with New and run it with Serve.
type Server struct {
	opts     Options
	log      *log.Logger
	spawner  *supervisor.Spawner
	adapters *panes.Adapters // config's [agents] over the built-in adapters
	started  time.Time

	mu      sync.Mutex
	panes   []*pane          // creation order
	nonces  map[string]*pane // spawn nonce → pane
	nextID  int
	clients int
	idle    *time.Timer // IdleExit countdown, armed while there is nothing to do
	stopReq chan struct{}
	stopped bool

	bg          sync.WaitGroup // background work (registry writes after exits) that Serve waits for
	bgDone      bool           // Serve is waiting for bg: background work runs inline
	events      eventHub
	regMu       sync.Mutex          // serialises registry writes
	regSoon     atomic.Bool         // a background save waits for regMu and has not read the panes yet
	regIssue    string              // what went wrong with agents.json, for host status
	regLoad     string              // what went wrong loading it at start; stays in regIssue
	regReadOnly bool                // agents.json could not be loaded as ours: never overwrite it
	regKeepBak  bool                // started from a corrupt file: never replace agents.json.bak
	regCache    persist.RecordCache // each record's JSON from the last save: a save encodes what changed
	containment string              // how the newest run is contained: cgroup, or the fallback and why
	colors      hostColors          // the user's terminal colours, as the newest client told them (colors.go)
	bigReplies  chan struct{}       // one token per big reply being built or written (maxBigReplies)
	parsing     chan struct{}       // one token per pane parsing queued output (parseSlots, output.go)
	procs       procGovernor        // the runtime's processors, as the panes flood (procs.go)
	release     memRelease          // free memory back to the system after a flood (release.go)
	orphans     orphanSet           // watchers of trees earlier hosts left (orphans.go)

	resumeAfter    []string          // panes that ran when agents.json was saved, to resume at start (respawn.go)
	lastRequest    atomic.Int64      // when the newest request came, in Unix ns (awaitQuiet)
	startQuiet     time.Duration     // how long no request must come before the start-up work (startQuiet)
	startOutputMax time.Duration     // how long output may put the start-up work off (startOutputMax)
	escrowMu       sync.Mutex        // one re-adoption from escrow at a time (escrow.go)
	holders        escrowBook        // which clients hold which panes' masters (escrow.go)
	gate           upgradeGate       // holds starts and ends subscriptions for an upgrade (upgrade.go)
	window         upgradeWindow     // refuses and drains requests for an upgrade (drain.go)
	upgradeNote    string            // how the last upgrade in place went, for host status (upgrade.go)
	ln             *net.UnixListener // the listening socket, kept across an upgrade
	lock           *persist.Lockfile // the host lock, kept across an upgrade
	stateLock      *persist.Lockfile // the state dir's lock (lockStateDir), taken again after an upgrade
	afterLock      func()            // tests: runs once both locks are held, before the host listens

	beforeRequest func(proto.Message) // tests only: runs before each request's handler
	spawnStep     func(step string)   // tests only: runs at each step of a spawn (spawnSteps)
	framePeriod   time.Duration       // tests only: replaces screenFramePeriod when set (frames.go)
	frameSettle   time.Duration       // tests only: replaces screenFrameSettle when set (frames.go)
	echoed        atomic.Uint64       // screen frames a pane reader wrote itself (echo.go)
	screenWakes   atomic.Uint64       // times a screen subscriber's goroutine woke for a change (echo.go)
}

// New returns a host; it does nothing until Serve.
func New(opts Options) (*Server, error) {
	if opts.Paths.RuntimeDir == "" || opts.Paths.StateDir == "" {
		return nil, errors.New("new host: runtime and state directories are required")
	}
	if opts.IdleExit == 0 {
		opts.IdleExit = DefaultIdleExit
	}
	if opts.HandshakeTimeout <= 0 {
		opts.HandshakeTimeout = DefaultHandshakeTimeout
	}
	if opts.WriteTimeout <= 0 {
		opts.WriteTimeout = DefaultWriteTimeout
	}
	logger := opts.Log
	if logger == nil {
		logger = log.New(io.Discard, "", 0)
	}
	sup := opts.Config.Supervisor
	limits := supervisor.Limits{Timeout: sup.Timeout.Std(), IdleTimeout: sup.IdleTimeout.Std(), Grace: sup.KillGrace.Std()}
	h := &Server{
		opts: opts, log: logger, started: time.Now(), framePeriod: opts.FramePeriod,
		spawner:    supervisor.NewSpawner(supervisor.Options{CgroupMode: sup.Cgroup, CgroupParent: sup.CgroupParent, Limits: limits}),
		adapters:   panes.NewAdaptersFromConfig(opts.Config, os.Getenv("SHELL")),
		nonces:     map[string]*pane{},
		stopReq:    make(chan struct{}),
		bigReplies: make(chan struct{}, maxBigReplies),
		parsing:    make(chan struct{}, parseSlots),
		release:    memRelease{quiet: releaseQuiet},
		startQuiet: startQuiet, startOutputMax: startOutputMax,
	}
	h.release.free = h.releaseMemory
	return h, nil
}

// awaitQuiet waits until no request has come for h.startQuiet, nor output
// either for the first h.startOutputMax: false if done closed first. A
// flood's parse would fault the dropped pages back one at a time (the
// attached flood's host CPU, 240 against 300-340 ms for 20 MB), but a
// pane that never stops printing (yes, a ticking clock) must not put the
// work off for good.
func (h *Server) awaitQuiet(done <-chan struct{}) bool {
	began := time.Now()
	t := time.NewTimer(h.startQuiet)
	defer t.Stop()
	for {
		select {
		case <-done:
			return false
		case <-h.stopReq:
			return false
		case <-t.C:
		}
		last := h.lastRequest.Load()
		if time.Since(began) < h.startOutputMax {
			last = max(last, h.release.last.Load()) // output parsed
		}
		wait := time.Until(time.Unix(0, last).Add(h.startQuiet))
		if wait <= 0 {
			return true
		}
		t.Reset(wait)
	}
}

// adapterFor is the adapter a pane's attention rules and key options come
// from: its own, else the generic one of its kind (shells and commands).
func (h *Server) adapterFor(rec persist.PaneRecord) panes.Adapter {
	name := rec.Adapter
	if name == "" {
		name = panes.AdapterCommand
		if rec.Kind == persist.KindShell {
			name = panes.AdapterShell
		}
	}
	if ad, err := h.adapters.Get(name); err == nil {
		return ad
	}
	return panes.Adapter{Name: name, Rules: panes.GenericRules()}
}

// startQuiet is how long no request must have come before the start-up
// work runs. A cold start (`new`, then `wait` from a process of its own)
// sends its requests within tens of milliseconds; with the start-up pages
// dropped under it, it took 72 ms instead of 61 here (issue 12).
const startQuiet = 250 * time.Millisecond

// startOutputMax is how long output may put the start-up work off.
const startOutputMax = 10 * time.Second

// beginWork starts what the host does beside serving: the governor sets
// the processors (set is runtime.GOMAXPROCS) at once, and Options.StartWork
// runs on a goroutine of its own once the host is quiet (awaitQuiet). The
// governor no longer waits for the start-up work: that work waited for
// quiet, and a flood before it ran on every processor, its reader and
// parse paying a thread wake-up per chunk (the attached flood's host CPU
// per MB went from 12 to 21 ms). stop ends both; a host that stops before
// it was quiet does no start-up work.
func (h *Server) beginWork(ctx context.Context, set func(int) int) (stop func()) {
	if h.opts.ManageProcs {
		h.procs.manage(set)
	}
	ctx, cancel := context.WithCancel(ctx)
	if h.opts.StartWork != nil {
		go func() {
			if h.awaitQuiet(ctx.Done()) {
				h.opts.StartWork()
			}
		}()
	}
	return func() {
		cancel()
		if h.opts.ManageProcs {
			h.procs.stop()
		}
	}
}

// Serve runs the host until ctx ends, a client stops it, or it has been idle
// for IdleExit. It holds the runtime dir's lock for its whole life: a
// second host fails at once with persist.ErrLocked.
func (h *Server) Serve(ctx context.Context) error {
	ln, lock, err := h.listen(ctx)
	if h.opts.Listening != nil {
		h.opts.Listening(err)
	}
	if err != nil {
		return err
	}
	defer lock.Close()
	defer h.stateLock.Close()
	defer h.orphans.stop()
	defer h.beginWork(ctx, runtime.GOMAXPROCS)()
	h.mu.Lock()
	h.ln, h.lock = ln, lock
	h.mu.Unlock()
	h.log.Printf("host %d serving on %s (build %s)", os.Getpid(), h.opts.Paths.SocketFile(), h.opts.Build)
	return h.acceptLoop(ctx, ln)
}

// listen takes the host lock, loads the registry, resumes what a reboot
// interrupted, and listens on the
// socket; the caller keeps the lock while it serves.
func (h *Server) listen(ctx context.Context) (*net.UnixListener, *persist.Lockfile, error) {
	p := h.opts.Paths
	if h.opts.Handover != nil {
		return h.takeOver(h.opts.Handover)
	}
	if err := p.EnsureRuntimeDir(); err != nil {
		return nil, nil, err
	}
	if err := p.EnsureStateDir(); err != nil {
		return nil, nil, err
	}
	lock, err := persist.Lock(p.LockFile(), persist.CanRelisten)
	if err != nil {
		return nil, nil, fmt.Errorf("start host: %w", err)
	}
	if err := h.lockStateDir(); err != nil {
		_ = lock.Close() // best effort: the state dir's error is the one to report
		return nil, nil, err
	}
	if h.afterLock != nil {
		h.afterLock()
	}
	if err := supervisor.StartSubreaper(); err != nil {
		h.log.Printf("subreaper unavailable, escaped grandchildren are reaped by init: %v", err)
	}
	if n, err := raiseFdLimit(); err != nil {
		h.log.Printf("%v; the host may run out of fds sooner", err)
	} else {
		h.log.Printf("fd limit %d", n)
	}
	h.loadRegistry()
	h.resumeAfterRestart(ctx)
	ln, err := listenSocket(p.SocketFile())
	if err != nil {
		_ = lock.Close() // best effort: the listen error is the one to report
		return nil, nil, err
	}
	return ln, lock, nil
}

// sameFile reports whether paths a and b name one file, by whatever path
// (a symlink among the parents of one of them): their text may differ. A
// symlink itself is not followed (the lock refuses one).
func sameFile(a, b string) bool {
	if filepath.Clean(a) == filepath.Clean(b) {
		return true
	}
	fa, errA := os.Lstat(a)
	fb, errB := os.Lstat(b)
	return errA == nil && errB == nil && os.SameFile(fa, fb)
}

// lockStateDir takes the state dir's lock: a host of another runtime dir
// (XDG_RUNTIME_DIR set in one session and not in another) would otherwise
// read this host's live panes from agents.json as an earlier host's
// orphans, kill them on rm, and overwrite the file.
func (h *Server) lockStateDir() error {
	if sameFile(h.opts.Paths.StateLockFile(), h.opts.Paths.LockFile()) {
		return nil // one dir for both: the runtime dir's lock, taken already, is this one
	}
	l, err := persist.Lock(h.opts.Paths.StateLockFile())
	if errors.Is(err, persist.ErrLocked) {
		return fmt.Errorf("start host: another clowder host keeps its panes in %s (%v); it listens in another runtime dir: give both sessions the same XDG_RUNTIME_DIR (or CLOWDER_RUNTIME_DIR), or a CLOWDER_STATE_DIR of their own", h.opts.Paths.StateDir, err)
	}
	if err != nil {
		return fmt.Errorf("start host: %w", err)
	}
	h.stateLock = l
	return nil
}

// listenSocket replaces a stale socket file (the lock proves no host owns
// it) and listens with mode 0600.
func listenSocket(path string) (*net.UnixListener, error) {
	if err := os.Remove(path); err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("remove stale socket %s: %w", path, err)
	}
	old := umask(0o177)
	ln, err := net.ListenUnix("unix", &net.UnixAddr{Name: path, Net: "unix"})
	umask(old)
	if err != nil {
		return nil, fmt.Errorf("listen on %s: %w", path, err)
	}
	ln.SetUnlinkOnClose(true)
	return ln, os.Chmod(path, 0o600)
}

// acceptLoop accepts clients until ctx ends or a stop is requested, then
// stops every connection and waits for them.
func (h *Server) acceptLoop(ctx context.Context, ln *net.UnixListener) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var wg sync.WaitGroup
	go func() {
		select {
		case <-ctx.Done():
		case <-h.stopReq:
		}
		cancel()
		h.stopListening() // stopnotice.go
	}()
	go h.relistenOnSignal(ctx) // relisten.go
	h.armIdle()
	var backoff acceptBackoff
	for {
		c, err := ln.AcceptUnix()
		if err != nil {
			if now := h.listener(); ctx.Err() == nil && now != ln {
				ln = now // the socket was made again (relisten.go)
				continue
			}
			if ctx.Err() != nil || errors.Is(err, net.ErrClosed) {
				break
			}
			if h.gate.waitAccept(ctx) {
				continue // an upgrade paused accepting (upgrade.go)
			}
			// Out of fds (EMFILE, ENFILE) or another passing failure: the
			// panes must not pay for it. Wait and go on.
			backoff.wait(ctx, h.log, err)
			continue
		}
		backoff.reset()
		wg.Add(1)
		go func() {
			defer wg.Done()
			h.serveConn(ctx, c)
		}()
	}
	h.refuseQueued()
	wg.Wait()
	h.shutdown()
	h.mu.Lock()
	h.bgDone = true // later background work runs inline: no Add after the Wait
	h.mu.Unlock()
	h.bg.Wait()
	return nil
}

// background runs fn on a goroutine Serve waits for before it returns.
// Once Serve waits, fn runs inline instead: an Add must never race the
// Wait (a WaitGroup rule the race detector enforces), so both the Add and
// the switch to inline happen under h.mu.
func (h *Server) background(fn func()) {
	h.mu.Lock()
	if h.bgDone {
		h.mu.Unlock()
		fn()
		return
	}
	h.bg.Add(1)
	h.mu.Unlock()
	go func() {
		defer h.bg.Done()
		fn()
	}()
}

// acceptBackoff spaces out retries after failed accepts, from 5 ms up to
// a second, and logs the first failure of a run and then one a second.
type acceptBackoff struct {
	delay  time.Duration
	logged time.Time
	missed int
}

// wait logs err (rate-limited) and sleeps the next delay or until ctx ends.
func (b *acceptBackoff) wait(ctx context.Context, lg *log.Logger, err error) {
	b.delay = min(max(2*b.delay, 5*time.Millisecond), time.Second)
	b.missed++
	if time.Since(b.logged) >= time.Second {
		lg.Printf("accept failed %d times (%v); retrying, panes are unaffected", b.missed, err)
		b.logged, b.missed = time.Now(), 0
	}
	t := time.NewTimer(b.delay)
	defer t.Stop()
	select {
	case <-ctx.Done():
	case <-t.C:
	}
}

// reset records a successful accept.
func (b *acceptBackoff) reset() { b.delay, b.missed = 0, 0 }

// requestStop makes Serve return; it is idempotent.
func (h *Server) requestStop() {
	h.mu.Lock()
	defer h.mu.Unlock()
	if !h.stopped {
		h.stopped = true
		close(h.stopReq)
	}
}

// armIdle starts or stops the idle-exit countdown after a change in panes
// or clients.
func (h *Server) armIdle() {
	h.mu.Lock()
	defer h.mu.Unlock()
	busy := h.clients > 0 || h.ownPanesLocked() > 0
	if h.idle != nil {
		h.idle.Stop()
		h.idle = nil
	}
	if !busy && h.opts.IdleExit > 0 {
		h.idle = time.AfterFunc(h.opts.IdleExit, func() {
			h.log.Printf("idle for %s with no panes and no clients; exiting", h.opts.IdleExit)
			h.requestStop()
		})
	}
}

// ownPanesLocked counts the panes this host started, exited ones too: the
// host keeps running while it has panes (their output stays readable until
// `clowder rm`), not only while they run.
func (h *Server) ownPanesLocked() int {
	n := 0
	for _, p := range h.panes {
		if p.hasRun() {
			n++
		}
	}
	return n
}

// livePanesLocked counts panes whose process tree this host runs (orphans
// of an earlier host do not keep it busy).
func (h *Server) livePanesLocked() int {
	n := 0
	for _, p := range h.panes {
		if p.ours() {
			n++
		}
	}
	return n
}

// shutdown runs after the last connection ended. Serve ends with no panes
// of its own running, after a forced stop (they were killed already) or on
// a signal, when the kill ladder runs here: nothing the host started
// outlives it. Orphans of an earlier host are left alone, as always.
func (h *Server) shutdown() {
	h.procs.stop()
	h.killOurs() // best effort: the host is going away
	h.saveRegistry()
}

// killOurs runs the kill ladder of every pane this host started, all at
// once, and waits for them: one after the other, 100 shells took 4.8 s to
// stop (each ladder waits for its tree to end), tmux 0.25 s.
func (h *Server) killOurs() {
	var wg sync.WaitGroup
	for _, p := range h.allPanes() {
		if p.ours() {
			wg.Add(1)
			go func() {
				defer wg.Done()
				_, _ = p.kill(supervisor.Identity{}, 0) // errors are in each pane's exit record
			}()
		}
	}
	wg.Wait()
}
