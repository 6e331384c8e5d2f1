// Upgrade in place (clowder host upgrade): the host execs a new clowder
// binary under its own pid, so every pane's leader stays its child and
// every PTY master stays open, and the new image carries on from the state
// the old one handed it in a memory file: each pane's record, its output
// ring with its sequence numbers, its terminal's whole state (screens,
// scrollback, cursors, modes, the parser mid-sequence: vtgrid/state.go),
// its launch (argv and environment, for a later respawn), the runs'
// identities and the time left on their watchdogs. The listening socket
// and the host lock are kept open across the exec, so a client that
// connects meanwhile waits in the socket's backlog and no other host can
// start.
//
// Before anything stops, the new binary is asked which state format it
// reads (`NEW host --state-format`); a binary that is missing, cannot run
// or reads another format is refused and nothing changes. Then spawns,
// respawns and re-adoptions are held, every run is frozen (its reader
// parked: no byte is read from a master until the new image reads it, so
// nothing is lost or read twice), every subscription ends with
// CodeUpgrading (clients connect again and resume from their sequence
// number), and the host execs. A failed exec thaws everything and the old
// host serves on; the request's error says why.

package host

import (
	"bufio"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"clowder/persist"
	"clowder/supervisor"
	"clowder/supervisor/proto"
	"clowder/vtgrid"
)

// stateFormat is the version of the state an upgrading host hands its new
// binary. A string so that tests can build a binary that reads another
// (-ldflags -X clowder/supervisor/host.stateFormat=N).
var stateFormat = "1"

// StateFormat is the version of the state an upgrading host hands its new
// binary; `clowder host --state-format` prints it.
func StateFormat() int {
	n, err := strconv.Atoi(stateFormat)
	if err != nil {
		return -1
	}
	return n
}

// EnvUpgradeRefused carries, to an old image the new one went back to,
// why the new one refused the state (host status shows it).
const EnvUpgradeRefused = "CLOWDER_UPGRADE_REFUSED"

// EnvUpgradeBack names, in the new image's environment, a descriptor of
// the old image's own binary: a new image that cannot read the state
// execs it again (ExecBack), so the old host carries on.
const EnvUpgradeBack = "CLOWDER_UPGRADE_BACK"

// EnvUpgradeState names, in the new image's environment, the descriptor
// of the memory file holding the handed-over state.
const EnvUpgradeState = "CLOWDER_UPGRADE_STATE"

// stateMagic starts the memory file.
const stateMagic = "clowder-upgrade-state\n"

// formatCheckTimeout bounds `NEW host --state-format`.
const formatCheckTimeout = 30 * time.Second

// handover is the state the old image writes and the new one reads.
type handover struct {
	Format   int           `json:"format"`
	Build    string        `json:"build"`
	Started  time.Time     `json:"started"`
	Listener int           `json:"listener_fd"`
	Lock     int           `json:"lock_fd"`
	RegLoad  string        `json:"reg_load,omitempty"`
	ReadOnly bool          `json:"reg_read_only,omitempty"`
	KeepBak  bool          `json:"reg_keep_bak,omitempty"`
	Contain  string        `json:"containment,omitempty"`
	Colors   vtgrid.Colors `json:"colors"` // the user's terminal colours as the newest client told them (zero: none told)
	Panes    []paneHanded  `json:"panes"`
	blobs    io.Reader     // after the header: every pane's ring bytes, in pane order, then every pane's terminal state
	files    []*os.File    // kept open across the exec
	runs     []*supervisor.Run
	rings    []*Ring // per pane: the ring whose bytes follow the header, nil for none
}

