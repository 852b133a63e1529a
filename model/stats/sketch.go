package stats

import (
	"math"
	"slices"
)

// Sketch estimates quantiles of a stream of non-negative values in bounded memory.
//
// Up to ExactLimit values it keeps them all and its quantiles are exact (nearest rank). Past
// that it turns into a DDSketch (Masson, Rim, Lee, "DDSketch: a fast and fully-mergeable
// quantile sketch with relative-error guarantees", VLDB 2019): logarithmic buckets of ratio
// γ = (1+α)/(1−α) with α = RelativeAccuracy, so that every quantile it returns is within α
// (1 %) of the true value of that rank, whatever the distribution. At most MaxBuckets buckets
// are kept (when a stream spans more than γ^MaxBuckets ≈ 10^17 between its smallest and
// largest positive values, the lowest buckets are merged, which only coarsens the lowest
// quantiles). Memory: at most ExactLimit float64s or MaxBuckets counters, never more.
//
// Why a DDSketch rather than exact values: exact percentiles over a fleet's runs need every
// value, memory proportional to the input; a t-digest or a KLL sketch bounds the rank error,
// which on the long tails of durations and costs (p99) can be far off in value, while a
// DDSketch bounds the value error, which is what a p99 latency is read for.
type Sketch struct {
	n        int64
	min, max float64
	sum      float64
	exact    []float64 // the values while !sketched
	sketched bool      // past ExactLimit values: counts in zeros and buckets
	zeros    int64     // values ≤ minIndexable, in bucket mode
	buckets  []int64   // counts of bucket offset+i
	offset   int
}

// Sketch parameters.
const (
	ExactLimit       = 1024
	RelativeAccuracy = 0.01
	MaxBuckets       = 2048
)

var (
	gamma    = (1 + RelativeAccuracy) / (1 - RelativeAccuracy)
	logGamma = math.Log(gamma)
)

// minIndexable is the smallest value given a bucket of its own; smaller ones count as zero.
const minIndexable = 1e-12

// Add records one value; negative values and NaN are recorded as 0.
func (s *Sketch) Add(v float64) {
	if math.IsNaN(v) || v < 0 {
		v = 0
	}
	if math.IsInf(v, 1) {
		v = math.MaxFloat64
	}
	if s.n == 0 || v < s.min {
		s.min = v
	}
	if s.n == 0 || v > s.max {
		s.max = v
	}
	s.n++
	s.sum += v
	if !s.sketched {
		if len(s.exact) < ExactLimit {
			s.exact = append(s.exact, v)
			return
		}
		for _, x := range s.exact {
			s.bucket(x)
		}
		s.exact, s.sketched = nil, true
	}
	s.bucket(v)
}

func (s *Sketch) bucket(v float64) {
	if v <= minIndexable {
		s.zeros++
		return
	}
	i := int(math.Ceil(math.Log(v) / logGamma))
	if s.buckets == nil {
		s.buckets, s.offset = make([]int64, 1, 64), i
	}
	switch {
	case i < s.offset:
		if grow := s.offset - i; len(s.buckets)+grow > MaxBuckets {
			i = s.offset // the lowest bucket absorbs what is below it
		} else {
			s.buckets = append(make([]int64, grow, grow+len(s.buckets)), s.buckets...)
			s.offset = i
		}
	case i >= s.offset+len(s.buckets):
		need := i - s.offset + 1
		if need > MaxBuckets { // merge the lowest buckets into one to make room at the top
			shift := need - MaxBuckets
			merged := int64(0)
			for _, c := range s.buckets[:min(shift+1, len(s.buckets))] {
				merged += c
			}
			if shift+1 <= len(s.buckets) {
				s.buckets = s.buckets[shift:]
				s.buckets[0] = merged
			} else {
				s.buckets = []int64{merged}
			}
			s.offset += shift
			need = MaxBuckets
		}
		for len(s.buckets) < need {
			s.buckets = append(s.buckets, 0)
		}
	}
	s.buckets[i-s.offset]++
}

// Count is how many values were added.
func (s *Sketch) Count() int64 { return s.n }

// Sum is the sum of the values.
func (s *Sketch) Sum() float64 { return s.sum }

// Min and Max are the extremes (exact).
func (s *Sketch) Min() float64 { return s.min }

// Max is the largest value added (exact).
func (s *Sketch) Max() float64 { return s.max }

// Exact reports whether Quantile is exact (at most ExactLimit values were added).
func (s *Sketch) Exact() bool { return !s.sketched }

// Quantile returns the value of nearest rank ⌈q·n⌉ (q in [0,1]): exact while Exact, else within
// RelativeAccuracy of it. It returns 0 on an empty sketch.
func (s *Sketch) Quantile(q float64) float64 {
	if s.n == 0 {
		return 0
	}
	rank := int64(math.Ceil(q * float64(s.n)))
	rank = min(max(rank, 1), s.n)
	if !s.sketched {
		v := slices.Clone(s.exact)
		slices.Sort(v)
		return v[rank-1]
	}
	if rank == 1 {
		return s.min
	}
	if rank == s.n {
		return s.max
	}
	seen := s.zeros
	if seen >= rank {
		return 0
	}
	for i, c := range s.buckets {
		seen += c
		if seen >= rank {
			v := 2 * math.Pow(gamma, float64(s.offset+i)) / (gamma + 1)
			return min(max(v, s.min), s.max)
		}
	}
	return s.max
}
