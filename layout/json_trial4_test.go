package layout

import (
	"fmt"
	"strings"
	"testing"
)

// nestedJSON is a layout whose splits nest depth deep, each with one leaf.
func nestedJSON(depth int) []byte {
	node := `{"pane":"last"}`
	for i := 0; i < depth; i++ {
		node = fmt.Sprintf(`{"axis":"horizontal","ratio":0.5,"children":[{"pane":"p%d"},%s]}`, i, node)
	}
	return []byte(`{"schema_version":1,"focus":"last","root":` + node + `}`)
}

// TestUnmarshalRefusesSplitsNestedDeeperThanAnyScreen pins a trial-4
// fault: a layout.json of 3000 splits nested in a chain (hand-written or
// damaged; no terminal can show it, as each split needs a column or row
// at least) was taken, and the TUI grew to 1.3 GB and answered no key
// for a minute. Such a file is refused, so the TUI moves it aside.
func TestUnmarshalRefusesSplitsNestedDeeperThanAnyScreen(t *testing.T) {
	if _, err := Unmarshal(nestedJSON(MaxDepth)); err != nil {
		t.Fatalf("a layout %d deep: %v", MaxDepth, err)
	}
	_, err := Unmarshal(nestedJSON(MaxDepth + 1))
	if err == nil || !strings.Contains(err.Error(), fmt.Sprint(MaxDepth)) {
		t.Fatalf("a layout %d deep: %v; want an error naming the limit", MaxDepth+1, err)
	}
}
