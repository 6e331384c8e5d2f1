//go:build !linux

package supervisor

import (
	"errors"
	"os"
)

// errNoHandover: upgrading in place needs memfd and Linux's exec rules.
var errNoHandover = errors.New("upgrading the host in place is Linux-only; stop it and start the new one")

// NewStateFile is Linux-only.
func NewStateFile(string) (*os.File, error) { return nil, errNoHandover }

// ExecKeeping is Linux-only.
func ExecKeeping(string, []string, []string, []int) error { return errNoHandover }

func blockingHandle(*Handle) error { return nil }
