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

// allowed is DESIGN.md §2 as a statement of policy: for each top-level
// package, the packages of ours it may import. A package missing from this
// table may not exist without an ADR.
var allowed = map[string][]string{
	"vtgrid":      {},
	"layout":      {},
	"persist":     {},
	"assets":      {},
	"panes":       {"vtgrid", "persist"},
	"supervisor":  {"vtgrid", "persist", "panes"},
	"tui":         {"vtgrid", "layout", "persist", "panes", "supervisor", "assets"},
	"cmd/clowder": {"vtgrid", "layout", "persist", "panes", "supervisor", "tui", "assets"},
}

// restricted third-party imports: prefix → the only packages whose non-test
// files may import it.
var restricted = map[string][]string{
	"charm.land/":               {"tui"},
	"github.com/charmbracelet/": {"tui"},
	"github.com/creack/pty":     {"supervisor"},
	"golang.org/x/sys/unix":     {"supervisor"},
	"github.com/hinshun/vt10x":  {},
	"github.com/spf13/cobra":    {"cmd/clowder"},
}

const module = "clowder"

func TestImportsFollowDesignTable(t *testing.T) {
	for pkg, may := range allowed {
		for _, imp := range packageImports(t, pkg) {
			if ours, ok := strings.CutPrefix(imp, module+"/"); ok {
				if !contains(may, ours) {
					t.Errorf("%s imports %s; DESIGN.md §2 allows only %v", pkg, imp, may)
				}
				continue
			}
			for prefix, who := range restricted {
				if strings.HasPrefix(imp, prefix) && !contains(who, pkg) {
					t.Errorf("%s imports %s; only %v may", pkg, imp, who)
				}
			}
		}
	}
}

func TestNoUnlistedTopLevelPackages(t *testing.T) {
	entries, err := os.ReadDir(".")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		name := e.Name()
		if !e.IsDir() || strings.HasPrefix(name, ".") {
			continue
		}
		switch name {
		case "cmd", "bench", "docs", "testdata":
			continue
		}
		if _, ok := allowed[name]; !ok {
			t.Errorf("top-level folder %q is not in DESIGN.md §2; a new one needs an ADR and a row in deps_test.go", name)
		}
	}
}

// packageImports lists the imports of the non-test Go files in dir and its
// subfolders (a subfolder belongs to its top-level package).
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

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}
