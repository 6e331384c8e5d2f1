// Validation of protocol v1 requests: the host checks every field of every
// request before it acts, as the CLI does, so nothing a client sends can
// reach a pane, a process or agents.json out of bounds (docs/protocol.md,
// "Limits"). A bad field is answered with bad-request and one line that
// names the field and what to send instead.

package proto

import (
	"errors"
	"fmt"
	"path/filepath"
	"regexp"
	"regexp/syntax"
	"strconv"
	"strings"
	"syscall"
	"time"
	"unicode/utf8"

	"golang.org/x/sys/unix"

	"clowder/panes"
	"clowder/persist"
)

// Request field limits; docs/protocol.md, "Limits", lists them.
const (
	MaxNonceLen    = 128                    // bytes of a spawn nonce
	MaxArgs        = 4096                   // argv entries, and env entries
	MaxArgBytes    = 1 << 20                // bytes of all argv, env or cwd together
	MaxDurationMS  = 366 * 24 * 3600 * 1000 // timeouts, grace, waits: one year
	MaxPaneRefLen  = 256                    // bytes of a pane id or name in a request
	MaxWaitTextLen = 4096                   // bytes of a wait's regexp
)

// Validator is a request that checks its own fields.
type Validator interface {
	Validate() error
}

// Invalid is the bad-request reply for field.
func Invalid(field, format string, args ...any) error {
	for i, a := range args {
		if v, ok := a.(string); ok {
			args[i] = shorten(v)
		}
	}
	return &ErrorReply{Code: CodeBadRequest, Message: field + ": " + fmt.Sprintf(format, args...)}
}

// shorten is at most maxQuoted bytes of a peer's value, cut at a rune's
// start, for an error to quote: the whole of a megabyte value would go
// into the reply and the host's log.
func shorten(v string) string {
	if len(v) <= maxQuoted {
		return v
	}
	cut := maxQuoted
	for cut > 0 && !utf8.RuneStart(v[cut]) {
		cut--
	}
	return v[:cut] + "..."
}

// quotingInPart is err, from another package's check of vals, with each
// of vals it quotes (as %q does) quoted in part, as Invalid quotes a
// string it is given.
func quotingInPart(err error, vals ...string) error {
	msg := err.Error()
	for _, v := range vals {
		if len(v) > maxQuoted {
			msg = strings.ReplaceAll(msg, strconv.Quote(v), strconv.Quote(shorten(v)))
		}
	}
	return errors.New(msg)
}

// Validate checks every field of a spawn request.
func (r *SpawnReq) Validate() error {
	checks := []func() error{r.validateNonce, r.validateArgv, r.validateNames, r.validateCwd,
		r.validateEnv, r.validateSize, r.validateTimeouts, r.validateCgroup, r.validateWorktree}
	for _, check := range checks {
		if err := check(); err != nil {
			return err
		}
	}
	return nil
}

func (r *SpawnReq) validateNonce() error {
	if len(r.Nonce) > MaxNonceLen || hasControl(r.Nonce) {
		return Invalid("nonce", "must be at most %d printable bytes", MaxNonceLen)
	}
	return nil
}

func (r *SpawnReq) validateArgv() error {
	switch {
	case len(r.Argv) == 0 || r.Argv[0] == "":
		return Invalid("argv", "empty command: give the program to run after --")
	case len(r.Argv) > MaxArgs || totalLen(r.Argv) > MaxArgBytes:
		return Invalid("argv", "more than %d arguments or %d bytes; shorten the command", MaxArgs, MaxArgBytes)
	}
	for i, a := range r.Argv {
		if strings.IndexByte(a, 0) >= 0 {
			return Invalid("argv", "argument %d contains a NUL byte; remove it", i)
		}
	}
	return nil
}

func (r *SpawnReq) validateNames() error {
	if r.Name != "" {
		if err := panes.ValidateName(r.Name); err != nil {
			return Invalid("name", "%v", err)
		}
	}
	if r.Adapter != "" {
		if err := panes.ValidateName(r.Adapter); err != nil {
			return Invalid("adapter", "%v", err)
		}
	}
	if _, err := SpawnKind(r.Kind); err != nil {
		return Invalid("kind", "%q is not agent, shell or run", r.Kind)
	}
	return nil
}

func (r *SpawnReq) validateCwd() error {
	switch {
	case r.Cwd == "":
		return nil
	case !filepath.IsAbs(r.Cwd):
		return Invalid("cwd", "%q is not an absolute path; give an absolute directory", r.Cwd)
	case len(r.Cwd) > MaxArgBytes || strings.IndexByte(r.Cwd, 0) >= 0:
		return Invalid("cwd", "contains a NUL byte or is too long; give a real directory")
	}
	return nil
}

