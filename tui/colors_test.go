package tui

import (
	"context"
	"image/color"
	"slices"
	"testing"

	tea "charm.land/bubbletea/v2"

	"clowder/supervisor/proto"
)

// SetColors records what the TUI told the host.
func (h *fakeHost) SetColors(_ context.Context, req proto.SetColorsReq) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.colors = append(h.colors, req)
	return nil
}

// sentColors is what the fake host was told, in order.
func (h *fakeHost) sentColors() []proto.SetColorsReq {
	h.mu.Lock()
	defer h.mu.Unlock()
	return slices.Clone(h.colors)
}

// Regression: the TUI never told the host the outer terminal's colours,
// so every program in a pane was told its background is black (Codex
// painted its composer dark on a light terminal).
func TestOuterBackgroundColorReachesTheHost(t *testing.T) {
	m, h := newTestModel(t, nil, nil)
	_, cmd := m.Update(tea.BackgroundColorMsg{Color: color.RGBA{0xfa, 0xfa, 0xf0, 0xff}})
	if cmd == nil {
		t.Fatal("a background colour from the outer terminal led to no host call")
	}
	_, next := m.Update(cmd())
	got := h.sentColors()
	if next != nil || len(got) != 1 || got[0].Background != "#fafaf0" {
		t.Fatalf("host told %+v (next cmd %v), want one set-colors with background #fafaf0", got, next != nil)
	}
}

// Answers arrive one by one; each call carries everything known so far,
// and one call is in flight at a time so an older set never lands last.
func TestOuterColorsGoToTheHostOneCallAtATime(t *testing.T) {
	m, h := newTestModel(t, nil, nil)
	_, first := m.Update(tea.ForegroundColorMsg{Color: color.RGBA{0x10, 0x20, 0x30, 0xff}})
	_, second := m.Update(tea.BackgroundColorMsg{Color: color.RGBA{0xff, 0xff, 0xff, 0xff}})
	_, third := m.Update(oscReply("\x1b]4;1;rgb:aaaa/1111/2222\x1b\\"))
	if first == nil || second != nil || third != nil {
		t.Fatalf("calls started: %v %v %v, want only the first while it is in flight", first != nil, second != nil, third != nil)
	}
	_, again := m.Update(first())
	if again == nil {
		t.Fatal("what changed during the first call was never sent")
	}
	_, done := m.Update(again())
	want := []proto.SetColorsReq{
		{Foreground: "#102030"},
		{Foreground: "#102030", Background: "#ffffff", Palette: []string{"", "#aa1122"}},
	}
	if got := h.sentColors(); done != nil || !slices.EqualFunc(got, want, sameColors) {
		t.Fatalf("host told %+v, want %+v", got, want)
	}
}

func TestOtherOSCAnswersAreIgnored(t *testing.T) {
	m, h := newTestModel(t, nil, nil)
	for _, s := range []string{"\x1b]4;99;rgb:0000/0000/0000\x07", "\x1b]4;1;bogus\x07", "\x1b]777;x\x07"} {
		if _, cmd := m.Update(oscReply(s)); cmd != nil {
			t.Errorf("%q started a host call", s)
		}
	}
	if got := h.sentColors(); len(got) != 0 {
		t.Errorf("host told %+v", got)
	}
}

func sameColors(a, b proto.SetColorsReq) bool {
	return a.Foreground == b.Foreground && a.Background == b.Background && a.Cursor == b.Cursor && slices.Equal(a.Palette, b.Palette)
}
