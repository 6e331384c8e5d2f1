//go:build !linux

package client

// LeaderAlive cannot tell without /proc: it says yes, so a held master is
// always handed back (the host checks the identity itself).
func LeaderAlive(int, uint64) bool { return true }
