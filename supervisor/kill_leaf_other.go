//go:build !linux

package supervisor

// leafTable: there are no cgroup leaves here (cgroup_other.go); a tree
// looks at the whole process table, as far as this OS has one.
func (t *procTree) leafTable() (procTable, map[int]bool, error) { return nil, nil, errNoCgroups }