// paneHanded is one pane of the handover.
type paneHanded struct {
	Rec      persist.PaneRecord   `json:"rec"`
	Run      *supervisor.RunState `json:"run,omitempty"` // nil: no live run of this host
	Adopted  bool                 `json:"adopted,omitempty"`
	Ran      bool                 `json:"ran,omitempty"` // this host ran it: ring and screen travel
	RingSize int                  `json:"ring_size,omitempty"`
	RingEnd  uint64               `json:"ring_end,omitempty"`
	RingLen  int                  `json:"ring_len,omitempty"` // bytes of the ring in the blobs
	Cols     int                  `json:"cols,omitempty"`
	Rows     int                  `json:"rows,omitempty"`
	Screen   []byte               `json:"screen,omitempty"`   // paints screen and scrollback on a fresh terminal: what a reader without TermLen uses
	TermLen  int                  `json:"term_len,omitempty"` // bytes of the terminal's state in the blobs, after every pane's ring
	Term     []byte               `json:"-"`                  // the terminal's whole state (vtgrid.Terminal.AppendState)
	Launch   *launchHanded        `json:"launch,omitempty"`   // what the run was started with (memory only, like the file itself)
	Title    string               `json:"title,omitempty"`
	SpecSum  [32]byte             `json:"spec_sum"`
}

// upgradeGate holds starts (spawn, respawn, re-adoption) while the host
// hands over, and counts the subscriptions that must end first.
type upgradeGate struct {
	starts sync.RWMutex
	mu     sync.Mutex
	cond   *sync.Cond
	subs   int
	ending chan struct{} // closed while subscriptions must end
	paused chan struct{} // non-nil while accepting is paused; closed to resume
}

// pauseAccept stops accepting connections without closing the socket:
// clients that connect meanwhile wait in its backlog for the new image.
func (h *Server) pauseAccept() {
	h.gate.mu.Lock()
	h.gate.paused = make(chan struct{})
	h.gate.mu.Unlock()
	_ = h.listener().SetDeadline(time.Now()) // best effort: wakes the accept loop into waitAccept
}

// resumeAccept undoes pauseAccept (after a failed exec).
func (h *Server) resumeAccept() {
	_ = h.listener().SetDeadline(time.Time{}) // best effort: as above
	h.gate.mu.Lock()
	close(h.gate.paused)
	h.gate.paused = nil
	h.gate.mu.Unlock()
}

// waitAccept blocks while accepting is paused; it reports whether it was.
func (g *upgradeGate) waitAccept(ctx context.Context) bool {
	g.mu.Lock()
	paused := g.paused
	g.mu.Unlock()
	if paused == nil {
		return false
	}
	select {
	case <-paused:
	case <-ctx.Done():
	}
	return true
}

// upgrading returns a channel closed while subscriptions must end.
func (g *upgradeGate) upgrading() <-chan struct{} {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.ending == nil {
		g.ending = make(chan struct{})
	}
	return g.ending
}

// subStarted and subEnded count live subscription goroutines.
func (g *upgradeGate) subStarted() {
	g.mu.Lock()
	g.subs++
	g.mu.Unlock()
}

func (g *upgradeGate) subEnded() {
	g.mu.Lock()
	g.subs--
	if g.cond != nil {
		g.cond.Broadcast()
	}
	g.mu.Unlock()
}

// endSubs makes every subscription end and waits until none is left.
func (g *upgradeGate) endSubs() {
	g.mu.Lock()
	if g.ending == nil {
		g.ending = make(chan struct{})
	}
	close(g.ending)
	if g.cond == nil {
		g.cond = sync.NewCond(&g.mu)
	}
	for g.subs > 0 {
		g.cond.Wait()
	}
	g.mu.Unlock()
}

// reopen lets subscriptions live again (after a failed exec).
func (g *upgradeGate) reopen() {
	g.mu.Lock()
	g.ending = make(chan struct{})
	g.mu.Unlock()
}

// pushUpgrading ends a subscription with CodeUpgrading.
func (c *conn) pushUpgrading(id uint32) {
	_ = c.push(id, proto.FlagEnd, &proto.ErrorReply{Code: proto.CodeUpgrading, Message: "the host is upgrading in place; connect again and resume from your sequence number"}) // best effort: the client may be gone
}

