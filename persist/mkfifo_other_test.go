//go:build !linux && !darwin

package persist

import "errors"

func mkfifo(string) error { return errors.New("unsupported") }
