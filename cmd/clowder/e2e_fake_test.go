//go:build linux

package main

import (
	"fmt"
	"os"

	"golang.org/x/sys/unix"
)

// fakeKeysEnv makes the test binary a fake agent that turns on DECCKM and
// bracketed paste, then prints every byte it reads as hex, so a test sees
// exactly what a key or a paste became on its way to the pane.
const fakeKeysEnv = "CLOWDER_E2E_FAKE_KEYS"

func fakeKeys() int {
	if t, err := unix.IoctlGetTermios(0, unix.TCGETS); err == nil {
		t.Lflag &^= unix.ICANON | unix.ECHO | unix.ISIG | unix.IEXTEN
		t.Iflag &^= unix.ICRNL | unix.IXON
		_ = unix.IoctlSetTermios(0, unix.TCSETS, t)
	}
	fmt.Print("\x1b[?1h\x1b[?2004hKEYS-READY\r\n")
	buf := make([]byte, 256)
	for {
		n, err := os.Stdin.Read(buf)
		if err != nil {
			return 0
		}
		fmt.Printf("IN %x\r\n", buf[:n])
	}
}
