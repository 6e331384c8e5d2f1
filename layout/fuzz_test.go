package layout

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// FuzzOps runs random sequences of split, close, resize, drag, zoom, swap,
// focus, neighbour and preset operations, decoded from the fuzz input, and
// checks after every step that the tree is well formed, that its geometry
// tiles the area with every pane at its minimum where the area allows, and
// that the JSON form round-trips exactly. Invalid operations (unknown
// panes, bad enums) are part of the mix: they must fail cleanly.
func FuzzOps(f *testing.F) {
	for _, seed := range fuzzSeeds() {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		runOps(t, data)
	})
}

func fuzzSeeds() [][]byte {
	return [][]byte{
		{},
		{0, 0, 80, 24, 2, 1},
		{0, 0, 80, 24, 2, 1, opSplit, 0, 0, 0, opSplit, 1, 1, 1, opResize, 0, 1, 5, opDrag, 0, 30},
		{1, 1, 40, 12, 1, 1, opSplit, 0, 0, 0, opSplit, 0, 1, 0, opSplit, 2, 0, 1, opZoom, 1, opSwap, 0, 2, opClose, 1},
		{0, 0, 5, 3, 3, 2, opSplit, 0, 0, 0, opSplit, 0, 0, 0, opSplit, 0, 1, 0, opResize, 1, 2, 200, opPreset, 4},
		{0, 0, 0, 0, 0, 0, opSplit, 0, 0, 0, opClose, 0, opClose, 0, opSplit, 0, 1, 1, opNeighbor, 0, 3},
		{2, 2, 120, 50, 1, 1, opSplit, 0, 0, 0, opSplit, 0, 1, 0, opSplit, 1, 0, 0, opSplit, 2, 1, 1,
			opPreset, 2, opResize, 3, 0, 250, opDrag, 1, 7, opFocus, 2, opNeighbor, 1, 1, opUnzoom, opPreset, 3},
		{0, 0, 9, 9, 2, 2, opSplit, 255, 0, 0, opClose, 255, opSwap, 255, 0, opZoom, 255, opResize, 255, 9, 1,
			opSplit, 0, 7, 7, opPreset, 99},
	}
}

// Operation codes, the first byte of each step.
const (
	opSplit byte = iota
	opClose
	opResize
	opDrag
	opZoom
	opUnzoom
	opSwap
	opPreset
	opFocus
	opNeighbor
	opCount
)

// opReader hands out the fuzz input a byte at a time, then zeros.
type opReader struct{ data []byte }

func (r *opReader) next() byte {
	if len(r.data) == 0 {
		return 0
	}
	b := r.data[0]
	r.data = r.data[1:]
	return b
}

// pick chooses a pane id; 255 chooses one that is not in the tree.
func (r *opReader) pick(tr *Tree) string {
	b, leaves := r.next(), tr.Leaves()
	if b == 255 || len(leaves) == 0 {
		return "nope"
	}
	return leaves[int(b)%len(leaves)]
}

// fuzzRun is one decoded sequence: the tree, the area and minimum it is
// shown on, and a counter for new pane ids.
type fuzzRun struct {
	tr      *Tree
	area    Rect
	minimum Size
	made    int
}

func runOps(t *testing.T, data []byte) {
	r := &opReader{data: data}
	run := &fuzzRun{tr: New("p0"), made: 1}
	run.area = Rect{int(r.next() % 5), int(r.next() % 5), int(r.next() % 130), int(r.next() % 60)}
	run.minimum = Size{int(r.next() % 6), int(r.next() % 4)}
	for step := 0; len(r.data) > 0 && step < 300; step++ {
		before := run.tr.String()
		run.step(r)
		checkTree(t, run.tr)
		checkGeometry(t, run.tr, run.area, run.minimum)
		checkGeometry(t, run.tr, Rect{0, 0, 7, 4}, run.minimum)
		checkJSON(t, run.tr, before)
	}
}

func (run *fuzzRun) step(r *opReader) {
	tr, area, m := run.tr, run.area, run.minimum
	switch r.next() % opCount {
	case opSplit:
		target := r.pick(tr)
		if tr.Len() == 0 {
			target = ""
		}
		_ = tr.Split(target, fmt.Sprintf("p%d", run.made), Axis(r.next()%3), Side(r.next()%3)) // errors are part of the mix
		run.made++
	case opClose:
		_ = tr.Close(r.pick(tr)) // errors are part of the mix
	case opResize:
		_ = tr.Resize(r.pick(tr), Direction(r.next()%5), int(int8(r.next())), area, m) // errors are part of the mix
	case opDrag:
		run.drag(r)
	case opZoom:
		_ = tr.Zoom(r.pick(tr)) // errors are part of the mix
	case opUnzoom:
		tr.Unzoom()
	case opSwap:
		_ = tr.Swap(r.pick(tr), r.pick(tr)) // errors are part of the mix
	case opPreset:
		_ = tr.Apply(Preset(r.next() % 6)) // errors are part of the mix
	case opFocus:
		_ = tr.SetFocus(r.pick(tr)) // errors are part of the mix
	case opNeighbor:
		if id, ok, _ := tr.Neighbor(r.pick(tr), Direction(r.next()%5), area, m); ok {
			_ = tr.SetFocus(id) // id came from the tree, so this cannot fail
		}
	}
}

// drag picks a border of the split geometry and drags it to a position
// around the area, past its edges included.
func (run *fuzzRun) drag(r *opReader) {
	borders := run.tr.SplitRects(run.area, run.minimum).Borders
	which, pos := r.next(), int(r.next())-20
	if len(borders) == 0 {
		_ = run.tr.Drag("0", pos, run.area, run.minimum) // must fail cleanly
		return
	}
	_ = run.tr.Drag(borders[int(which)%len(borders)].Split, pos, run.area, run.minimum) // a border's split always exists
}

// checkJSON fails the test unless tr survives Marshal and Unmarshal exactly.
func checkJSON(t testing.TB, tr *Tree, before string) {
	t.Helper()
	data, err := Marshal(tr)
	if err != nil {
		t.Fatalf("marshal %v: %v", tr, err)
	}
	back, err := Unmarshal(data)
	if err != nil || !back.Equal(tr) {
		t.Fatalf("after %s -> %v: JSON round trip gave %v, %v\n%s", before, tr, back, err, data)
	}
}

// TestRandomOps runs the fuzz body over pseudo-random inputs from fixed
// seeds, so plain `go test` covers far more sequences than the seed corpus.
func TestRandomOps(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	n := 400
	if testing.Short() {
		n = 40
	}
	for i := range n {
		data := make([]byte, 6+rng.IntN(200))
		for j := range data {
			data[j] = byte(rng.UintN(256))
		}
		t.Run(fmt.Sprint(i), func(t *testing.T) { runOps(t, data) })
	}
}