// upgrade answers an upgrade request: only with an error, since a
// successful exec ends this connection with the old image.
func (c *conn) upgrade(id uint32, req *proto.UpgradeReq) {
	c.h.log.Printf("upgrade to %s asked by %s (pid %d)", req.Binary, c.peer.Client, c.peer.Pid)
	err := c.h.upgradeTo(req.Binary, c)
	c.h.log.Printf("upgrade to %s failed; this host serves on: %v", req.Binary, err)
	c.fail(id, &proto.ErrorReply{Code: proto.CodeUnsupported, Message: err.Error()})
}

// upgradeTo execs binary with the handed-over state. It returns only on
// failure, with the host as it was. by is the connection that asked.
func (h *Server) upgradeTo(binary string, by *conn) error {
	if err := checkStateFormat(binary); err != nil {
		return err
	}
	if err := h.drainRequests(); err != nil { // requests: exactly once across the exec (drain.go)
		return err
	}
	defer h.endDrain()
	h.gate.starts.Lock() // no spawn, respawn or re-adoption from here on
	defer h.gate.starts.Unlock()
	st, err := h.freeze()
	defer st.release()
	if err != nil {
		return err
	}
	mem, err := writeState(st)
	if err != nil {
		return err
	}
	defer mem.Close()
	h.pauseAccept()
	defer h.resumeAccept()
	h.gate.endSubs()
	defer h.gate.reopen()
	h.saveRegistry()
	h.tellUpgrading(by)
	return h.exec(binary, st, mem)
}

// release thaws every frozen run and closes the descriptors kept for the
// exec: after a failed one, the old image carries on.
func (st *handover) release() {
	thaw(st.runs)
	for _, f := range st.files {
		_ = f.Close() // best effort: the dups only served the exec
	}
}

// exec execs binary with st's descriptors and the state in mem; it
// returns only on failure.
func (h *Server) exec(binary string, st *handover, mem *os.File) error {
	self, err := os.Open("/proc/self/exe") // where a new image that refuses the state comes back to
	if err != nil {
		return fmt.Errorf("upgrade: open this host's own binary to come back to: %w", err)
	}
	defer self.Close()
	fds := []int{int(mem.Fd()), int(self.Fd()), st.Listener, st.Lock}
	for _, p := range st.Panes {
		if p.Run != nil {
			fds = append(fds, p.Run.MasterFD)
		}
	}
	env := append(withoutEnv(withoutEnv(os.Environ(), EnvUpgradeState), EnvUpgradeBack),
		EnvUpgradeState+"="+strconv.Itoa(int(mem.Fd())), EnvUpgradeBack+"="+strconv.Itoa(int(self.Fd())))
	h.log.Printf("upgrading in place: exec %s with %d panes", binary, len(st.Panes))
	err = supervisor.ExecKeeping(binary, append([]string{binary}, os.Args[1:]...), env, fds)
	return fmt.Errorf("upgrade the host to %s: %w", binary, err)
}

// checkStateFormat runs `binary host --state-format` and refuses a binary
// that fails to, or reads another format than this host writes.
func checkStateFormat(binary string) error {
	st, err := os.Stat(binary)
	switch {
	case err != nil:
		return fmt.Errorf("upgrade the host to %s: %w; give the path of a clowder binary with --binary", binary, err)
	case !st.Mode().IsRegular() || st.Mode()&0o111 == 0:
		return fmt.Errorf("upgrade the host to %s: not an executable file; give the path of a clowder binary with --binary", binary)
	}
	ctx, cancel := context.WithTimeout(context.Background(), formatCheckTimeout)
	defer cancel()
	var out, errOut cappedBuffer
	cmd := exec.CommandContext(ctx, binary, "host", "--state-format")
	// Bounded: the answer is a number, and a wrong binary may print without
	// end; a child it leaves holding the pipes is not waited for.
	cmd.Stdout, cmd.Stderr, cmd.WaitDelay = &out, &errOut, time.Second
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("upgrade the host to %s: it could not say which state format it reads (%v%s), so it cannot take over these panes; the host keeps running", binary, err, stderrLine(errOut.b))
	}
	got, err := strconv.Atoi(strings.TrimSpace(string(out.b)))
	if err != nil || got != StateFormat() {
		return fmt.Errorf("upgrade the host to %s: it reads state format %q, but this host writes %d; the host keeps running (stop it to switch, which ends its panes)", binary, strings.TrimSpace(string(out.b)), StateFormat())
	}
	return nil
}

