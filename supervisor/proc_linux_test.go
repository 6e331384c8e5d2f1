package supervisor

import "testing"

func TestParseStatReadsAfterLastParen(t *testing.T) {
	line := "4242 (evil) (name) S 1 4242 4242 0 -1 4194560 1 2 3 4 5 6 7 8 20 0 1 0 987654 1 2 3\n"
	p, err := parseStat([]byte(line), "boot")
	if err != nil {
		t.Fatal(err)
	}
	want := procInfo{ID: Identity{PID: 4242, Start: 987654, BootID: "boot"}, State: 'S', PPID: 1, PGID: 4242, Session: 4242}
	if p != want {
		t.Fatalf("parseStat = %+v, want %+v", p, want)
	}
	for _, bad := range []string{"", "1 (x", "1 (x) S 1 2", "x (y) S 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20"} {
		if _, err := parseStat([]byte(bad), "b"); err == nil {
			t.Errorf("parseStat(%q) accepted", bad)
		}
	}
}
