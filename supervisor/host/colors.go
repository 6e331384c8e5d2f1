// The colours of the user's terminal, as the newest client told them
// (set-colors): host-wide, so every pane, and every pane spawned later,
// answers the colour queries of its program (OSC 10, 11, 12, 4) with them
// instead of the headless default (grey on black). Lock order: colors.mu,
// then h.mu, then each pane's mu.

package host

import (
	"fmt"
	"strconv"
	"sync"

	"clowder/supervisor/proto"
	"clowder/vtgrid"
)

// hostColors holds the newest colours a client told the host.
type hostColors struct {
	mu  sync.Mutex    // serialises set-colors requests, so the last one wins everywhere
	cur vtgrid.Colors // guarded by Server.mu: newPane reads it under that lock
}

// setColors validates req, then makes its colours the host's and every
// pane's.
func (c *conn) setColors(id uint32, req *proto.SetColorsReq) {
	colors, err := vtColors(req)
	if err != nil {
		c.fail(id, &proto.ErrorReply{Code: proto.CodeBadRequest, Message: err.Error()})
		return
	}
	c.h.setColors(colors)
	c.reply(id, &proto.OKReply{})
}

// setColors stores colors for panes spawned from now on and gives them to
// every existing pane at once.
func (h *Server) setColors(colors vtgrid.Colors) {
	h.colors.mu.Lock()
	defer h.colors.mu.Unlock()
	h.mu.Lock()
	h.colors.cur = colors
	list := append([]*pane(nil), h.panes...)
	h.mu.Unlock()
	for _, p := range list {
		p.mu.Lock()
		p.term.SetColors(colors)
		p.mu.Unlock()
	}
}

// currentColorsLocked is what a new pane answers colour queries with; the
// caller holds h.mu.
func (h *Server) currentColorsLocked() vtgrid.Colors { return h.colors.cur }

// vtColors checks every colour of the request and converts them.
func vtColors(r *proto.SetColorsReq) (vtgrid.Colors, error) {
	var out vtgrid.Colors
	if len(r.Palette) > len(out.Palette) {
		return out, fmt.Errorf("set-colors: %d palette entries; send at most %d", len(r.Palette), len(out.Palette))
	}
	var err error
	for _, f := range []struct {
		name string
		in   string
		out  *vtgrid.Color
	}{{"foreground", r.Foreground, &out.Foreground}, {"background", r.Background, &out.Background}, {"cursor", r.Cursor, &out.Cursor}} {
		if *f.out, err = parseHexColor(f.name, f.in); err != nil {
			return out, err
		}
	}
	for i, s := range r.Palette {
		if out.Palette[i], err = parseHexColor("palette entry "+strconv.Itoa(i), s); err != nil {
			return out, err
		}
	}
	return out, nil
}

// parseHexColor reads "#rrggbb"; "" is unknown (the zero Color).
func parseHexColor(name, s string) (vtgrid.Color, error) {
	if s == "" {
		return 0, nil
	}
	if len(s) != 7 || s[0] != '#' {
		return 0, fmt.Errorf("set-colors: %s %q is not a colour; send #rrggbb", name, s)
	}
	v, err := strconv.ParseUint(s[1:], 16, 32)
	if err != nil {
		return 0, fmt.Errorf("set-colors: %s %q is not a colour; send #rrggbb", name, s)
	}
	return vtgrid.RGBColor(uint8(v>>16), uint8(v>>8), uint8(v)), nil
}
