package adapter

import (
	"strings"
	"unicode/utf8"

	"github.com/hinshun/vt10x"
)

// vt10xTerm wraps vt10x. Its Write decodes runes from each call on its own
// and mangles a UTF-8 character split across two calls, so the adapter holds
// back an incomplete trailing character and completes it from the next call,
// as any embedder feeding it PTY reads has to.
type vt10xTerm struct {
	t       vt10x.Terminal
	pending [utf8.UTFMax]byte
	npend   int
}

func newVT10x(cols, rows, _ int) Terminal {
	return &vt10xTerm{t: vt10x.New(vt10x.WithSize(cols, rows))}
}

func (v *vt10xTerm) Write(p []byte) (int, error) {
	n := len(p)
	if v.npend > 0 {
		p = v.completePending(p)
		if v.npend > 0 {
			return n, nil // p went into a character still incomplete
		}
	}
	cut := incompleteTail(p)
	if _, err := v.t.Write(p[:cut]); err != nil {
		return 0, err
	}
	v.npend = copy(v.pending[:], p[cut:])
	return n, nil
}

// completePending moves bytes from p onto the held-back character until it
// is complete (or cannot become one), writes it, and returns the rest of p.
func (v *vt10xTerm) completePending(p []byte) []byte {
	for v.npend < utf8.UTFMax && len(p) > 0 && !utf8.FullRune(v.pending[:v.npend]) {
		v.pending[v.npend] = p[0]
		v.npend++
		p = p[1:]
	}
	if !utf8.FullRune(v.pending[:v.npend]) && len(p) == 0 {
		return p // still incomplete: keep holding it
	}
	_, _ = v.t.Write(v.pending[:v.npend]) // vt10x.Write fails only on a read error from bytes.Reader, which cannot happen
	v.npend = 0
	return p
}

// incompleteTail returns the length of p without a trailing UTF-8 character
// that is cut short.
func incompleteTail(p []byte) int {
	for i := len(p) - 1; i >= 0 && i >= len(p)-utf8.UTFMax; i-- {
		if utf8.RuneStart(p[i]) {
			if utf8.FullRune(p[i:]) {
				return len(p)
			}
			return i
		}
	}
	return len(p)
}

func (v *vt10xTerm) Text() string {
	return trimScreen(strings.Split(v.t.String(), "\n"))
}

func (v *vt10xTerm) Close() error { return nil }
