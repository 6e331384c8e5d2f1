// Spawner.Start: validate, contain, open the I/O, fork, start the Run's
// goroutines. The context governs starting only; a start cancelled after
// the fork is an exit source like any other: finalize kills and reaps the
// half-started tree, and Start's error says so.

package supervisor

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"clowder/persist"
)

// Start starts spec and returns the live run. Errors name the command and
// the failed step. If ctx is cancelled before Start returns, the
// half-started process tree is killed and reaped (OnExit still gets its one
// record, reason killed) and the error wraps ctx.Err(). Safe for concurrent
// use.
func (sp *Spawner) Start(ctx context.Context, spec Spec) (*Run, error) {
	if err := spec.validate(); err != nil {
		return nil, fmt.Errorf("spawn %s: %w", argvName(spec.Argv), err)
	}
	r, err := sp.prepare(ctx, spec)
	if err != nil {
		return nil, fmt.Errorf("spawn %s: %w", argvName(r.argv), err)
	}
	if spec.BeforeFork != nil {
		spec.BeforeFork(r.cont)
	}
	if err := r.fork(spec); err != nil {
		r.releaseUnstarted()
		return nil, fmt.Errorf("spawn %s: %w", argvName(r.argv), err)
	}
	r.startLoops()
	if spec.afterExec != nil {
		spec.afterExec(r)
	}
	if err := ctx.Err(); err != nil {
		return nil, r.abortStart(err)
	}
	return r, nil
}

// prepare builds the unstarted run: containment and I/O.
func (sp *Spawner) prepare(ctx context.Context, spec Spec) (*Run, error) {
	r := newRun(spec, spec.Limits.Or(sp.opts.Limits))
	if err := ctx.Err(); err != nil {
		return r, fmt.Errorf("aborted before starting: %w", err)
	}
	leaf, cont, err := sp.containment(spec.PaneID)
	if err != nil {
		return r, err
	}
	r.leaf, r.cont = leaf, cont
	if err := r.openIO(spec); err != nil {
		r.releaseUnstarted()
		return r, err
	}
	return r, nil
}

// fork starts the leader under the child-table lock and takes its identity.
func (r *Run) fork(spec Spec) error {
	base := spec.Env
	if base == nil {
		base = os.Environ()
	}
	env := childEnv(base, spec.PaneID, spec.Token)
	path, err := lookPath(spec.Argv[0], env)
	if err != nil {
		return err
	}
	pidfd := -1
	attr := &os.ProcAttr{Dir: spec.Dir, Env: env, Files: r.childFiles,
		Sys: sysAttr(spec.PTY != nil, r.leaf, &pidfd)}
	pid, err := children.start(func() (int, error) {
		p, err := os.StartProcess(path, spec.Argv, attr)
		if err != nil {
			return 0, err
		}
		pid := p.Pid
		_ = p.Release() // best effort: we wait through our own pidfd, not os.Process
		return pid, nil
	})
	r.closeChildFiles()
	if r.leaf != nil {
		r.leaf.closeDir()
	}
	if err != nil {
		return fmt.Errorf("start process: %w%s", err, startHint(err))
	}
	return r.adopt(pid, pidfd)
}

// adopt records the leader's identity; the leader is unreaped, so even a
// zombie still has its /proc entry.
func (r *Run) adopt(pid, pidfd int) error {
	p, err := readProc(pid)
	if err != nil {
		return fmt.Errorf("read identity of new child: %w", err)
	}
	r.id = p.ID
	r.leader = newHandleFD(p.ID, pidfd)
	r.cont.Pidfd = r.leader.Pidfd()
	r.tree = newProcTree(r.paneID, p.ID, p.PGID, r.sessionID(p), r.leaf)
	return nil
}

func (r *Run) sessionID(p procInfo) int {
	if r.master != nil {
		return p.Session
	}
	return 0
}

// abortStart finalizes a run whose start was cancelled.
func (r *Run) abortStart(cause error) error {
	err := fmt.Errorf("start aborted while starting (%w); the half-started process tree of %s was killed", cause, r.id)
	r.finalize(ending{reason: persist.ExitKilled, err: err, grace: -1})
	<-r.done
	if s := r.exit.Kill.Survivors; len(s) > 0 {
		err = fmt.Errorf("%w, but %d processes survived: %v", err, len(s), s)
	}
	return fmt.Errorf("spawn %s: %w", argvName(r.argv), err)
}

// lookPath finds argv0 in the PATH of the child's environment.
func lookPath(argv0 string, env []string) (string, error) {
	if strings.Contains(argv0, "/") {
		return argv0, nil
	}
	for _, dir := range filepath.SplitList(envValue(env, "PATH")) {
		p := filepath.Join(dir, argv0)
		if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() && st.Mode()&0o111 != 0 {
			return p, nil
		}
	}
	return "", fmt.Errorf("find %q in the child's PATH: %w; check its spelling, install it, or give its full path", argv0, os.ErrNotExist)
}

// startHint says what to do about a program that could not be executed:
// missing, or not an executable file.
func startHint(err error) string {
	if errors.Is(err, fs.ErrNotExist) || errors.Is(err, fs.ErrPermission) || errors.Is(err, syscall.ENOEXEC) {
		return "; give the full path of an executable program"
	}
	return ""
}

// envValue returns the last value of name in env.
func envValue(env []string, name string) string {
	v := ""
	for _, kv := range env {
		if k, val, ok := strings.Cut(kv, "="); ok && k == name {
			v = val
		}
	}
	return v
}

// argvName is argv[0] for error messages.
func argvName(argv []string) string {
	if len(argv) == 0 {
		return "(empty command)"
	}
	return fmt.Sprintf("%q", Redact(argv[:1])[0])
}
