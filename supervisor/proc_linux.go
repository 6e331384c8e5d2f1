// Process-table reads from /proc. Field numbers follow proc(5); the comm
// field (2) may contain spaces and parentheses, so every parse starts after
// the LAST ')'.

package supervisor

import (
	"bytes"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
)

// procRoot is /proc; a field so tests could point it elsewhere is not needed
// yet, so it stays a constant.
const procRoot = "/proc"

var bootID = sync.OnceValues(func() (string, error) {
	b, err := os.ReadFile("/proc/sys/kernel/random/boot_id")
	if err != nil {
		return "", fmt.Errorf("read boot id: %w", err)
	}
	return strings.TrimSpace(string(b)), nil
})

// ReadIdentity returns the identity of the live process pid. A zombie or
// missing process gives an error wrapping ErrProcessGone.
func ReadIdentity(pid int) (Identity, error) {
	p, err := readProc(pid)
	if err != nil {
		return Identity{}, err
	}
	if !p.alive() {
		return Identity{}, fmt.Errorf("read identity of pid %d: %w (zombie)", pid, ErrProcessGone)
	}
	return p.ID, nil
}

// readProc reads /proc/PID/stat; zombies are returned, not hidden.
func readProc(pid int) (procInfo, error) {
	var buf [statBuf]byte
	b, err := readStat(buf[:0], pid)
	if os.IsNotExist(err) {
		return procInfo{}, fmt.Errorf("read identity of pid %d: %w", pid, ErrProcessGone)
	}
	if err != nil {
		return procInfo{}, fmt.Errorf("read identity of pid %d: %w", pid, err)
	}
	boot, err := bootID()
	if err != nil {
		return procInfo{}, err
	}
	p, err := parseStat(b, boot)
	if err != nil {
		return procInfo{}, fmt.Errorf("parse /proc/%d/stat: %w", pid, err)
	}
	return p, nil
}

// statBuf holds a whole stat line in all but extreme cases (a line is
// about 300 bytes); a longer one is read on into a larger buffer.
const statBuf = 1024

// readStat appends /proc/PID/stat to b with plain open, read and close:
// os.ReadFile would add a stat, a poller registration attempt and an
// *os.File with its cleanup per process, and the kill ladder reads every
// process on the machine several times per exit (issue 12).
func readStat(b []byte, pid int) ([]byte, error) {
	fd, err := syscall.Open(procRoot+"/"+strconv.Itoa(pid)+"/stat", syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
	if err != nil {
		return nil, err
	}
	defer syscall.Close(fd) // best effort: read only
	for {
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)]
		}
		n, err := syscall.Read(fd, b[len(b):cap(b)])
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return nil, err
		}
		if n == 0 {
			return b, nil
		}
		b = b[:len(b)+n]
	}
}

// parseStat parses one /proc/PID/stat line. After the last ')' the fields
// are numbered from 3 (state); field N is rest[N-3].
func parseStat(b []byte, boot string) (procInfo, error) {
	open := bytes.IndexByte(b, '(')
	end := bytes.LastIndexByte(b, ')')
	if open < 1 || end < open {
		return procInfo{}, fmt.Errorf("no comm field in %q", b)
	}
	pid, err := strconv.Atoi(string(bytes.TrimSpace(b[:open])))
	if err != nil {
		return procInfo{}, fmt.Errorf("pid field: %w", err)
	}
	rest := strings.Fields(string(b[end+1:]))
	if len(rest) < 20 || len(rest[0]) != 1 {
		return procInfo{}, fmt.Errorf("short stat line (%d fields after comm)", len(rest))
	}
	nums, err := atoiFields(rest, 4, 5, 6) // ppid, pgrp, session
	if err != nil {
		return procInfo{}, err
	}
	start, err := strconv.ParseUint(rest[22-3], 10, 64)
	if err != nil {
		return procInfo{}, fmt.Errorf("starttime field: %w", err)
	}
	return procInfo{
		ID:    Identity{PID: pid, Start: start, BootID: boot},
		State: rest[0][0], PPID: nums[0], PGID: nums[1], Session: nums[2],
	}, nil
}

