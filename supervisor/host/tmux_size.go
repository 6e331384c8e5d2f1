// Size changes an adopted tmux pane undergoes in tmux (its window resized
// by a tmux client, resize-pane, a split or a kill beside it) are followed
// as they happen, not only at the next action: the host runs a tmux
// control-mode client attached to the pane's session and reads the pane's
// size again at each %layout-change it reports. The client is made
// harmless to the user's tmux: ignore-size (it never sizes a window),
// no-output (tmux sends it no pane output) and read-only; -E keeps the
// host's environment out of the session's (update-environment would give
// the user's next window the host's DISPLAY and SSH_AUTH_SOCK); it is
// attached to the session, not to the pane, so no pane is selected, but
// tmux counts the session attached while it is. Nothing ticks:
// the host blocks on the client's output until tmux has something to say.
// The client ends with the pane's watch (its end, rm letting it go, the
// host's stop): closing its stdin detaches it. A tmux too old for these
// flags leaves the size followed at the next action, as before.

package host

import (
	"bufio"
	"context"
	"os"
	"os/exec"
	"strings"
	"time"
)

// tmuxFollowerStop bounds how long a control client may take to detach
// once its stdin is closed before it is killed.
const tmuxFollowerStop = 2 * time.Second

// followTmuxLayout follows the pane's size until ctx ends or tmux ends the
// control client (the session is gone).
func (p *pane) followTmuxLayout(ctx context.Context, l *tmuxLink) {
	paneID := p.record().Tmux.PaneID
	sess, err := l.srv.Command(ctx, nil, "display-message", "-p", "-t", paneID, "#{session_id}")
	if err != nil {
		p.h.log.Printf("%s: tmux sizes followed at each action only: no session for %s: %v", p.id, paneID, err)
		return
	}
	cmd := exec.CommandContext(ctx, "tmux", "-S", l.srv.Socket, "-C", "attach-session", "-E",
		"-f", "ignore-size,no-output,read-only", "-t", strings.TrimSpace(sess))
	cmd.Env = followerEnv(os.Environ())
	if err := p.readLayoutChanges(ctx, l, cmd); err != nil && ctx.Err() == nil {
		p.h.log.Printf("%s: tmux sizes followed at each action only: control client of %s: %v", p.id, paneID, err)
	}
}

// followerEnv is the part of env the control client needs: where tmux
// is, and the locale it checks for UTF-8. Nothing else goes: a client
// sends its whole environment while it identifies, and tmux 3.3a's
// server crashes if a session or window changes between the client's
// first identify message and its last (control_write on a client whose
// control state does not exist yet), so the fewer messages the shorter
// that window. (-E already keeps the environment out of the session.)
func followerEnv(env []string) []string {
	var out []string
	for _, kv := range env {
		switch name, _, _ := strings.Cut(kv, "="); name {
		case "PATH", "HOME", "LANG", "LC_ALL", "LC_CTYPE":
			out = append(out, kv)
		}
	}
	return out
}

// readLayoutChanges runs the control client cmd and follows the pane's
// size at each layout change it reports.
func (p *pane) readLayoutChanges(ctx context.Context, l *tmuxLink, cmd *exec.Cmd) error {
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	cmd.SysProcAttr = followerAttr()
	cmd.Cancel = stdin.Close // a control client detaches at the end of its input
	cmd.WaitDelay = tmuxFollowerStop
	if err := cmd.Start(); err != nil {
		return err
	}
	sc := bufio.NewScanner(out)
	sc.Buffer(make([]byte, 64<<10), 1<<20) // a layout line of a window with many panes is long
	attached := false
	for sc.Scan() {
		line := sc.Text()
		// Once attached, the size is read once more: a change between
		// adoption and the attach was reported to no one.
		first := !attached && (strings.HasPrefix(line, "%end ") || strings.HasPrefix(line, "%session-changed "))
		attached = attached || first
		if first || strings.HasPrefix(line, "%layout-change ") {
			p.tmuxLayoutChanged(ctx, l)
		}
	}
	_ = stdin.Close() // best effort: tmux may have ended the client already
	return cmd.Wait()
}

// tmuxLayoutChanged reads the pane's size again and takes it, if the pane
// is still the one adopted (an action would refuse it; here nothing is
// sent, so nothing is refused either).
func (p *pane) tmuxLayoutChanged(ctx context.Context, l *tmuxLink) {
	st, err := l.srv.Identify(ctx, p.record().Tmux.PaneID)
	if err != nil || st.Dead || p.tmuxSame("follow size", st) != nil {
		return
	}
	p.followTmuxSize(st)
}
