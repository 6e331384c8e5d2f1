package adapter

import (
	"testing"
)

func TestEachEmulatorShowsHello(t *testing.T) {
	for _, e := range All() {
		t.Run(e.Name, func(t *testing.T) {
			term := e.New(20, 5, 100)
			defer term.Close()
			if err := Feed(term, []byte("\x1b[31mhel\x1b[0mlo"), 4); err != nil {
				t.Fatal(err)
			}
			if got := term.Text(); got != "hello" {
				t.Errorf("screen is %q, want %q", got, "hello")
			}
		})
	}
}

func TestEachEmulatorJoinsUTF8SplitAcrossWrites(t *testing.T) {
	const text = "héllo 漢字"
	for _, e := range All() {
		for chunk := 1; chunk <= 4; chunk++ {
			term := e.New(20, 5, 100)
			if err := Feed(term, []byte(text), chunk); err != nil {
				t.Fatal(err)
			}
			got := term.Text()
			_ = term.Close()
			if !sameText(got, text) {
				t.Errorf("%s in chunks of %d shows %q, want %q", e.Name, chunk, got, text)
			}
		}
	}
}

// sameText compares screens ignoring the blank cell some emulators put after
// a wide character.
func sameText(screen, want string) bool {
	var a, b []rune
	for _, r := range screen {
		if r != 0 && r != ' ' {
			a = append(a, r)
		}
	}
	for _, r := range want {
		if r != ' ' {
			b = append(b, r)
		}
	}
	return string(a) == string(b)
}

func TestIncompleteTailHoldsBackOnlyACutCharacter(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   string
		want int
	}{
		{"empty", "", 0},
		{"ascii", "abc", 3},
		{"whole CJK", "a漢", 4},
		{"CJK cut after 1", "a\xe6", 1},
		{"CJK cut after 2", "a\xe6\xbc", 1},
		{"stray continuation", "a\xbc", 2},
	} {
		if got := incompleteTail([]byte(tc.in)); got != tc.want {
			t.Errorf("%s: incompleteTail(%q) = %d, want %d", tc.name, tc.in, got, tc.want)
		}
	}
}

func TestByNameRejectsAnUnknownName(t *testing.T) {
	if _, err := ByName("nope"); err == nil {
		t.Fatal("ByName(nope) gave no error")
	}
	if e, err := ByName("xvt"); err != nil || e.Name != "xvt" {
		t.Fatalf("ByName(xvt) = %v, %v", e.Name, err)
	}
}
