package main

import (
	"debug/elf"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"
)

// TestE2EMakeBuildIsStatic pins issue 12 (CLI and host footprint): `make
// build` linked libc through cgo (the net resolver and os/user), so every
// `clowder ls` ran the dynamic loader and the host kept libc's pages
// resident. The Makefile's netgo,osusergo tags leave no cgo package, so
// the binary has no interpreter and no dynamic section.
func TestE2EMakeBuildIsStatic(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("ELF binaries only")
	}
	if _, err := exec.LookPath("make"); err != nil {
		t.Skip("make is not installed")
	}
	bin := filepath.Join(t.TempDir(), "clowder")
	if out, err := exec.Command("make", "-C", "../..", "build", "BIN="+bin).CombinedOutput(); err != nil {
		t.Fatalf("make build: %v\n%s", err, out)
	}
	f, err := elf.Open(bin)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for _, p := range f.Progs {
		if p.Type == elf.PT_INTERP || p.Type == elf.PT_DYNAMIC {
			t.Fatalf("make build's binary has a %v program header: it is dynamically linked (cgo crept back in)", p.Type)
		}
	}
}
