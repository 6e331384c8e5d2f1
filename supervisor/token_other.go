//go:build !linux

// Without /proc there is no token scan: trees of a dead host are found
// by their process group alone (proc_other.go).

package supervisor

// BootTicks is 0 here: identities carry no start time (proc_other.go),
// so every process started at or after it.
func BootTicks() (uint64, error) { return 0, nil }

// ScanPaneTokens finds nothing here.
func ScanPaneTokens() (*TokenScan, error) { return &TokenScan{}, errNoProcScan }
