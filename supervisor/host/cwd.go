// Where a pane is now: a split opens beside a shell in the directory the
// user cd'ed to, not where the shell started (what tmux does with
// #{pane_current_path}).

package host

import (
	"net/url"
	"os"
	"strconv"
)

// cwdNowLocked is the pane's current directory: what the program reported
// with OSC 7, else the cwd of the terminal's foreground process, else "".
func (p *pane) cwdNowLocked() string {
	if dir := osc7Path(p.term.Cwd()); dir != "" {
		return dir
	}
	if !p.runningLocked() {
		return ""
	}
	for _, pid := range []int{p.run.Foreground(), p.rec.PID} {
		if pid <= 0 {
			continue
		}
		if dir, err := os.Readlink("/proc/" + strconv.Itoa(pid) + "/cwd"); err == nil {
			return dir
		}
	}
	return ""
}

// osc7Path is the local path of an OSC 7 file:// URL, "" for another host
// or anything else.
func osc7Path(s string) string {
	u, err := url.Parse(s)
	if err != nil || u.Scheme != "file" {
		return ""
	}
	if h, _ := os.Hostname(); u.Host != "" && u.Host != "localhost" && u.Host != h {
		return ""
	}
	return u.Path
}
