//go:build !linux

package host

import "errors"

// unreadBytes needs Linux's SIOCINQ; waitFull skips before calling it.
func unreadBytes(int) (int, error) { return 0, errors.New("unread bytes: Linux only") }
