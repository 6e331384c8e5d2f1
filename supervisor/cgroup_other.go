//go:build !linux

// No cgroups here: persist.CgroupRequired fails every spawn and persist.CgroupAuto falls
// back to the process group (see containment in spawn.go).

package supervisor

import (
	"errors"
	"syscall"
)

type cgroupLeaf struct{ path string }

var errNoCgroups = errors.New("cgroups are Linux-only")

func cgroupParentDir(string) (string, error)            { return "", errNoCgroups }
func newCgroupLeaf(string, string) (*cgroupLeaf, error) { return nil, errNoCgroups }
func (c *cgroupLeaf) closeDir()                         {}
func forgetCgroupFacts()                                {}
func cgroupParentReady() bool                           { return false }
func (c *cgroupLeaf) kill() error                       { return errNoCgroups }
func (c *cgroupLeaf) populated() (bool, error)          { return false, errNoCgroups }
func (c *cgroupLeaf) procs() ([]int, error)             { return nil, errNoCgroups }
func (c *cgroupLeaf) remove() error                     { return nil }
func applyCgroup(*syscall.SysProcAttr, *cgroupLeaf)     {}

func leafAt(path, paneID string) *cgroupLeaf {
	if !ValidLeaf(path, paneID) {
		return nil
	}
	return &cgroupLeaf{path: path}
}

// CleanDeadLeaves has nothing to clean without cgroups.
func CleanDeadLeaves([]string, map[string]bool) (removed, busy []string) { return nil, nil }

// DeadLeaves has nothing to find without cgroups.
func (sp *Spawner) DeadLeaves() []string { return nil }
