package layout

import (
	"errors"
	"slices"
	"testing"
)

// area and minimum used by tests that do not care about them.
var (
	screen = Rect{0, 0, 80, 24}
	small  = Size{W: 2, H: 1}
)

func TestSplit(t *testing.T) {
	tests := []struct {
		name      string
		start     *Tree
		target    string
		id        string
		axis      Axis
		side      Side
		want      *node
		wantFocus string
		wantErr   error
	}{
		{"right after", New("a"), "a", "b", Horizontal, After, h(0.5, leaf("a"), leaf("b")), "b", nil},
		{"down after", New("a"), "a", "b", Vertical, After, v(0.5, leaf("a"), leaf("b")), "b", nil},
		{"right before puts new pane left", New("a"), "a", "b", Horizontal, Before, h(0.5, leaf("b"), leaf("a")), "b", nil},
		{"down before puts new pane above", New("a"), "a", "b", Vertical, Before, v(0.5, leaf("b"), leaf("a")), "b", nil},
		{"nested split replaces only the target leaf",
			tree(h(0.3, leaf("a"), leaf("b"))), "b", "c", Vertical, After,
			h(0.3, leaf("a"), v(0.5, leaf("b"), leaf("c"))), "c", nil},
		{"empty tree takes the first pane", &Tree{}, "", "a", Horizontal, After, leaf("a"), "a", nil},
		{"unknown target", New("a"), "x", "b", Horizontal, After, leaf("a"), "a", ErrUnknownPane},
		{"empty tree needs empty target", &Tree{}, "x", "a", Horizontal, After, nil, "", ErrUnknownPane},
		{"duplicate id", New("a"), "a", "a", Horizontal, After, leaf("a"), "a", ErrDuplicatePane},
		{"empty id", New("a"), "a", "", Horizontal, After, leaf("a"), "a", ErrEmptyID},
		{"invalid axis", New("a"), "a", "b", Axis(7), After, leaf("a"), "a", nil},
		{"invalid side", New("a"), "a", "b", Horizontal, Side(7), leaf("a"), "a", nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tr := tc.start
			err := tr.Split(tc.target, tc.id, tc.axis, tc.side)
			wantFail := tc.wantErr != nil || !tc.axis.valid() || !tc.side.valid()
			if (err != nil) != wantFail || (tc.wantErr != nil && !errors.Is(err, tc.wantErr)) {
				t.Fatalf("err = %v, want %v", err, tc.wantErr)
			}
			if !equalNode(tr.root, tc.want) || tr.Focus() != tc.wantFocus {
				t.Errorf("got %v, want root %v focus %q", tr, (&Tree{root: tc.want}), tc.wantFocus)
			}
			checkTree(t, tr)
			checkGeometry(t, tr, screen, small)
		})
	}
}

func TestSplitCancelsZoom(t *testing.T) {
	tr := tree(h(0.5, leaf("a"), leaf("b")))
	mustOK(t, tr.Zoom("a"))
	mustOK(t, tr.Split("a", "c", Vertical, After))
	if tr.Zoomed() != "" {
		t.Errorf("zoom %q survived a split", tr.Zoomed())
	}
}

func TestClose(t *testing.T) {
	tests := []struct {
		name      string
		start     *Tree
		focus     string
		zoom      string
		close     string
		want      *node
		wantFocus string
	}{
		{"last pane leaves an empty tree", New("a"), "a", "", "a", nil, ""},
		{"first child: sibling takes the place", tree(h(0.3, leaf("a"), leaf("b"))), "b", "", "a", leaf("b"), "b"},
		{"second child: sibling subtree takes the place",
			tree(h(0.3, v(0.2, leaf("a"), leaf("b")), leaf("c"))), "a", "", "c",
			v(0.2, leaf("a"), leaf("b")), "a"},
		{"focused first child passes focus to the nearest pane after it",
			tree(h(0.3, leaf("a"), v(0.2, leaf("b"), leaf("c")))), "a", "", "a",
			v(0.2, leaf("b"), leaf("c")), "b"},
		{"focused second child passes focus to the nearest pane before it",
			tree(h(0.3, v(0.2, leaf("a"), leaf("b")), leaf("c"))), "c", "", "c",
			v(0.2, leaf("a"), leaf("b")), "b"},
		{"deep close keeps the other ratios",
			tree(v(0.7, h(0.4, leaf("a"), v(0.9, leaf("b"), leaf("c"))), leaf("d"))), "d", "", "b",
			v(0.7, h(0.4, leaf("a"), leaf("c")), leaf("d")), "d"},
		{"closing the zoomed pane unzooms", tree(h(0.5, leaf("a"), leaf("b"))), "b", "b", "b", leaf("a"), "a"},
		{"closing a hidden pane keeps the zoom", tree(h(0.5, leaf("a"), leaf("b"))), "b", "b", "a", leaf("b"), "b"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tr := tc.start
			tr.focus, tr.zoom = tc.focus, tc.zoom
			mustOK(t, tr.Close(tc.close))
			if !equalNode(tr.root, tc.want) || tr.Focus() != tc.wantFocus {
				t.Errorf("got %v, want root %v focus %q", tr, &Tree{root: tc.want}, tc.wantFocus)
			}
			if tr.Zoomed() != "" && tr.Zoomed() == tc.close {
				t.Errorf("zoom on the closed pane %q", tc.close)
			}
			checkTree(t, tr)
			checkGeometry(t, tr, screen, small)
		})
	}
}

