//go:build linux

package main

import (
	"os"
	"path/filepath"
	"testing"
)

// TestE2EEndingTheLastWorktreeRemovesItsProjectDir pins a trial bug:
// land, discard and rm --worktree left the project directory
// (<base>/<project>-<hash>) behind, empty, under the worktrees root. It is
// removed once its last worktree goes, and never while it holds anything.
func TestE2EEndingTheLastWorktreeRemovesItsProjectDir(t *testing.T) {
	for _, verb := range [][]string{{"land", "--kill"}, {"discard", "--kill"}, {"rm", "--worktree"}} {
		t.Run(verb[0], func(t *testing.T) {
			e := newE2E(t)
			repo := e.gitRepo()
			a, wa := e.worktreePane(repo, "one", "true")
			b, wb := e.worktreePane(repo, "two", "true")
			project := filepath.Dir(wa.Path)
			if filepath.Dir(wb.Path) != project {
				t.Fatalf("worktrees %s and %s are not in one project dir", wa.Path, wb.Path)
			}
			end := func(id string) {
				if verb[0] == "rm" {
					e.must("kill", id)
				}
				e.must(append([]string{verb[0], id}, verb[1:]...)...)
			}
			end(a)
			if !exists(project) {
				t.Fatalf("%s removed the project dir %s while worktree %s was in it", verb[0], project, wb.Path)
			}
			end(b)
			if exists(project) {
				ents, _ := os.ReadDir(project)
				t.Fatalf("%s of the last worktree left %s (%d entries)", verb[0], project, len(ents))
			}
			if !exists(filepath.Dir(project)) {
				t.Fatalf("%s removed the worktrees root %s too", verb[0], filepath.Dir(project))
			}
		})
	}
}
