// Package clowder_test holds repository-wide policy tests.
package clowder_test

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// allowed is ARCHITECTURE.md's package table as a statement of policy: for
// each package, the packages of ours it may import. A top-level package
// missing from this table may not exist without an ADR; a folder below a
// listed package belongs to it unless it has a row of its own.
var allowed = map[string][]string{
	"vtgrid":  {},
	"layout":  {},
	"persist": {},
	"assets":  {},
	"panes":   {"vtgrid", "persist"},
	// process control only: no sockets, frames or screens
	"supervisor":        {"persist"},
	"supervisor/proto":  {"persist", "panes"},
	"supervisor/host":   {"vtgrid", "persist", "panes", "supervisor", "supervisor/proto"},
	"supervisor/client": {"persist", "supervisor/proto"},
	// test support, imported only by _test.go files
	"supervisor/internal/testproc": {},
	"tui":                          {"vtgrid", "layout", "persist", "panes", "supervisor/client", "supervisor/proto", "assets"},
	"cmd/clowder":                  {"vtgrid", "layout", "persist", "panes", "supervisor", "supervisor/proto", "supervisor/client", "supervisor/host", "tui", "assets"},
}

// hostRunners are the only files of cmd/clowder that may import the host
// package: the command runs a host, it does not reach into one.
var hostRunners = []string{"cmd/clowder/host_run.go"}

// restricted third-party imports: prefix → the only packages whose non-test
// files may import it.
var restricted = map[string][]string{
	"charm.land/":               {"tui"},
	"github.com/charmbracelet/": {"tui"},
	"github.com/creack/pty":     {"supervisor"},
	"golang.org/x/sys/unix":     {"supervisor"},
	"github.com/hinshun/vt10x":  {},
	"github.com/spf13/cobra":    {"cmd/clowder"},
	// config is parsed in one place: config.toml, the keymap and the themes
	"github.com/BurntSushi/toml": {"persist"},
}

const module = "clowder"

func TestImportsFollowDesignTable(t *testing.T) {
	for pkg, may := range allowed {
		for _, imp := range packageImports(t, pkg) {
			if ours, ok := strings.CutPrefix(imp, module+"/"); ok {
				if !contains(may, ours) {
					t.Errorf("%s imports %s; ARCHITECTURE.md's package table allows only %v", pkg, imp, may)
				}
				continue
			}
			for prefix, who := range restricted {
				if strings.HasPrefix(imp, prefix) && !contains(who, topLevel(pkg)) {
					t.Errorf("%s imports %s; only %v may", pkg, imp, who)
				}
			}
		}
	}
}

// TestCmdImportsHostOnlyToRunIt: cmd/clowder talks to a host through the
// client; only the file that runs `clowder host` imports the server.
func TestCmdImportsHostOnlyToRunIt(t *testing.T) {
	for _, file := range filesImporting(t, "cmd/clowder", module+"/supervisor/host") {
		if !contains(hostRunners, file) {
			t.Errorf("%s imports the host; only %v run it, everything else goes through supervisor/client", file, hostRunners)
		}
	}
}

// TestPackageImportsChecksSubPackagesOnTheirOwn pins that a folder with its
// own row is not counted as part of its parent (supervisor/host may import
// supervisor; supervisor may not import supervisor/host), while a folder
// without one is.
func TestPackageImportsChecksSubPackagesOnTheirOwn(t *testing.T) {
	root := t.TempDir()
	for path, body := range map[string]string{
		"supervisor/a.go":       "package supervisor\nimport _ \"os\"",
		"supervisor/host/b.go":  "package host\nimport _ \"clowder/supervisor\"",
		"supervisor/inner/c.go": "package inner\nimport _ \"strings\"",
	} {
		full := filepath.Join(root, path)
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Chdir(root)
	got := strings.Join(packageImports(t, "supervisor"), " ")
	if got != "os strings" {
		t.Fatalf("supervisor's imports = %q, want %q", got, "os strings")
	}
}

func TestNoUnlistedTopLevelPackages(t *testing.T) {
	for _, name := range unlistedPackages(t, ".") {
		t.Errorf("top-level folder %q holds Go code but is not in ARCHITECTURE.md's package table; a new one needs an ADR and a row in deps_test.go", name)
	}
}

// TestUnlistedPackagesIgnoresBuildOutput pins the README's order, `make run`
// then `make test`: the bin/ folder the build leaves holds no Go code and is
// not a package, so it must not fail the policy, while a new folder of Go
// code still does.
func TestUnlistedPackagesIgnoresBuildOutput(t *testing.T) {
	root := t.TempDir()
	for path, body := range map[string]string{
		"bin/clowder":         "\x7fELF",
		"vtgrid/x.go":         "package vtgrid",
		"newpkg/deep/y.go":    "package deep",
		"docs/adr/0001.md":    "# adr",
		"notes/readme.txt":    "text",
		".hidden/z.go":        "package hidden",
		"cmd/clowder/main.go": "package main",
	} {
		full := filepath.Join(root, path)
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got := unlistedPackages(t, root)
	if len(got) != 1 || got[0] != "newpkg" {
		t.Fatalf("unlisted packages = %q, want only newpkg", got)
	}
}

// unlistedPackages lists the top-level folders under root that hold Go files
// (a package of ours) and are not in the table. Folders without Go code, such
// as bin/ after a build, are not packages and are not its business.
func unlistedPackages(t *testing.T, root string) []string {
	t.Helper()
	entries, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		name := e.Name()
		if !e.IsDir() || strings.HasPrefix(name, ".") {
			continue
		}
		switch name {
		case "cmd", "bench", "docs", "testdata":
			continue
		}
		if _, ok := allowed[name]; !ok && holdsGo(t, filepath.Join(root, name)) {
			out = append(out, name)
		}
	}
	return out
}

// holdsGo reports whether dir or a folder below it has a .go file.
func holdsGo(t *testing.T, dir string) bool {
	t.Helper()
	found := false
	err := filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && strings.HasSuffix(path, ".go") {
			found = true
			return filepath.SkipAll
		}
		return nil
	})
	if err != nil {
		t.Fatalf("walk %s: %v", dir, err)
	}
	return found
}

// topLevel is the top-level folder of a package in the table ("cmd/clowder"
// is its own).
func topLevel(pkg string) string {
	if strings.HasPrefix(pkg, "cmd/") {
		return pkg
	}
	top, _, _ := strings.Cut(pkg, "/")
	return top
}

// packageImports lists the imports of the non-test Go files in dir and its
// subfolders; a subfolder with its own row in the table is checked on its
// own, any other belongs to dir.
func packageImports(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	fset := token.NewFileSet()
	err := filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) {
			return filepath.SkipDir
		}
		if _, own := allowed[filepath.ToSlash(path)]; d.IsDir() && path != dir && own {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		for _, spec := range f.Imports {
			p, _ := strconv.Unquote(spec.Path.Value)
			out = append(out, p)
		}
		return nil
	})
	if err != nil {
		t.Fatalf("walk %s: %v", dir, err)
	}
	return out
}

// filesImporting lists the non-test Go files directly in dir that import
// path.
func filesImporting(t *testing.T, dir, path string) []string {
	t.Helper()
	names, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	fset := token.NewFileSet()
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, spec := range f.Imports {
			if p, _ := strconv.Unquote(spec.Path.Value); p == path {
				out = append(out, filepath.ToSlash(name))
			}
		}
	}
	return out
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}
