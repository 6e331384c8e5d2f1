package main

// This file is what the CLI does with the panes agents.json records while
// no host runs (after `host stop`, a crash or a reboot): `ls` shows them
// as last saved without starting a host (a listing starts no process);
// `rm`, `rename`, `land` and `discard` start a host, agents.json's one
// writer, which loads them, so that a recorded pane can be forgotten and
// its name used again; every other pane command says what to do
// (docs/cli.md, "The host").

import (
	"context"
	"errors"
	"fmt"
	"syscall"

	"clowder/persist"
	"clowder/supervisor"
	"clowder/supervisor/client"
	"clowder/supervisor/proto"
)

// stoppedState is the state ls shows, with no host, for a pane whose
// record says it runs: nothing watches it until a host starts.
const stoppedState = "stopped"

// stoppedNote is the note of such a pane.
const stoppedNote = "no clowder host is running: the next host resumes this pane, or finds its process still running"

// recordedPanes reads the panes agents.json records, changing nothing.
func recordedPanes(p persist.Paths) ([]persist.PaneRecord, error) {
	r, err := persist.PeekRegistry(p.AgentsFile())
	if err != nil {
		return nil, err
	}
	return r.Panes, nil
}

// recordedList is what ls shows with no host: the recorded panes, and a
// line on stderr saying that no host runs and what to do.
func (a *app) recordedList(p persist.Paths) ([]proto.PaneInfo, error) {
	if err := hostElsewhereError(p); err != nil {
		return nil, err
	}
	recs, err := recordedPanes(p)
	if err != nil {
		return nil, fmt.Errorf("no clowder host is running, and its panes cannot be listed: %w", err)
	}
	list := make([]proto.PaneInfo, 0, len(recs))
	for _, r := range recs {
		list = append(list, recordedInfo(r))
	}
	if len(list) > 0 {
		fmt.Fprintf(a.stderr, "clowder: no clowder host is running: %s as agents.json last recorded them; `clowder host` starts one (resuming the panes that were running), `clowder rm PANE` forgets one\n",
			panesCount(len(list)))
	}
	return list, nil
}

// hostElsewhereError says, when a host of another runtime dir holds the
// state dir, that it does and what to do (starting a host here would
// fail on its lock); else it is nil.
func hostElsewhereError(p persist.Paths) error {
	pid, held := hostElsewhere(p)
	if !held {
		return nil
	}
	return fmt.Errorf("a clowder host (pid %d) keeps its panes in %s but listens in another runtime dir (no socket at %s): give both sessions the same XDG_RUNTIME_DIR (or CLOWDER_RUNTIME_DIR), or a CLOWDER_STATE_DIR of their own", pid, p.StateDir, p.SocketFile())
}

// hostElsewhere reports whether a host of another runtime dir holds the
// state dir's lock, and its pid. One that also holds this runtime dir's
// lock is this dir's host starting up: it listens soon.
func hostElsewhere(p persist.Paths) (int, bool) {
	pid, held := persist.PeekLockHolder(p.StateLockFile())
	if !held {
		return 0, false
	}
	here, starting := persist.PeekLockHolder(p.LockFile())
	return pid, !starting || here != pid
}

// panesCount is "1 pane is shown" or "N panes are shown".
func panesCount(n int) string {
	if n == 1 {
		return "1 pane is shown"
	}
	return fmt.Sprintf("%d panes are shown", n)
}

// recordedInfo is a record as ls shows it while no host runs.
func recordedInfo(r persist.PaneRecord) proto.PaneInfo {
	in := proto.PaneInfo{ID: r.ID, Name: r.Name, Kind: r.Kind.String(), Adapter: r.Adapter,
		State: r.State.String(), Pid: r.PID, PidStart: r.PIDStart, BootID: r.BootID,
		Cwd: r.Cwd, Argv: r.Argv, Cols: uint16(r.Size.Cols), Rows: uint16(r.Size.Rows),
		CreatedMS: r.Created.UnixMilli(), Worktree: r.Worktree, Session: r.Session, Note: r.Note}
	if r.Exit != nil {
		in.ExitCode, in.ExitReason = r.Exit.Code, r.Exit.Reason.String()
		if r.Exit.Signal != 0 {
			in.ExitSignal = supervisor.SignalName(syscall.Signal(r.Exit.Signal))
		}
	}
	if r.State != persist.StateExited && r.State != persist.StateLost {
		in.State, in.Note = stoppedState, stoppedNote
	}
	return in
}

// noHostError is dial's error when no host runs: with panes recorded, it
// says how to get them back instead of that there are none; with the
// state dir held by a host of another runtime dir, that it is.
func noHostError(p persist.Paths) error {
	if err := hostElsewhereError(p); err != nil {
		return err // its panes are not to be had from a host here
	}
	recs, err := recordedPanes(p)
	if err != nil {
		return fmt.Errorf("no clowder host is running (no socket at %s), and the panes it recorded cannot be read: %w", p.SocketFile(), err)
	}
	if len(recs) == 0 {
		return fmt.Errorf("no clowder host is running (no socket at %s), so there are no panes; start one with clowder new", p.SocketFile())
	}
	return &noHost{fmt.Sprintf("no clowder host is running (no socket at %s); agents.json records %d pane%s (see clowder ls): start a host with `clowder host`, which resumes the panes that were running, then run this again",
		p.SocketFile(), len(recs), plural(len(recs)))}
}

// noHost is noHostError's answer when agents.json records panes.
type noHost struct{ msg string }

func (e *noHost) Error() string { return e.msg }

// withRecordedHost runs fn like withClient, starting a host when none
// runs but agents.json records pane ref (an id or a name): rm, rename,
// land and discard change a recorded pane, which only the host may do. A
// ref that names no record starts nothing.
func (a *app) withRecordedHost(ctx context.Context, ref string, fn func(*client.Client) error) error {
	p, err := a.paths()
	if err != nil {
		return err
	}
	recs, _ := recordedPanes(p) // an unreadable file: no host is started, and dial says why
	known := recorded(recs, ref)
	err = a.withClient(ctx, known, fn)
	var none *noHost
	if !known && len(recs) > 0 && errors.As(err, &none) { // not "start a host and run this again": it would find none
		return fmt.Errorf("no pane %q: no clowder host is running, and agents.json records %d pane%s, none of that id or name; see clowder ls", ref, len(recs), plural(len(recs)))
	}
	return err
}

// recorded reports whether ref is the id or the name of one of recs.
func recorded(recs []persist.PaneRecord, ref string) bool {
	for _, r := range recs {
		if r.ID == ref || r.Name == ref {
			return true
		}
	}
	return false
}