// atoiFields parses the stat fields numbered fields (3-based, see parseStat).
func atoiFields(rest []string, fields ...int) ([]int, error) {
	out := make([]int, len(fields))
	for i, f := range fields {
		n, err := strconv.Atoi(rest[f-3])
		if err != nil {
			return nil, fmt.Errorf("stat field %d: %w", f, err)
		}
		out[i] = n
	}
	return out, nil
}

// listProcs snapshots every process in /proc, from a scan that began
// after the call (shared with the callers that asked meanwhile: scans).
// Processes that vanish during the scan are skipped.
func listProcs() (procTable, error) {
	scans.mu.Lock()
	s := scans.next
	if s == nil {
		s = &procScan{done: make(chan struct{})}
		scans.next = s
	}
	scans.mu.Unlock()
	select {
	case <-s.done: // another caller ran it
		return s.table, s.err
	case scans.turn <- struct{}{}:
	}
	defer func() { <-scans.turn }()
	scans.mu.Lock()
	if scans.next == s {
		scans.next = nil // s runs now: later callers need a later scan
	}
	scans.mu.Unlock()
	select {
	case <-s.done: // run by the turn's previous holder
	default:
		s.table, s.err = scanProcs()
		close(s.done)
	}
	return s.table, s.err
}

// scans lets callers that ask while a scan of /proc runs share the next
// one: every kill ladder polls the whole process table, and 100 panes
// stopping at once scanned it 2,000 times over (host stop took 5 s with
// 100 shells, tmux 0.45 s). A caller's table always comes from a scan
// that began after it asked, so it is as fresh as its own would be.
var scans = struct {
	mu   sync.Mutex
	next *procScan     // the scan callers join; not begun yet
	turn chan struct{} // held by the caller running a scan
}{turn: make(chan struct{}, 1)}

// procScan is one scan of /proc and its result, ready once done closes.
type procScan struct {
	done  chan struct{}
	table procTable
	err   error
}

// procScans counts scans of the whole process table, for tests.
var procScans atomic.Int64

// scanProcs reads the process table.
func scanProcs() (procTable, error) {
	procScans.Add(1)
	d, err := os.Open(procRoot)
	if err != nil {
		return nil, fmt.Errorf("scan %s: %w", procRoot, err)
	}
	defer func() { _ = d.Close() }() // best effort: a read-only directory
	names, err := d.Readdirnames(-1)
	if err != nil {
		return nil, fmt.Errorf("scan %s: %w", procRoot, err)
	}
	t := make(procTable, len(names))
	for _, name := range names {
		pid, err := strconv.Atoi(name)
		if err != nil {
			continue
		}
		if p, err := readProc(pid); err == nil {
			t[pid] = p
		}
	}
	return t, nil
}

// procEnvHas reports whether the environment pid was started with holds
// the exact entry kv ("NAME=value").
func procEnvHas(pid int, kv string) bool {
	env, err := os.ReadFile(procRoot + "/" + strconv.Itoa(pid) + "/environ")
	if err != nil {
		return false
	}
	entry := []byte(kv + "\x00")
	return bytes.HasPrefix(env, entry) || bytes.Contains(env, append([]byte{0}, entry...))
}

// CommandLine is pid's command line from /proc, its arguments joined by
// spaces and control characters shown as '?', for views of processes that
// are not ours ("" when it cannot be read).
func CommandLine(pid int) string {
	b, err := os.ReadFile(procRoot + "/" + strconv.Itoa(pid) + "/cmdline")
	if err != nil {
		return ""
	}
	s := strings.TrimRight(string(b), "\x00")
	return strings.Map(func(r rune) rune {
		switch {
		case r == 0:
			return ' '
		case r < ' ' || r == 0x7f:
			return '?'
		}
		return r
	}, s)
}
