package view

import "time"

// This file holds the clock arithmetic that an absurd clock (events centuries apart) cannot
// overflow: time.Time.Sub saturates at about 292 years, so renderers place and print times with
// these instead.

// Overflow reports whether the trace spans more time than a time.Duration holds (about 292
// years: an absurd clock), so Total and Offset are saturated and only the *NS forms are exact.
func (v *View) Overflow() bool {
	if v.Start.IsZero() {
		return false
	}
	_, ok := Sub(v.Start, v.End)
	return !ok
}

// TotalNS is the time the trace covers in nanoseconds, without overflow.
func (v *View) TotalNS() float64 {
	if v.Start.IsZero() {
		return 0
	}
	return Between(v.Start, v.End)
}

// OffsetNS is the time from the trace start to ts in nanoseconds, without overflow (0 when
// either is unknown).
func (v *View) OffsetNS(ts time.Time) float64 {
	if ts.IsZero() || v.Start.IsZero() {
		return 0
	}
	return Between(v.Start, ts)
}

// Between returns b - a in nanoseconds. Unlike b.Sub(a), which saturates beyond about 292 years,
// it never overflows; it is exact for spans below 2^53 ns (104 days) and close beyond.
func Between(a, b time.Time) float64 {
	return float64(b.Unix()-a.Unix())*1e9 + float64(b.Nanosecond()-a.Nanosecond())
}

// Sub returns b - a and whether it fits a time.Duration; when it does not, the result is
// saturated (time.Time.Sub's behaviour) and ok is false.
func Sub(a, b time.Time) (d time.Duration, ok bool) {
	d = b.Sub(a)
	return d, a.Add(d).Equal(b)
}

// DurBetween formats b - a like Dur, also beyond what a time.Duration holds ("9998y").
func DurBetween(a, b time.Time) string {
	if d, ok := Sub(a, b); ok {
		return Dur(d)
	}
	return DurNS(Between(a, b))
}
