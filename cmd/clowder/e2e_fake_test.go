//go:build linux

package main

import (
	"bytes"
	"crypto/sha256"
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

// fakePasteEnv makes the test binary a fake agent that turns on bracketed
// paste, reads one whole bracketed paste (of any size) in raw mode and
// prints the sha256 and length of what was between the markers.
const fakePasteEnv = "CLOWDER_E2E_FAKE_PASTE"

func fakePaste() int {
	if t, err := unix.IoctlGetTermios(0, unix.TCGETS); err == nil {
		t.Iflag &^= unix.IGNBRK | unix.BRKINT | unix.PARMRK | unix.ISTRIP | unix.INLCR | unix.IGNCR | unix.ICRNL | unix.IXON
		t.Oflag &^= unix.OPOST
		t.Lflag &^= unix.ECHO | unix.ECHONL | unix.ICANON | unix.ISIG | unix.IEXTEN
		t.Cflag &^= unix.CSIZE | unix.PARENB
		t.Cflag |= unix.CS8
		_ = unix.IoctlSetTermios(0, unix.TCSETS, t)
	}
	fmt.Print("\x1b[?2004hPASTE-READY\r\n") // raw: no OPOST, so CR LF by hand
	start, end := []byte("\x1b[200~"), []byte("\x1b[201~")
	var got []byte
	buf := make([]byte, 1<<16)
	for !bytes.HasSuffix(got, end) {
		n, err := os.Stdin.Read(buf)
		if err != nil {
			return 1
		}
		got = append(got, buf[:n]...)
	}
	if !bytes.HasPrefix(got, start) || bytes.Count(got, start) != 1 || bytes.Count(got, end) != 1 {
		fmt.Printf("BAD-BRACKETS %d\r\n", len(got))
		return 1
	}
	body := got[len(start) : len(got)-len(end)]
	fmt.Printf("PASTED %x %d\r\n", sha256.Sum256(body), len(body))
	return 0
}