// cappedBuffer keeps what a command writes up to maxFormatAnswer bytes;
// past that a write fails, which ends the copy (and the writer gets
// EPIPE).
type cappedBuffer struct{ b []byte }

// maxFormatAnswer bounds each of a format check's outputs.
const maxFormatAnswer = 1024

func (c *cappedBuffer) Write(p []byte) (int, error) {
	if len(c.b)+len(p) > maxFormatAnswer {
		c.b = append(c.b, p[:maxFormatAnswer-len(c.b)]...)
		return 0, errors.New("more output than a state format")
	}
	c.b = append(c.b, p...)
	return len(p), nil
}

// stderrLine is ": " and the first line a failed command wrote on
// stderr (a config error, say), or "".
func stderrLine(stderr []byte) string {
	line, _, _ := strings.Cut(strings.TrimSpace(string(stderr)), "\n")
	if line == "" {
		return ""
	}
	return ": " + line
}

// withoutEnv drops name from env.
func withoutEnv(env []string, name string) []string {
	out := env[:0:0]
	for _, kv := range env {
		if !strings.HasPrefix(kv, name+"=") {
			out = append(out, kv)
		}
	}
	return out
}

// thaw lets every frozen run go on (after a failed exec).
func thaw(runs []*supervisor.Run) {
	for _, r := range runs {
		r.Thaw()
	}
}

// freeze freezes every run and describes the host for the new image.
func (h *Server) freeze() (*handover, error) {
	st := &handover{Format: StateFormat(), Build: h.opts.Build, Started: h.started}
	for _, p := range h.allPanes() {
		if run := p.runOf(); run != nil {
			run.Freeze()
			st.runs = append(st.runs, run)
			if run.Finalizing() {
				<-run.Done() // its exit is recorded before the state is taken
			}
		}
	}
	h.mu.Lock()
	st.RegLoad, st.ReadOnly, st.KeepBak, st.Contain = h.regLoad, h.regReadOnly, h.regKeepBak, h.containment
	st.Colors = h.currentColorsLocked()
	h.mu.Unlock()
	for _, p := range h.allPanes() {
		ph, err := p.handed()
		if err != nil {
			return st, err
		}
		st.Panes = append(st.Panes, ph)
		st.rings = append(st.rings, nil)
		if ph.Ran {
			st.rings[len(st.rings)-1] = p.ring
		}
	}
	return st, h.keepSocketAndLock(st)
}

// runOf is the pane's run, nil for none.
func (p *pane) runOf() *supervisor.Run {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.run
}

// keepSocketAndLock dups the listening socket for the exec and names the
// lock's descriptor.
func (h *Server) keepSocketAndLock(st *handover) error {
	f, err := h.listener().File()
	if err != nil {
		return fmt.Errorf("upgrade: keep the listening socket: %w", err)
	}
	st.files = append(st.files, f)
	// Not f.Fd(): it makes the descriptor blocking, and the dup shares its
	// file description with the listener, whose accept then blocks in the
	// kernel where Close cannot end it: after a failed exec the host could
	// not stop while no client connected.
	raw, err := f.SyscallConn()
	if err != nil {
		return fmt.Errorf("upgrade: keep the listening socket: %w", err)
	}
	if err := raw.Control(func(fd uintptr) { st.Listener = int(fd) }); err != nil {
		return fmt.Errorf("upgrade: keep the listening socket: %w", err)
	}
	st.Lock = int(h.lock.File().Fd())
	return nil
}

