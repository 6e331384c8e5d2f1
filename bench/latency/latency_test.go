package latency

import (
	"context"
	"strings"
	"testing"
	"time"
)

func TestPercentileByNearestRank(t *testing.T) {
	var s Samples
	for i := 100; i >= 1; i-- {
		s = append(s, time.Duration(i))
	}
	for _, tc := range []struct {
		name string
		p    float64
		want time.Duration
	}{
		{"median", 50, 50}, {"p99", 99, 99}, {"max", 100, 100}, {"tiny", 0.1, 1},
	} {
		if got := s.Percentile(tc.p); got != tc.want {
			t.Errorf("%s: Percentile(%v) = %v, want %v", tc.name, tc.p, got, tc.want)
		}
	}
	if (Samples{}).Median() != 0 {
		t.Error("median of no samples is not 0")
	}
}

// echoPane is an in-memory Driver whose screen shows keys at once.
type echoPane struct{ line strings.Builder }

func (e *echoPane) SendKey(_ context.Context, k string) error { e.line.WriteString(k); return nil }
func (e *echoPane) Screen(context.Context) (string, error)    { return e.line.String() + "\n", nil }
func (e *echoPane) Reset(context.Context) error               { e.line.Reset(); return nil }

func TestRoundTripTakesOneSamplePerKeyAcrossResets(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	s, err := RoundTrip(ctx, &echoPane{}, 2*lineMax+5)
	if err != nil {
		t.Fatal(err)
	}
	if len(s) != 2*lineMax+5 {
		t.Errorf("%d samples, want %d", len(s), 2*lineMax+5)
	}
}

func TestPTYEchoReadsEveryByteBack(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	s, err := PTYEcho(ctx, 50)
	if err != nil {
		t.Fatal(err)
	}
	if len(s) != 50 || s.Median() <= 0 {
		t.Errorf("implausible samples: %d, median %v", len(s), s.Median())
	}
}
