//go:build !unix

package client

import (
	"errors"
	"os"
)

// SetTermSize is not available here; callers resize through the host.
func SetTermSize(*Master, int, int) error {
	return errors.New("setting a terminal size is not supported on this system")
}