// handed describes p for the new image; its run is frozen.
func (p *pane) handed() (paneHanded, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	ph := paneHanded{Rec: p.rec, SpecSum: p.specSum, Title: p.title}
	if p.run == nil && !p.handedOver {
		return ph, nil // known from agents.json only: the new image finds it again
	}
	ph.Ran = true
	ph.Launch = handLaunch(p.launch)
	ph.Cols, ph.Rows = p.term.Size()
	ph.Screen = paintTerminal(p.term)
	ph.Term = handTerm(p.term)
	ph.TermLen = len(ph.Term)
	start, end := p.ring.Bounds()
	ph.RingSize, ph.RingEnd, ph.RingLen = p.ring.size(), end, int(end-start)
	if p.runningLocked() {
		rs, err := p.run.State()
		if err != nil {
			return ph, fmt.Errorf("upgrade: %w", err)
		}
		rs.Limits.Timeout = timeoutLeft(p.rec, time.Now())
		rs.Limits.IdleTimeout = noneIfZero(p.rec.Timeouts.Idle)
		ph.Run, ph.Adopted = &rs, p.run.Adopted()
	}
	return ph, nil
}

// launchHanded is a pane's launch (spawn.go) across an upgrade, so that a
// respawn after it runs as the pane first did. It travels only in the
// memory file, never on disk: the environment may hold secrets.
type launchHanded struct {
	Argv        []string `json:"argv"`
	Env         []string `json:"env,omitempty"`
	HostEnv     bool     `json:"host_env,omitempty"` // the run had the host's own environment
	AllowSecret bool     `json:"allow_secret,omitempty"`
}

// handLaunch describes l for the new image; nil for none.
func handLaunch(l *launch) *launchHanded {
	if l == nil {
		return nil
	}
	return &launchHanded{Argv: l.argv, Env: l.env, HostEnv: l.env == nil, AllowSecret: l.allowSecret}
}

// launch is the launch lh describes; nil for none.
func (lh *launchHanded) launch() *launch {
	if lh == nil {
		return nil
	}
	l := &launch{argv: lh.Argv, env: lh.Env, allowSecret: lh.AllowSecret}
	switch {
	case lh.HostEnv:
		l.env = nil
	case l.env == nil:
		l.env = []string{} // an empty environment, not the host's
	}
	return l
}

// restore makes r hold data as the bytes before sequence end.
func (r *Ring) restore(data []byte, end uint64) {
	r.mu.Lock()
	r.end = end - uint64(len(data))
	r.start = r.end
	r.mu.Unlock()
	_, _ = r.Write(data) // never fails
}

// writeState writes st, then every handed pane's ring, to a memory file.
func writeState(st *handover) (*os.File, error) {
	mem, err := supervisor.NewStateFile("clowder-upgrade")
	if err != nil {
		return nil, fmt.Errorf("upgrade: %w", err)
	}
	if err := encodeState(mem, st); err != nil {
		_ = mem.Close() // best effort: error path
		return nil, fmt.Errorf("upgrade: write the state: %w", err)
	}
	return mem, nil
}

func encodeState(mem *os.File, st *handover) error {
	hdr, err := json.Marshal(st)
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(mem, 1<<20)
	_, _ = w.WriteString(stateMagic)
	_ = binary.Write(w, binary.BigEndian, uint64(len(hdr)))
	_, _ = w.Write(hdr)
	return errors.Join(writeBlobs(w, st), w.Flush())
}

// writeBlobs appends each handed pane's ring bytes, oldest first, then
// each pane's terminal state. The states come after every ring so that a
// binary of the same format that predates them (it reads the rings and
// paints Screen) still reads the rings right.
func writeBlobs(w io.Writer, st *handover) error {
	buf := make([]byte, 1<<20)
	for i, r := range st.rings {
		if r == nil {
			continue
		}
		if err := writeRing(w, r, &st.Panes[i], buf); err != nil {
			return err
		}
	}
	for i := range st.Panes {
		if _, err := w.Write(st.Panes[i].Term); err != nil {
			return err
		}
	}
	return nil
}

