package panes

import (
	"strings"
	"testing"

	"clowder/persist"
)

// TestValidateNameAndSize: the name and size rules every spawn path uses
// (the protocol's request validation calls them).
func TestValidateNameAndSize(t *testing.T) {
	names := []struct{ name, want string }{
		{"api-fix", ""},
		{"api fix", "use only letters"},
		{"api/fix", "use only letters"},
		{strings.Repeat("a", MaxNameLen+1), "shorten it"},
		{"-x", "start it with a letter"},
		{"a..b", "git refuses"},
	}
	for _, tt := range names {
		if err := ValidateName(tt.name); !matches(err, tt.want) {
			t.Errorf("ValidateName(%q) = %v, want %q", tt.name, err, tt.want)
		}
	}
	sizes := []struct {
		size persist.Size
		want string
	}{
		{persist.Size{Cols: 200, Rows: 50}, ""},
		{persist.Size{Cols: 1, Rows: 24}, "out of bounds"},
		{persist.Size{Cols: 80, Rows: MaxRows + 1}, "out of bounds"},
		// Regression: 1000x500 passed the CLI, but its 500,000 cells are more
		// than a screen frame may carry, so no client could ever show it.
		{persist.Size{Cols: MaxCols, Rows: 500}, "at most 131072 cells"},
	}
	for _, tt := range sizes {
		if err := ValidateSize(tt.size); !matches(err, tt.want) {
			t.Errorf("ValidateSize(%v) = %v, want %q", tt.size, err, tt.want)
		}
	}
}

// matches reports whether err is nil when want is "", or contains want.
func matches(err error, want string) bool {
	if want == "" {
		return err == nil
	}
	return err != nil && strings.Contains(err.Error(), want)
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
