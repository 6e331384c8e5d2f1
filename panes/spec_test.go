package panes

import (
	"slices"
	"strings"
	"testing"

	"clowder/persist"
)

func TestSpecValidate(t *testing.T) {
	ok := Spec{Name: "api-fix", Kind: persist.KindAgent, Adapter: "claude", Cwd: "/src/app"}
	tests := []struct {
		name string
		edit func(*Spec)
		want string // "" means valid
	}{
		{"valid agent", func(*Spec) {}, ""},
		{"no name is fine", func(s *Spec) { s.Name = "" }, ""},
		{"valid run", func(s *Spec) { s.Kind, s.Adapter, s.Argv = persist.KindRun, "", []string{"make", "test"} }, ""},
		{"valid shell", func(s *Spec) { s.Kind, s.Adapter = persist.KindShell, "" }, ""},
		{"valid size", func(s *Spec) { s.Size = persist.Size{Cols: 200, Rows: 50} }, ""},
		{"name with space", func(s *Spec) { s.Name = "api fix" }, "use only letters"},
		{"name with slash", func(s *Spec) { s.Name = "api/fix" }, "use only letters"},
		{"name too long", func(s *Spec) { s.Name = strings.Repeat("a", MaxNameLen+1) }, "shorten it"},
		{"name starting with dash", func(s *Spec) { s.Name = "-x" }, "start it with a letter"},
		{"name with dot-dot", func(s *Spec) { s.Name = "a..b" }, "git refuses"},
		{"run without argv", func(s *Spec) { s.Kind, s.Argv = persist.KindRun, nil }, "clowder new -- CMD"},
		{"run with empty command", func(s *Spec) { s.Kind, s.Argv = persist.KindRun, []string{""} }, "needs a command"},
		{"agent without adapter", func(s *Spec) { s.Adapter = "" }, "--agent"},
		{"invalid kind", func(s *Spec) { s.Kind = 0 }, "not agent, shell or run"},
		{"relative cwd", func(s *Spec) { s.Cwd = "src" }, "not an absolute path"},
		{"env name with =", func(s *Spec) { s.Env = map[string]string{"A=B": "1"} }, "environment name"},
		{"env value with NUL", func(s *Spec) { s.Env = map[string]string{"A": "x\x00"} }, "NUL"},
		{"too narrow", func(s *Spec) { s.Size = persist.Size{Cols: 1, Rows: 24} }, "out of bounds"},
		{"too tall", func(s *Spec) { s.Size = persist.Size{Cols: 80, Rows: MaxRows + 1} }, "out of bounds"},
		// Regression: 1000x500 passed the CLI, but its 500,000 cells are more
		// than a screen frame may carry, so no client could ever show it.
		{"too many cells", func(s *Spec) { s.Size = persist.Size{Cols: MaxCols, Rows: 500} }, "at most 131072 cells"},
		{"negative timeout", func(s *Spec) { s.Timeouts.Idle = -1 }, "negative"},
		{"worktree without name", func(s *Spec) { s.Name, s.Worktree = "", &WorktreeSpec{} }, "--name"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := ok
			tt.edit(&s)
			err := s.Validate()
			switch {
			case tt.want == "" && err != nil:
				t.Errorf("Validate = %v, want valid", err)
			case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
				t.Errorf("Validate = %v, want an error containing %q", err, tt.want)
			case err != nil && strings.Contains(err.Error(), "\n"):
				t.Errorf("error is not one line: %q", err)
			}
		})
	}
}

func TestParseSize(t *testing.T) {
	tests := []struct {
		in   string
		want persist.Size
		err  string
	}{
		{"120x40", persist.Size{Cols: 120, Rows: 40}, ""},
		{"80X24", persist.Size{Cols: 80, Rows: 24}, ""},
		{"80", persist.Size{}, "COLSxROWS"},
		{"axb", persist.Size{}, "COLSxROWS"},
		{"5000x10", persist.Size{Cols: 5000, Rows: 10}, "out of bounds"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := ParseSize(tt.in)
			if tt.err == "" && (err != nil || got != tt.want) {
				t.Errorf("ParseSize = %+v, %v", got, err)
			}
			if tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err)) {
				t.Errorf("ParseSize error = %v, want %q", err, tt.err)
			}
		})
	}
}

func TestSpecCommandAndSize(t *testing.T) {
	ads := NewAdapters(nil, "/bin/bash")
	tests := []struct {
		name    string
		spec    Spec
		argv    []string
		adapter string
	}{
		{"agent default command", Spec{Kind: persist.KindAgent, Adapter: "codex"}, []string{"codex"}, "codex"},
		{"agent argv override", Spec{Kind: persist.KindAgent, Adapter: "claude", Argv: []string{"claude", "-c"}}, []string{"claude", "-c"}, "claude"},
		{"shell", Spec{Kind: persist.KindShell}, []string{"/bin/bash"}, "shell"},
		{"run", Spec{Kind: persist.KindRun, Argv: []string{"make"}}, []string{"make"}, "command"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			argv, a, err := tt.spec.Command(ads)
			if err != nil || !slices.Equal(argv, tt.argv) || a.Name != tt.adapter {
				t.Errorf("Command = %q, %s, %v", argv, a.Name, err)
			}
		})
	}
	if _, _, err := (Spec{Kind: persist.KindRun}).Command(ads); err == nil {
		t.Error("run with no argv resolved a command")
	}
	if (Spec{}).SizeOrDefault() != DefaultSize {
		t.Error("zero size is not the default")
	}
}

func TestClampSizeStaysInBounds(t *testing.T) {
	for _, sz := range []persist.Size{{Cols: 0, Rows: 0}, {Cols: 65535, Rows: 65535}, {Cols: 1000, Rows: 1000}, {Cols: 80, Rows: 24}, {Cols: 1, Rows: 5000}} {
		got := ClampSize(sz)
		if err := ValidateSize(got); err != nil {
			t.Errorf("ClampSize(%v) = %v: %v", sz, got, err)
		}
		if ValidateSize(sz) == nil && got != sz {
			t.Errorf("ClampSize changed the valid size %v to %v", sz, got)
		}
	}
}