// writeRing appends ph's ring bytes, oldest first, through buf.
func writeRing(w io.Writer, r *Ring, ph *paneHanded, buf []byte) error {
	for seq := ph.RingEnd - uint64(ph.RingLen); seq < ph.RingEnd; {
		n, _, next := r.ReadAt(buf, seq)
		if n == 0 {
			return fmt.Errorf("the ring of %s ended at %d, before %d", ph.Rec.ID, seq, ph.RingEnd)
		}
		if _, err := w.Write(buf[:n]); err != nil {
			return err
		}
		seq = next
	}
	return nil
}

// paintTerminal returns the terminal output that draws t's scrollback and
// screen again on a fresh terminal of its size, with its modes and cursor.
func paintTerminal(t *vtgrid.Terminal) []byte {
	s := t.Snapshot()
	cols, rows := s.Cols(), s.Rows()
	var lines [][]vtgrid.Cell
	var wrapped []bool
	if oldest, end := t.ScrollbackBounds(); end > oldest {
		sb, w, _ := t.ScrollbackRows(oldest, int(end-oldest))
		lines, wrapped = append(lines, sb...), append(wrapped, w...)
	}
	alt := s.Modes().AltScreen
	for y := 0; y < rows; y++ {
		if alt { // the main screen is not in the snapshot: push the history up with blank rows
			lines, wrapped = append(lines, nil), append(wrapped, false)
			continue
		}
		lines, wrapped = append(lines, s.Row(y)), append(wrapped, s.Wrapped(y))
	}
	b := []byte("\x1b[H\x1b[2J\x1b[?7h")
	for i, row := range lines {
		b = paintCells(b, frameCells(row, cols), wrapped[i])
		if !wrapped[i] && i < len(lines)-1 {
			b = append(b, "\x1b[0m\r\n"...)
		}
	}
	f := screenFrame("", 0, s, nil)
	if alt {
		return append(b, repaint(f)...)
	}
	b = append(b, "\x1b[0m\x1b[?7l"...)
	b = appendModes(b, f.Modes)
	return appendCursor(b, f)
}

// handTerm is what carries t to the new image: its whole state
// (vtgrid/state.go), both screens, scrollback, cursors, charsets, scroll
// region, tab stops, modes and a half-read sequence included.
func handTerm(t *vtgrid.Terminal) []byte { return t.AppendState(nil) }

// restoreTerm makes p's terminal what ph handed: its whole state where
// the old image sent one this binary reads, else (an older binary of the
// same format, or another vtgrid state version) the repaint of its screen
// and scrollback.
func restoreTerm(p *pane, ph *paneHanded) {
	if len(ph.Term) > 0 {
		err := p.term.RestoreState(ph.Term)
		if err == nil {
			return
		}
		p.h.log.Printf("upgrade: the terminal state of %s: %v; its screen is painted again instead", ph.Rec.ID, err)
	}
	_, _ = p.term.Write(ph.Screen) // never fails
	p.replies = nil                // a repaint asks nothing
}

// paintCells draws one row from the cursor; a row that does not wrap
// stops at its last non-blank cell.
func paintCells(b []byte, cells []proto.FrameCell, wraps bool) []byte {
	if !wraps {
		for len(cells) > 0 && blankCell(cells[len(cells)-1]) {
			cells = cells[:len(cells)-1]
		}
	}
	var style *proto.FrameCell
	for i := range cells {
		c := &cells[i]
		if c.Width == 0 {
			continue
		}
		if style == nil || !sameCellStyle(style, c) {
			b = appendSGR(b, c)
			style = c
		}
		if c.Text == "" {
			b = append(b, ' ')
		} else {
			b = append(b, c.Text...)
		}
	}
	return b
}

// blankCell is a default-styled empty cell.
func blankCell(c proto.FrameCell) bool {
	return (c.Text == "" || c.Text == " ") && c.Fg == proto.ColorDefault && c.Bg == proto.ColorDefault && c.Attrs == 0
}

