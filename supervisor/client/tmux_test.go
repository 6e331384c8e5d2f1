package client

import (
	"os"
	"path/filepath"
	"strconv"
	"testing"
)

// TestTmuxSocketChoosesAsTmuxDoes: -S as given (made absolute), else
// $TMUX's socket, else the -L label (default "default") under
// $TMUX_TMPDIR or /tmp, in tmux-UID.
func TestTmuxSocketChoosesAsTmuxDoes(t *testing.T) {
	tmp := t.TempDir()
	uid := "tmux-" + strconv.Itoa(os.Getuid())
	env := map[string]string{"TMUX": "/run/t/sock,123,0", "TMUX_TMPDIR": tmp}
	getenv := func(k string) string { return env[k] }
	for _, c := range []struct{ label, path, want string }{
		{"", "/x/y.sock", "/x/y.sock"},
		{"", "", "/run/t/sock"},
		{"work", "", filepath.Join(tmp, uid, "work")},
	} {
		got, err := TmuxSocket(c.label, c.path, getenv)
		if err != nil || got != c.want {
			t.Errorf("TmuxSocket(%q, %q) = %q, %v; want %q", c.label, c.path, got, err, c.want)
		}
	}
	delete(env, "TMUX")
	if got, _ := TmuxSocket("", "", getenv); got != filepath.Join(tmp, uid, "default") {
		t.Errorf("no flag, no $TMUX: %q; want the default socket", got)
	}
	delete(env, "TMUX_TMPDIR")
	if got, _ := TmuxSocket("", "", getenv); filepath.Base(got) != "default" || filepath.Base(filepath.Dir(got)) != uid {
		t.Errorf("no $TMUX_TMPDIR: %q; want /tmp/%s/default", got, uid)
	}
	if rel, _ := TmuxSocket("", "rel.sock", getenv); !filepath.IsAbs(rel) {
		t.Errorf("-S rel.sock gave %q; the host needs an absolute path", rel)
	}
	for _, bad := range [][2]string{{"a", "/b"}, {"a/b", ""}} {
		if _, err := TmuxSocket(bad[0], bad[1], getenv); err == nil {
			t.Errorf("TmuxSocket(%q, %q) took it", bad[0], bad[1])
		}
	}
}
