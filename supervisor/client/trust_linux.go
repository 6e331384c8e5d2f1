package client

import (
	"net"

	"golang.org/x/sys/unix"
)

// peerUID is the uid of the process at the other end of uc (SO_PEERCRED:
// for a listening socket, who called listen).
func peerUID(uc *net.UnixConn) (int, bool, error) {
	raw, err := uc.SyscallConn()
	if err != nil {
		return 0, false, err
	}
	var cred *unix.Ucred
	var credErr error
	if err := raw.Control(func(fd uintptr) {
		cred, credErr = unix.GetsockoptUcred(int(fd), unix.SOL_SOCKET, unix.SO_PEERCRED)
	}); err != nil {
		return 0, false, err
	}
	if credErr != nil {
		return 0, false, credErr
	}
	return int(cred.Uid), true, nil
}
