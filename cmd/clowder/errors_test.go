package main

import (
	"errors"
	"fmt"

	"clowder/supervisor/proto"
)

// wrapHost is a host error reply wrapped the way a command returns it.
func wrapHost(msg string) error {
	return fmt.Errorf("capture: %w", &proto.ErrorReply{Code: proto.CodeNotFound, Message: msg})
}

// errString is a plain error.
func errString(s string) error { return errors.New(s) }
