package persist

import (
	"os"
	"strings"
	"testing"
	"time"
)

// TestConfigRefusesClashingKeys pins a trial bug: two [keys] actions on
// one key, or an action on the prefix key itself (pressed after the
// prefix, the prefix goes to the pane), were accepted silently and one
// of them could never run. Each is refused at load with one line naming
// both actions and the key.
func TestConfigRefusesClashingKeys(t *testing.T) {
	tests := []struct{ name, text string }{
		{"two actions", "[keys]\nzoom = \"z\"\nclose = [\"x\", \"z\"]\n"},
		{"the default prefix", "[keys]\nzoom = \"C-Space\"\n"},
		{"a set prefix", "[tui]\nprefix = \"C-g\"\n[keys]\nhelp = [\"?\", \"C-g\"]\n"},
	}
	want := map[string][]string{
		"two actions":        {"close", "zoom", `"z"`},
		"the default prefix": {"zoom", "prefix", `"C-Space"`},
		"a set prefix":       {"help", "prefix", `"C-g"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := LoadConfig(configFile(t, tc.text))
			if err == nil || strings.Contains(err.Error(), "\n") {
				t.Fatalf("err = %v; want one line", err)
			}
			for _, w := range want[tc.name] {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("err = %v; want it to name %s", err, w)
				}
			}
		})
	}
	if _, err := LoadConfig(configFile(t, "[keys]\nzoom = \"Z\"\nclose = \"z\"\n")); err != nil {
		t.Errorf("z and Z are two keys: %v", err)
	}
}

// TestConfigThatIsNotARegularFileIsRefused: a fifo as config.toml hung
// every command (reading waits for a writer) and a directory gave a
// bare "is a directory". Both are refused, naming the file. A symlink to
// a config (dotfiles) is still followed.
func TestConfigThatIsNotARegularFileIsRefused(t *testing.T) {
	dir := t.TempDir()
	fifo := dir + "/fifo.toml"
	if err := mkfifo(fifo); err != nil {
		t.Skip("no fifos here:", err)
	}
	done := make(chan error, 1)
	go func() { _, err := LoadConfig(fifo); done <- err }()
	select {
	case err := <-done:
		if err == nil || !strings.Contains(err.Error(), fifo) || !strings.Contains(err.Error(), "not a regular file") {
			t.Fatalf("fifo config: %v; want it refused, naming it", err)
		}
	case <-time.After(time.Minute): // bounds the failure only
		t.Fatal("LoadConfig blocked on a fifo")
	}
	real := configFile(t, "[tui]\nnotify = \"off\"\n")
	link := dir + "/link.toml"
	if err := os.Symlink(real, link); err != nil {
		t.Fatal(err)
	}
	if c, err := LoadConfig(link); err != nil || c.TUI.Notify != NotifyOff {
		t.Fatalf("a symlinked config: %v, %+v", err, c.TUI)
	}
}
