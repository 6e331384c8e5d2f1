package supervisor

import "testing"

// TestValidLeafTakesOnlyAPanesOwnLeaf: a cgroup path read from agents.json
// counts only if it is a leaf clowder makes for that pane; a hand-edited
// or corrupt record naming another cgroup (the user's session) would have
// had rm kill everything in it and the host remove it.
func TestValidLeafTakesOnlyAPanesOwnLeaf(t *testing.T) {
	own := "/sys/fs/cgroup/user.slice/clowder/" + leafNameFor("p3", 4242, 7)
	for path, want := range map[string]bool{
		own:                                true,
		"/sys/fs/cgroup/user.slice":        false,
		"/sys/fs/cgroup":                   false,
		"/sys/fs/cgroup/clowder/p4.4242.7": false, // another pane's
		"/sys/fs/cgroup/clowder/p3.4242.7/../../x": false,
		"sys/fs/cgroup/clowder/p3.4242.7":          false,
		"/sys/fs/cgroup/clowder/p3.4242":           false,
		"/sys/fs/cgroup/clowder/p3.42x2.7":         false,
		"/sys/fs/cgroup/clowder/p3.4242.7.8":       false,
		"":                                         false,
	} {
		if got := ValidLeaf(path, "p3"); got != want {
			t.Errorf("ValidLeaf(%q, p3) = %v, want %v", path, got, want)
		}
	}
}
