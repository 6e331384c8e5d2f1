package persist

import (
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"
)

// Regression (issue 8 §1): README documents split-right = ["%", "|"], but
// [keys] took one string per action, so the documented list was a TOML
// type error that broke every command.
func TestKeysTakeAListOrAString(t *testing.T) {
	text := "[keys]\nsplit-right = [\"%\", \"|\"]\nzoom = \"z\"\nswap-next = \"} M-]\"\n"
	c, err := LoadConfig(configFile(t, text))
	if err != nil {
		t.Fatalf("documented [keys] forms: %v", err)
	}
	want := map[string]string{"split-right": "[% |]", "zoom": "[z]", "swap-next": "[} M-]]"}
	for action, w := range want {
		if got := fmt.Sprint(c.Keys[action]); got != w {
			t.Errorf("keys.%s = %s, want %s", action, got, w)
		}
	}
}

func TestKeysRefuseWrongShapes(t *testing.T) {
	tests := []struct{ name, text, want string }{
		{"empty list", "[keys]\nzoom = []\n", "keys.zoom is empty"},
		{"empty string in a list", "[keys]\nzoom = [\"z\", \"\"]\n", "keys.zoom"},
		{"number", "[keys]\nzoom = 3\n", "zoom"},
		{"list of numbers", "[keys]\nzoom = [3]\n", "zoom"},
		{"two keys in one list item", "[keys]\nzoom = [\"z Z\"]\n", "keys.zoom"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			path := configFile(t, tc.text)
			_, err := LoadConfig(path)
			if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), path) {
				t.Fatalf("err = %v; want one naming %q and the file", err, tc.want)
			}
		})
	}
}

// TestReadmeConfigExampleLoads keeps README's config.toml example true: it
// must load as written.
func TestReadmeConfigExampleLoads(t *testing.T) {
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	blocks := regexp.MustCompile("(?s)```toml\n(.*?)```").FindAllSubmatch(readme, -1)
	if len(blocks) == 0 {
		t.Fatal("README.md has no toml example")
	}
	for _, b := range blocks {
		if _, err := LoadConfig(configFile(t, string(b[1]))); err != nil {
			t.Errorf("README's example does not load: %v\n%s", err, b[1])
		}
	}
	if !strings.Contains(string(readme), "[keys]\nsplit-right = [") {
		t.Error("README's example should show [keys] with a list of keys")
	}
}
