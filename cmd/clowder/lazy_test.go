package main

import (
	"slices"
	"testing"

	"github.com/spf13/cobra"
)

// names are the names of c's subcommands.
func names(c *cobra.Command) []string {
	var out []string
	for _, sub := range c.Commands() {
		out = append(out, sub.Name())
	}
	return out
}

// TestCLISubcommandsAreNamedAsTheyAreBuilt: the table newRootFor looks a
// command line's first word up in names each command as cobra does.
func TestCLISubcommandsAreNamedAsTheyAreBuilt(t *testing.T) {
	a, _, _ := unitApp(t)
	for _, c := range subcommands {
		if got := c.make(a).Name(); got != c.name {
			t.Errorf("subcommands names %q, but it builds %q", c.name, got)
		}
	}
}

// TestCLICommandLineBuildsOnlyItsSubcommand pins issue 12 (CLI): every
// command line built all 21 commands with their flags, and cobra's
// completion command, to run one. A line whose first word is a
// subcommand builds that one alone; the others still get the whole tree.
func TestCLICommandLineBuildsOnlyItsSubcommand(t *testing.T) {
	a, _, _ := unitApp(t)
	full := names(newRoot(a))
	for _, tt := range []struct {
		args []string
		want []string // nil: the whole tree
	}{
		{[]string{"ls"}, []string{"ls"}},
		{[]string{"capture", "p1", "--scrollback", "10"}, []string{"capture"}},
		{[]string{"host", "stop"}, []string{"host"}},
		{[]string{"send-keys", "--help"}, []string{"send-keys"}},
		{nil, nil},
		{[]string{"--help"}, nil},
		{[]string{"--version"}, nil},
		{[]string{"help", "ls"}, nil},
		{[]string{"completion", "bash"}, nil},
		{[]string{cobra.ShellCompRequestCmd, "ls", ""}, nil},
		{[]string{"lss"}, nil},
	} {
		want := tt.want
		if want == nil {
			want = full
		}
		if got := names(newRootFor(a, tt.args)); !slices.Equal(got, want) {
			t.Errorf("%q builds %v, want %v", tt.args, got, want)
		}
	}
	if len(full) != len(subcommands) {
		t.Errorf("the whole tree has %d commands, the table %d", len(full), len(subcommands))
	}
}

// TestCLILazyTreeBehavesAsTheWholeTree: help, usage errors and output of
// each subcommand (and of theirs) are the same whether the whole tree was
// built or the subcommand alone.
func TestCLILazyTreeBehavesAsTheWholeTree(t *testing.T) {
	var lines [][]string
	var walk func(c *cobra.Command, path []string)
	walk = func(c *cobra.Command, path []string) {
		for _, sub := range c.Commands() {
			p := append(slices.Clone(path), sub.Name())
			lines = append(lines, append(slices.Clone(p), "--help"), append(slices.Clone(p), "--bogus"))
			walk(sub, p)
		}
	}
	probe, _, _ := unitApp(t)
	walk(newRoot(probe), nil)
	lines = append(lines, []string{"ls"}, []string{"ls", "--json"}, []string{"ls", "x"}, []string{"host", "stop"},
		[]string{"host", "bogus"}, []string{"capture", "p1"}, []string{"capture"})
	a, out, errb := unitApp(t)
	for _, args := range lines {
		out.Reset()
		errb.Reset()
		code := run(args, a)
		gotOut, gotErr := out.String(), errb.String()
		out.Reset()
		errb.Reset()
		if wantCode := execute(newRoot(a), args, a); code != wantCode || gotOut != out.String() || gotErr != errb.String() {
			t.Errorf("%q: exit %d, out %q, err %q;\nthe whole tree: exit %d, out %q, err %q",
				args, code, gotOut, gotErr, wantCode, out, errb)
		}
	}
}
