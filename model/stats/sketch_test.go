package stats

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

func exactRank(vs []float64, q float64) float64 {
	s := slices.Clone(vs)
	slices.Sort(s)
	i := int(math.Ceil(q*float64(len(s)))) - 1
	return s[min(max(i, 0), len(s)-1)]
}

// TestSketchAccuracy: up to ExactLimit values the quantiles are exact; beyond, every quantile
// is within RelativeAccuracy of the true nearest-rank value, on distributions of very different
// shapes, and the sketch never holds more than MaxBuckets counters.
func TestSketchAccuracy(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	tests := []struct {
		name string
		n    int
		gen  func() float64
	}{
		{"small integers, exact", 500, func() float64 { return float64(rng.IntN(40)) }},
		{"exactly the limit", ExactLimit, func() float64 { return rng.Float64() * 1000 }},
		{"lognormal durations", 200_000, func() float64 { return math.Exp(rng.NormFloat64()*2 + 5) }},
		{"uniform", 100_000, func() float64 { return rng.Float64() * 1e6 }},
		{"with zeros", 50_000, func() float64 {
			if rng.IntN(3) == 0 {
				return 0
			}
			return rng.ExpFloat64() * 0.02
		}},
		{"integer steps", 100_000, func() float64 { return float64(1 + rng.IntN(50)) }},
		{"all zeros (no cost recorded)", 5000, func() float64 { return 0 }},
		{"mostly zeros", 5000, func() float64 {
			if rng.IntN(100) == 0 {
				return 3
			}
			return 0
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var s Sketch
			vs := make([]float64, tt.n)
			for i := range vs {
				vs[i] = tt.gen()
				s.Add(vs[i])
			}
			if s.Exact() != (tt.n <= ExactLimit) {
				t.Errorf("Exact() = %v with %d values", s.Exact(), tt.n)
			}
			if len(s.buckets) > MaxBuckets {
				t.Errorf("%d buckets, want ≤ %d", len(s.buckets), MaxBuckets)
			}
			for _, q := range []float64{0, 0.01, 0.25, 0.5, 0.9, 0.99, 0.999, 1} {
				got, want := s.Quantile(q), exactRank(vs, q)
				if s.Exact() && got != want {
					t.Errorf("q%.3f = %v, want exactly %v", q, got, want)
				}
				if math.Abs(got-want) > RelativeAccuracy*want+1e-12 {
					t.Errorf("q%.3f = %v, want %v within %.0f%%", q, got, want, RelativeAccuracy*100)
				}
			}
			if s.Count() != int64(tt.n) || s.Min() != slices.Min(vs) || s.Max() != slices.Max(vs) {
				t.Errorf("count %d min %v max %v", s.Count(), s.Min(), s.Max())
			}
		})
	}
}

// TestSketchBounded: values spanning 40 orders of magnitude keep at most MaxBuckets counters
// (the lowest merged: the top ones cover 10^17.8, here 1e12…1e30), and the quantiles above
// the merged range stay within the accuracy.
func TestSketchBounded(t *testing.T) {
	var s Sketch
	var vs []float64
	for i := 0; i < 100_000; i++ {
		v := math.Pow(10, float64(i%4000)/100-10) // 1e-10 … 1e30
		vs = append(vs, v)
		s.Add(v)
	}
	if len(s.buckets) > MaxBuckets {
		t.Fatalf("%d buckets, want ≤ %d", len(s.buckets), MaxBuckets)
	}
	for _, q := range []float64{0.6, 0.9, 0.99} {
		got, want := s.Quantile(q), exactRank(vs, q)
		if math.Abs(got-want) > RelativeAccuracy*want {
			t.Errorf("q%.2f = %g, want %g within 1%%", q, got, want)
		}
	}
	if s.Quantile(1) != slices.Max(vs) || s.Quantile(0) != slices.Min(vs) {
		t.Errorf("max %g", s.Quantile(1))
	}
}

func TestSketchEmptyAndBad(t *testing.T) {
	var s Sketch
	if s.Quantile(0.5) != 0 || s.Count() != 0 {
		t.Fatal("empty sketch")
	}
	for _, v := range []float64{math.NaN(), -3, math.Inf(1), 2} {
		s.Add(v)
	}
	if s.Min() != 0 || s.Max() != math.MaxFloat64 || s.Quantile(0.5) != 0 {
		t.Errorf("min %v max %v p50 %v", s.Min(), s.Max(), s.Quantile(0.5))
	}
}