func (r *SpawnReq) validateEnv() error {
	if len(r.Env) > MaxArgs || totalLen(r.Env) > MaxArgBytes {
		return Invalid("env", "more than %d variables or %d bytes; pass a smaller environment", MaxArgs, MaxArgBytes)
	}
	for i, kv := range r.Env {
		k, _, ok := strings.Cut(kv, "=")
		if !ok || k == "" || strings.IndexByte(kv, 0) >= 0 {
			// Only the name: the value may be a secret.
			return Invalid("env", "entry %d (%q) is not NAME=value without NUL bytes", i, k)
		}
	}
	return nil
}

func (r *SpawnReq) validateSize() error {
	if r.Cols == 0 && r.Rows == 0 {
		return nil
	}
	sz := r.Size()
	if err := panes.ValidateSize(sz); err != nil {
		return Invalid("cols/rows", "%v", err)
	}
	return nil
}

func (r *SpawnReq) validateTimeouts() error {
	switch {
	case r.NoTimeout && r.TimeoutMS != 0:
		return Invalid("no_timeout", "set together with timeout_ms %d; send one of them", r.TimeoutMS)
	case r.NoIdleTimeout && r.IdleTimeoutMS != 0:
		return Invalid("no_idle_timeout", "set together with idle_timeout_ms %d; send one of them", r.IdleTimeoutMS)
	}
	if err := validDuration("timeout_ms", r.TimeoutMS); err != nil {
		return err
	}
	return validDuration("idle_timeout_ms", r.IdleTimeoutMS)
}

func (r *SpawnReq) validateCgroup() error {
	switch r.Cgroup {
	case "", "off", "auto", "required":
		return nil
	}
	return Invalid("cgroup", "%q is not off, auto or required", r.Cgroup)
}

func (r *SpawnReq) validateWorktree() error {
	w := r.Worktree
	if w == nil {
		return nil
	}
	for _, p := range []string{w.Repo, w.Path} {
		if !filepath.IsAbs(p) || strings.IndexByte(p, 0) >= 0 {
			return Invalid("worktree", "repo and path must be absolute paths, got %q", p)
		}
	}
	if hasControl(w.Branch) || hasControl(w.Base) {
		return Invalid("worktree", "branch and base must be printable")
	}
	return nil
}

// Validate checks a list request's pane references.
func (r *ListReq) Validate() error {
	for _, ref := range r.Panes {
		if err := validRef(ref); err != nil {
			return err
		}
	}
	return nil
}

// Validate checks a subscribe request.
func (r *SubscribeReq) Validate() error { return validRef(r.Pane) }

// Validate checks an events request's pane references.
func (r *EventsReq) Validate() error { return (&ListReq{Panes: r.Panes}).Validate() }

// Validate checks an input request: the pane and every key name.
func (r *InputReq) Validate() error {
	if err := validRef(r.Pane); err != nil {
		return err
	}
	if _, err := panes.ParseKeys(r.Keys); err != nil {
		return Invalid("keys", "%v", quotingInPart(err, r.Keys...))
	}
	return nil
}

// Validate checks a paste request.
func (r *PasteReq) Validate() error {
	if err := validRef(r.Pane); err != nil {
		return err
	}
	if r.WaitMS != 0 && !r.Submit {
		return Invalid("wait_ms", "set without submit; only a submission can be confirmed")
	}
	return validDuration("wait_ms", r.WaitMS)
}

// Validate checks a resize request against the pane size limits.
func (r *ResizeReq) Validate() error {
	if err := validRef(r.Pane); err != nil {
		return err
	}
	if err := panes.ValidateSize(persist.Size{Cols: int(r.Cols), Rows: int(r.Rows)}); err != nil {
		return Invalid("cols/rows", "%v", err)
	}
	return nil
}

// Validate checks a signal request: the pane, the signal and the identity.
func (r *SignalReq) Validate() error {
	if err := validRef(r.Pane); err != nil {
		return err
	}
	if _, err := ParseSignal(r.Signal); err != nil {
		return Invalid("signal", "%v", err)
	}
	return validIdentity(r.Pid, r.PidStart, r.BootID)
}

// Validate checks a kill request: the pane, the signal, the grace and the
// identity.
func (r *KillReq) Validate() error {
	if err := validRef(r.Pane); err != nil {
		return err
	}
	if r.Signal != "" {
		if _, err := ParseSignal(r.Signal); err != nil {
			return Invalid("signal", "%v", err)
		}
	}
	if err := validDuration("grace_ms", r.GraceMS); err != nil {
		return err
	}
	return validIdentity(r.Pid, r.PidStart, r.BootID)
}

// Validate checks a rename request.
func (r *RenameReq) Validate() error {
	if err := validRef(r.Pane); err != nil {
		return err
	}
	if err := panes.ValidateName(r.Name); err != nil {
		return Invalid("name", "%v", err)
	}
	return nil
}

// Validate checks a remove request.
func (r *RemoveReq) Validate() error { return validRef(r.Pane) }

// Validate checks a capture request.
func (r *CaptureReq) Validate() error {
	if err := validRef(r.Pane); err != nil {
		return err
	}
	if r.Scrollback < 0 {
		return Invalid("scrollback", "%d lines: give 0 or more", r.Scrollback)
	}
	return nil
}

