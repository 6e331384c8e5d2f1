package adapter

import (
	"strings"

	"clowder/vtgrid"
)

// gridTerm wraps clowder's own emulator.
type gridTerm struct{ t *vtgrid.Terminal }

func newVTGrid(cols, rows, scrollback int) Terminal {
	return &gridTerm{t: vtgrid.New(cols, rows, vtgrid.Options{ScrollbackLines: scrollback})}
}

func (g *gridTerm) Write(p []byte) (int, error) { return g.t.Write(p) }

func (g *gridTerm) Text() string {
	return trimScreen(strings.Split(g.t.Snapshot().Text(), "\n"))
}

func (g *gridTerm) Close() error { return nil }
