package supervisor

import (
	"fmt"
	"path/filepath"
	"strings"
)

// ValidLeaf reports whether path, read from agents.json for pane paneID,
// names a cgroup leaf this program makes for that pane: an absolute,
// clean path whose last element is the pane's leaf name (leafName). A
// recorded path is not trusted before it is checked: the kill ladder
// kills everything in a pane's leaf, and the host removes dead hosts'
// leaves, so a hand-edited or corrupt record naming /sys/fs/cgroup/user.slice
// would have had rm kill the user's session.
func ValidLeaf(path, paneID string) bool {
	if path == "" || !filepath.IsAbs(path) || filepath.Clean(path) != path {
		return false
	}
	rest, ok := strings.CutPrefix(filepath.Base(path), leafPane(paneID))
	return ok && leafSuffix(rest)
}

// leafSuffix reports whether s is what leafName puts after the pane's
// part: .<host pid>.<seq>.
func leafSuffix(s string) bool {
	parts := strings.Split(s, ".")
	return len(parts) == 3 && parts[0] == "" && digits(parts[1]) && digits(parts[2])
}

// digits reports whether s is one or more ASCII digits.
func digits(s string) bool {
	return s != "" && strings.Trim(s, "0123456789") == ""
}

// leafPane is paneID as it stands in its leaves' names.
func leafPane(paneID string) string {
	return strings.Map(func(r rune) rune {
		if r == '/' || r == '.' || r < ' ' {
			return '_'
		}
		return r
	}, paneID)
}

// leafNameFor is a leaf name for paneID, with the host pid and sequence.
func leafNameFor(paneID string, pid int, seq uint64) string {
	return fmt.Sprintf("%s.%d.%d", leafPane(paneID), pid, seq)
}