// Validate checks a history request.
func (r *HistoryReq) Validate() error {
	if err := validRef(r.Pane); err != nil {
		return err
	}
	if r.Count < 0 {
		return Invalid("count", "%d lines: give 0 or more", r.Count)
	}
	return nil
}

// Validate checks a wait request: a condition, the durations and the
// regexp.
func (r *WaitReq) Validate() error {
	if err := validRef(r.Pane); err != nil {
		return err
	}
	if err := validDuration("idle_ms", r.IdleMS); err != nil {
		return err
	}
	if err := validDuration("timeout_ms", r.TimeoutMS); err != nil {
		return err
	}
	if !r.Exit && r.IdleMS == 0 && !r.NeedsInput && r.Text == "" {
		return Invalid("wait", "needs a condition: --exit, --idle D, --needs-input or --text RE")
	}
	if len(r.Text) > MaxWaitTextLen {
		return Invalid("text", "regexp longer than %d bytes; shorten it", MaxWaitTextLen)
	}
	if _, err := regexp.Compile(r.Text); err != nil {
		var se *syntax.Error
		if errors.As(err, &se) { // it quotes the wrong part of the regexp, up to all of it
			se.Expr = shorten(se.Expr)
		}
		return Invalid("text", "%q is not a regular expression: %v", r.Text, err)
	}
	return nil
}

// validRef checks a pane id or name as sent in a request.
func validRef(ref string) error {
	if ref == "" || len(ref) > MaxPaneRefLen || hasControl(ref) {
		return Invalid("pane", "give a pane id or name from clowder ls (at most %d printable bytes)", MaxPaneRefLen)
	}
	return nil
}

// validDuration checks a millisecond field: 0 or more, at most a year.
func validDuration(field string, ms int64) error {
	if ms < 0 || ms > MaxDurationMS {
		return Invalid(field, "%d is out of range; give 0 to %d milliseconds", ms, int64(MaxDurationMS))
	}
	return nil
}

// validIdentity checks an expected identity: both zero, or a pid.
func validIdentity(pid int, start uint64, boot string) error {
	switch {
	case pid < 0 || (pid == 0 && (start != 0 || boot != "")):
		return Invalid("pid", "%d (pid_start %d) is not a process id; give 0 for the host's record", pid, start)
	case pid > 0 && boot == "":
		return Invalid("boot_id", "missing: pid and pid_start name a process only with the boot id; give all three, as clowder ls --json shows them, or none")
	case len(boot) > maxBootID || hasControl(boot):
		return Invalid("boot_id", "%q is not a boot id (see /proc/sys/kernel/random/boot_id)", boot)
	}
	return nil
}

// maxBootID bounds a boot id on the wire (the kernel's is a 36-byte UUID).
const maxBootID = 64

// hasControl reports whether s holds a control character or invalid text.
func hasControl(s string) bool {
	return strings.ContainsFunc(s, func(r rune) bool { return r < ' ' || r == 0x7f })
}

func totalLen(ss []string) int {
	n := 0
	for _, s := range ss {
		n += len(s)
	}
	return n
}

// DurationMS is a validated millisecond field as a duration.
func DurationMS(ms int64) time.Duration { return time.Duration(ms) * time.Millisecond }

func SpawnKind(s string) (persist.Kind, error) {
	if s == "" {
		return persist.KindRun, nil
	}
	var k persist.Kind
	if err := k.UnmarshalText([]byte(s)); err != nil {
		return 0, &ErrorReply{Code: CodeBadRequest, Message: err.Error()}
	}
	return k, nil
}

// maxSignal is the highest signal number (SIGRTMAX on Linux).
const maxSignal = 64

// ParseSignal takes "TERM", "SIGTERM", "term" or a number; an unknown
// signal is an error that names it.
func ParseSignal(s string) (syscall.Signal, error) {
	if s == "" {
		return syscall.SIGTERM, nil
	}
	name := strings.ToUpper(s)
	if !strings.HasPrefix(name, "SIG") {
		name = "SIG" + name
	}
	if sig := unix.SignalNum(name); sig != 0 {
		return sig, nil
	}
	// The whole word, not a Sscanf prefix: "1e3" is no SIGHUP.
	if n, err := strconv.Atoi(s); err == nil && n > 0 && n <= maxSignal {
		return syscall.Signal(n), nil
	}
	return 0, fmt.Errorf("unknown signal %q: use a name like TERM, INT, KILL or a number from 1 to %d", shorten(s), maxSignal)
}

// Size is the requested PTY size, a zero dimension taking
// panes.DefaultSize's.
func (r *SpawnReq) Size() persist.Size {
	def := panes.DefaultSize
	return persist.Size{Cols: int(orDefault(r.Cols, uint16(def.Cols))), Rows: int(orDefault(r.Rows, uint16(def.Rows)))}
}

func orDefault(v, def uint16) uint16 {
	if v == 0 {
		return def
	}
	return v
}