// takeOver is listen for a host image that was handed state by an
// upgrading one: the socket and lock it kept open, and every pane as it
// was.
func (h *Server) takeOver(mem *os.File) (*net.UnixListener, *persist.Lockfile, error) {
	defer mem.Close()
	st, err := readState(mem)
	if err != nil {
		h.log.Printf("cannot take over from the upgrading host: %v; going back to its binary", err)
		return nil, nil, h.execBack(mem, err)
	}
	lf := os.NewFile(uintptr(st.Lock), "host.lock")
	if err := closeOnExec(lf); err != nil { // kept open for the exec only: no pane may inherit the lock
		return nil, nil, fmt.Errorf("take over the host lock: %w", err)
	}
	lock := persist.InheritLock(h.opts.Paths.LockFile(), lf)
	h.advertise(lock) // an older image may not have
	// The state dir's lock is not kept across the exec: taken again.
	if err := h.lockStateDir(); err != nil {
		h.log.Printf("upgrade: %v; serving the handed panes anyway", err)
	}
	sf := os.NewFile(uintptr(st.Listener), "host.sock")
	l, err := net.FileListener(sf)
	_ = sf.Close() // best effort: FileListener made its own copy
	if err != nil {
		return nil, nil, fmt.Errorf("take over the socket: %w", err)
	}
	ln := l.(*net.UnixListener)
	ln.SetUnlinkOnClose(true)
	if b := h.opts.UpgradeBack; b != nil {
		_ = b.Close() // best effort: taken over, no way back needed
	}
	h.upgradeNote = "from build " + st.Build
	if why, ok := os.LookupEnv(EnvUpgradeRefused); ok {
		_ = os.Unsetenv(EnvUpgradeRefused) // cannot fail for a valid name
		h.upgradeNote = "refused: " + why + "; the host went back to build " + h.opts.Build
	}
	h.started, h.containment, h.colors.cur = st.Started, st.Contain, st.Colors
	h.regLoad, h.regIssue, h.regReadOnly, h.regKeepBak = st.RegLoad, st.RegLoad, st.ReadOnly, st.KeepBak
	supervisor.MarkLeftoverChildren(st.leaders()) // before this image starts a child of its own
	runs := h.restorePanes(st)
	if err := supervisor.StartSubreaper(); err != nil { // after Resume: the reaper must know the leaders as owned
		h.log.Printf("subreaper unavailable, escaped grandchildren are reaped by init: %v", err)
	}
	for _, r := range runs {
		r.StartResumed()
	}
	h.log.Printf("took over %d panes from build %s", len(st.Panes), st.Build)
	return ln, lock, nil
}

// execBack execs the old image's binary again with the state this image
// could not read (EnvUpgradeBack), so the old host carries on with every
// pane; the sockets, lock and masters were not touched. It returns only if
// that fails too.
func (h *Server) execBack(mem *os.File, why error) error {
	back := h.opts.UpgradeBack
	if back == nil {
		return fmt.Errorf("take over from the upgrading host: %w; and there is no binary to go back to", why)
	}
	env := append(withoutEnv(withoutEnv(withoutEnv(os.Environ(), EnvUpgradeState), EnvUpgradeBack), EnvUpgradeRefused),
		EnvUpgradeState+"="+strconv.Itoa(int(mem.Fd())), EnvUpgradeRefused+"="+h.opts.Build+" cannot take over: "+why.Error())
	path := "/proc/self/fd/" + strconv.Itoa(int(back.Fd()))
	err := supervisor.ExecKeeping(path, append([]string{os.Args[0]}, os.Args[1:]...), env, []int{int(mem.Fd()), int(back.Fd())})
	return fmt.Errorf("take over from the upgrading host: %w; and going back failed: %v", why, err)
}

// closeOnExec sets close-on-exec on f again.
func closeOnExec(f *os.File) error {
	rc, err := f.SyscallConn()
	if err != nil {
		return err
	}
	return rc.Control(func(fd uintptr) { syscall.CloseOnExec(int(fd)) })
}

