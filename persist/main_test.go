package persist

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"testing"
)

// helperEnv selects a helper mode when the test binary is re-executed as a
// second process (os/exec's helperCommand pattern).
const (
	helperEnv     = "PERSIST_TEST_HELPER"
	helperLockEnv = "PERSIST_TEST_LOCK"
)

func TestMain(m *testing.M) {
	if mode := os.Getenv(helperEnv); mode == "crashwrite" {
		os.Exit(crashWrite(os.Getenv(helperLockEnv), os.Getenv(crashAtEnv)))
	} else if mode != "" {
		os.Exit(runHelper(mode, os.Getenv(helperLockEnv)))
	}
	os.Exit(m.Run())
}

// runHelper is the second process of the lock tests.
//
//	hold: take the lock, print "locked", hold it until stdin closes.
//	try:  try the lock once, print "locked" or "refused: <error>", exit.
func runHelper(mode, path string) int {
	out := bufio.NewWriter(os.Stdout)
	defer func() { _ = out.Flush() }()
	l, err := Lock(path)
	if err != nil {
		fmt.Fprintf(out, "refused: %v\n", err)
		return 0
	}
	fmt.Fprintln(out, "locked")
	if err := out.Flush(); err != nil {
		return 1
	}
	if mode == "hold" {
		_, _ = io.Copy(io.Discard, os.Stdin) // returns when the parent closes stdin
	}
	if err := l.Close(); err != nil {
		return 1
	}
	return 0
}
