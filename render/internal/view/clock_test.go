package view

import (
	"math"
	"testing"
	"time"
)

func TestClockWithoutOverflow(t *testing.T) {
	y1 := time.Date(1, 1, 1, 0, 0, 1, 0, time.UTC)
	y9999 := time.Date(9999, 12, 31, 23, 59, 59, 500_000_000, time.UTC)
	base := time.Date(2026, 3, 14, 9, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		a, b time.Time
		want string
		ok   bool
	}{
		{base, base.Add(1500 * time.Millisecond), "1.500s", true},
		{base, base.Add(26 * time.Hour), "26h00m", true},
		{base, base.AddDate(3, 0, 12), "3y012d", true},
		{y1, y9999, "9998y", false},
		{y9999, y1, "-9998y", false},
	} {
		if got := DurBetween(tc.a, tc.b); got != tc.want {
			t.Errorf("DurBetween(%v, %v) = %q, want %q", tc.a, tc.b, got, tc.want)
		}
		if _, ok := Sub(tc.a, tc.b); ok != tc.ok {
			t.Errorf("Sub(%v, %v) ok = %v, want %v", tc.a, tc.b, ok, tc.ok)
		}
	}
	if got, want := Between(y1, y9999), 315537897598.5e9; math.Abs(got-want) > 1e6 {
		t.Errorf("Between = %v, want %v", got, want)
	}
	for _, d := range []time.Duration{math.MaxInt64, math.MinInt64} {
		if got := Dur(d); got != "292y" && got != "-292y" {
			t.Errorf("Dur(%d) = %q, want ±292y", d, got)
		}
	}
	for in, want := range map[float64]string{math.Inf(1): "$∞", math.NaN(): "$?", 1e308: "$1e+308", 0.0042: "$0.0042", 12.5: "$12.50"} {
		if got := Cost(in); got != want {
			t.Errorf("Cost(%v) = %q, want %q", in, got, want)
		}
	}
}