// readState reads what writeState wrote.
func readState(mem *os.File) (*handover, error) {
	if _, err := mem.Seek(0, io.SeekStart); err != nil {
		return nil, err
	}
	r := bufio.NewReaderSize(mem, 1<<20)
	magic := make([]byte, len(stateMagic))
	if _, err := io.ReadFull(r, magic); err != nil || string(magic) != stateMagic {
		return nil, fmt.Errorf("not an upgrade state (%q)", magic)
	}
	var n uint64
	if err := binary.Read(r, binary.BigEndian, &n); err != nil || n > 1<<30 {
		return nil, fmt.Errorf("read the state's header length: %v", err)
	}
	hdr := make([]byte, n)
	if _, err := io.ReadFull(r, hdr); err != nil {
		return nil, fmt.Errorf("read the state's header: %w", err)
	}
	st := &handover{}
	if err := json.Unmarshal(hdr, st); err != nil {
		return nil, fmt.Errorf("decode the state's header: %w", err)
	}
	if st.Format != StateFormat() {
		return nil, fmt.Errorf("state format %d, but this binary reads %d", st.Format, StateFormat())
	}
	st.blobs = r
	return st, nil
}

// leaders are the pids of the handed panes' leaders: the old image's
// children that this one owns.
func (st *handover) leaders() []int {
	var pids []int
	for _, ph := range st.Panes {
		if ph.Run != nil && !ph.Adopted {
			pids = append(pids, ph.Run.Identity.PID)
		}
	}
	return pids
}

// restorePanes makes the handed panes this image's and returns the runs
// to start once the reaper runs.
func (h *Server) restorePanes(st *handover) []*supervisor.Run {
	var runs []*supervisor.Run
	h.mu.Lock()
	defer h.mu.Unlock()
	rings := make([][]byte, len(st.Panes))
	for i := range st.Panes {
		ph := &st.Panes[i]
		rings[i] = make([]byte, ph.RingLen)
		if _, err := io.ReadFull(st.blobs, rings[i]); err != nil {
			h.log.Printf("upgrade: the output of %s was cut short: %v", ph.Rec.ID, err)
		}
	}
	for i := range st.Panes {
		ph := &st.Panes[i]
		ph.Term = make([]byte, ph.TermLen)
		if _, err := io.ReadFull(st.blobs, ph.Term); err != nil {
			h.log.Printf("upgrade: the terminal state of %s was cut short: %v", ph.Rec.ID, err)
			ph.Term = nil
		}
	}
	for i := range st.Panes {
		ph, ring := &st.Panes[i], rings[i]
		if !ph.Ran {
			h.adoptRecord(ph.Rec)
			continue
		}
		p := h.restorePane(ph, ring)
		if run := p.run; run != nil {
			runs = append(runs, run)
		}
	}
	return runs
}

// restorePane rebuilds one pane this host ran, under h.mu.
func (h *Server) restorePane(ph *paneHanded, ring []byte) *pane {
	if n := paneNumber(ph.Rec.ID); n >= h.nextID {
		h.nextID = n
	}
	p := newPaneSized(h, ph.Rec, max(ph.RingSize, 1), ph.Cols, ph.Rows)
	p.ring.restore(ring, ph.RingEnd)
	restoreTerm(p, ph)
	p.launch = ph.Launch.launch()
	p.title, p.specSum, p.handedOver = ph.Title, ph.SpecSum, true
	p.attn.state = attnOf(ph.Rec.State)
	h.panes = append(h.panes, p)
	if ph.Rec.Nonce != "" {
		h.nonces[ph.Rec.Nonce] = p
	}
	if ph.Run == nil {
		return p
	}
	run, err := h.spawner.Resume(supervisor.ResumeSpec{State: *ph.Run, Adopted: ph.Adopted, Output: p, OnExit: p.exited})
	if err != nil {
		h.log.Printf("upgrade: %s could not be taken over: %v", p.id, err)
		p.rec.State, p.rec.Exit = gone(p.rec.State, p.rec.Exit)
		return p
	}
	p.run = run
	p.lastOut = time.Now()
	p.attn.state = attnStarting
	p.armJudgeLocked()
	return p
}