func TestCloseUnknownPaneIsAnErrorAndChangesNothing(t *testing.T) {
	tr := tree(h(0.5, leaf("a"), leaf("b")))
	before := tr.Clone()
	if err := tr.Close("x"); !errors.Is(err, ErrUnknownPane) {
		t.Fatalf("err = %v, want ErrUnknownPane", err)
	}
	if !tr.Equal(before) {
		t.Errorf("tree changed to %v", tr)
	}
}

func TestSwap(t *testing.T) {
	tests := []struct {
		name    string
		a, b    string
		want    []string
		wantErr bool
	}{
		{"across splits", "a", "d", []string{"d", "b", "c", "a"}, false},
		{"siblings", "b", "c", []string{"a", "c", "b", "d"}, false},
		{"with itself", "b", "b", []string{"a", "b", "c", "d"}, false},
		{"unknown first", "x", "b", []string{"a", "b", "c", "d"}, true},
		{"unknown second", "a", "x", []string{"a", "b", "c", "d"}, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tr := tree(h(0.3, leaf("a"), v(0.6, h(0.5, leaf("b"), leaf("c")), leaf("d"))))
			mustOK(t, tr.Zoom("a"))
			err := tr.Swap(tc.a, tc.b)
			if (err != nil) != tc.wantErr {
				t.Fatalf("err = %v, want error %v", err, tc.wantErr)
			}
			if got := tr.Leaves(); !slices.Equal(got, tc.want) {
				t.Errorf("leaves %v, want %v", got, tc.want)
			}
			if tr.Focus() != "a" || tr.Zoomed() != "a" {
				t.Errorf("focus %q zoom %q should stay with pane a", tr.Focus(), tr.Zoomed())
			}
			checkTree(t, tr)
		})
	}
}

func TestZoomAndFocus(t *testing.T) {
	tr := tree(h(0.5, leaf("a"), v(0.5, leaf("b"), leaf("c"))))
	mustOK(t, tr.Zoom("b"))
	if tr.Focus() != "b" || tr.Zoomed() != "b" {
		t.Fatalf("after Zoom(b): %v", tr)
	}
	g := checkGeometry(t, tr, screen, small)
	if len(g.Panes) != 1 || g.Panes[0].Rect != screen {
		t.Errorf("zoomed geometry %+v", g)
	}
	mustOK(t, tr.SetFocus("b"))
	if tr.Zoomed() != "b" {
		t.Errorf("refocusing the zoomed pane unzoomed it")
	}
	mustOK(t, tr.SetFocus("c"))
	if tr.Zoomed() != "" || tr.Focus() != "c" {
		t.Errorf("focusing another pane should unzoom: %v", tr)
	}
	for _, err := range []error{tr.Zoom("x"), tr.SetFocus("x")} {
		if !errors.Is(err, ErrUnknownPane) {
			t.Errorf("err = %v, want ErrUnknownPane", err)
		}
	}
}

func TestQueries(t *testing.T) {
	tr := tree(h(0.5, leaf("a"), v(0.5, leaf("b"), leaf("c"))))
	if p, ok := tr.Find("c"); !ok || p != "11" {
		t.Errorf("Find(c) = %q, %v; want 11, true", p, ok)
	}
	if _, ok := tr.Find("x"); ok || tr.Has("x") || !tr.Has("a") {
		t.Errorf("Find/Has wrong for x or a")
	}
	if tr.Len() != 3 || (&Tree{}).Len() != 0 {
		t.Errorf("Len wrong")
	}
	want := `(h 0.5 "a" (v 0.5 "b" "c")) focus=a zoom=`
	if got := tr.String(); got != want {
		t.Errorf("String() = %s, want %s", got, want)
	}
	c := tr.Clone()
	mustOK(t, c.Close("a"))
	if tr.Len() != 3 {
		t.Errorf("Clone shares nodes with the original")
	}
}

func mustOK(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
