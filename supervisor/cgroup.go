// This file holds the portable face of per-run cgroup containment: the mode
// a caller asks for and the Containment a run reports. The Linux mechanism
// lives in cgroup_linux.go; elsewhere every run falls back to its process
// group (cgroup_other.go).

package supervisor

// Containment reports how a run's process tree is held, for `ls --json`
// and logs. It is fixed once the run has started.
type Containment struct {
	// Kind is "cgroup" or "process-group".
	Kind string `json:"containment"`
	// Cgroup is the leaf directory when Kind is "cgroup".
	Cgroup string `json:"cgroup,omitempty"`
	// Fallback says why an auto-mode run has no cgroup; empty otherwise.
	Fallback string `json:"containment_fallback,omitempty"`
	// Subreaper reports whether this process adopts escaped orphans.
	Subreaper bool `json:"subreaper"`
	// Pidfd reports whether the leader is held by a kernel pidfd.
	Pidfd bool `json:"pidfd"`
}

// Containment kinds.
const (
	ContainCgroup       = "cgroup"
	ContainProcessGroup = "process-group"
)

// String describes the containment for logs.
func (c Containment) String() string {
	if c.Kind == ContainCgroup {
		return "cgroup " + c.Cgroup
	}
	if c.Fallback != "" {
		return "process group (" + c.Fallback + ")"
	}
	return "process group"
}
