//go:build unix

// This file is what a client checks before it sends a host anything: the
// hello names this program, and a spawn carries the whole environment,
// API keys included. Another local user could pre-create the runtime dir
// (/tmp/clowder-<uid> when XDG_RUNTIME_DIR is unset) with a listening
// socket of their own, so Dial checks that the runtime dir is ours and
// private (0700), that the socket file is ours, and, once connected, that
// the process listening runs as us (the peer's uid, SO_PEERCRED where the
// system has it). Any doubt refuses the connection with one line naming
// the path and what to do.

package client

import (
	"errors"
	"fmt"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"syscall"

	"clowder/persist"
)

// ErrUntrustedHost matches (errors.Is) a refusal to talk to a socket that
// another user could control.
var ErrUntrustedHost = errors.New("refusing to connect")

// untrusted is a refusal: ErrUntrustedHost with why, and what to do.
func untrusted(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrUntrustedHost, fmt.Sprintf(format, args...))
}

// checkSocketPath checks the runtime dir and the socket file before a
// connection is made. A missing dir or socket is ErrNoHost.
func checkSocketPath(socketPath string) error {
	if err := checkRuntimeDir(filepath.Dir(socketPath)); err != nil {
		return err
	}
	fi, err := os.Lstat(socketPath)
	if errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("%w (socket %s)", ErrNoHost, socketPath)
	}
	if err != nil {
		return fmt.Errorf("check socket %s: %w", socketPath, err)
	}
	if fi.Mode().Type() != fs.ModeSocket {
		return untrusted("%s is not a socket (it is %s); remove it", socketPath, persist.DescribeType(fi.Mode()))
	}
	if uid := ownerOf(fi); uid != os.Getuid() {
		return untrusted("socket %s is owned by uid %d, not by you (uid %d), so another user may be posing as your host; remove it",
			socketPath, uid, os.Getuid())
	}
	return nil
}

// checkRuntimeDir refuses a runtime dir that is not a real directory, is
// not ours, or lets anyone else in.
func checkRuntimeDir(dir string) error {
	fi, err := os.Lstat(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("%w (no runtime dir %s)", ErrNoHost, dir)
	}
	if err != nil {
		return fmt.Errorf("check runtime dir %s: %w", dir, err)
	}
	if fi.Mode()&fs.ModeSymlink != 0 {
		return untrusted("runtime dir %s is a symbolic link%s, which another user could point elsewhere; set %s to a real private directory (mode 0700), or replace the link with one",
			dir, linkTarget(dir), persist.EnvRuntimeDir)
	}
	if !fi.IsDir() {
		return untrusted("runtime dir %s is not a directory (it is %s); remove it, or set %s to a private directory",
			dir, persist.DescribeType(fi.Mode()), persist.EnvRuntimeDir)
	}
	if uid := ownerOf(fi); uid != os.Getuid() {
		return untrusted("runtime dir %s is owned by uid %d, not by you (uid %d), so another user may be posing as your host; remove it, or set %s to a private directory",
			dir, uid, os.Getuid(), persist.EnvRuntimeDir)
	}
	if perm := fi.Mode().Perm(); perm&0o077 != 0 {
		return untrusted("runtime dir %s has mode %#o, which lets other users in; run chmod 700 %s", dir, perm, dir)
	}
	return nil
}

// ownerOf is the uid owning fi; -1 when the system does not say.
func ownerOf(fi fs.FileInfo) int {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return -1
	}
	return int(st.Uid)
}

// checkListener refuses a connected socket whose listening process does
// not run as us.
func checkListener(uc *net.UnixConn, socketPath string) error {
	uid, known, err := peerUID(uc)
	if err != nil {
		return fmt.Errorf("check who listens on %s: %w", socketPath, err)
	}
	if known && uid != os.Getuid() {
		return untrusted("the process listening on %s runs as uid %d, not as you (uid %d), so it is not your host; remove %s",
			socketPath, uid, os.Getuid(), socketPath)
	}
	return nil
}

// linkTarget is " to TARGET" for the symbolic link at path, "" when it
// cannot be read.
func linkTarget(path string) string {
	t, err := os.Readlink(path)
	if err != nil {
		return ""
	}
	return " to " + t
}
