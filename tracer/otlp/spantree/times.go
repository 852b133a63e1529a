package spantree

import (
	"errors"
	"math"
	"strconv"
	"strings"
	"time"
)

// ParseTime reads a timestamp as trace formats write it: RFC 3339 / ISO 8601 with or without a
// zone (no zone means UTC) and with any fraction, or a number (or numeric string) since the Unix
// epoch in seconds, milliseconds, microseconds or nanoseconds, told apart by magnitude. Empty
// strings, null and 0 mean "no time" (zero time, no error).
func ParseTime(s string) (time.Time, error) {
	s = strings.TrimSpace(s)
	if s == "" || s == "0" || s == "null" {
		return time.Time{}, nil
	}
	if c := s[0]; c >= '0' && c <= '9' && !strings.ContainsAny(s, "-:T") || c == '-' && !strings.ContainsAny(s[1:], "-:T") {
		if !strings.ContainsAny(s, ".eE") {
			n, err := strconv.ParseInt(s, 10, 64)
			if err == nil {
				return FromEpoch(n), nil
			}
			if u, err := strconv.ParseUint(s, 10, 64); err == nil {
				return FromEpoch(int64(u >> 1)), nil
			}
		}
		f, err := strconv.ParseFloat(s, 64)
		if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
			return time.Time{}, errors.New("not a time: expected RFC 3339 or a number since the epoch")
		}
		return FromEpochFloat(f), nil
	}
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05.999999999", "2006-01-02 15:04:05.999999999Z07:00", "2006-01-02 15:04:05.999999999", "2006-01-02T15:04:05.999999999Z0700"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t.UTC(), nil
		}
	}
	return time.Time{}, errors.New("not a time: expected RFC 3339 (with or without zone) or a number since the epoch")
}

// FromEpoch converts an integer since the epoch, choosing its unit by magnitude: below 1e11
// seconds, below 1e14 milliseconds, below 1e17 microseconds, else nanoseconds.
func FromEpoch(n int64) time.Time {
	a := n
	if a < 0 {
		a = -a
	}
	switch {
	case n == 0:
		return time.Time{}
	case a < 1e11:
		return time.Unix(n, 0).UTC()
	case a < 1e14:
		return time.UnixMilli(n).UTC()
	case a < 1e17:
		return time.UnixMicro(n).UTC()
	}
	return time.Unix(0, n).UTC()
}

// FromEpochFloat converts a (fractional) number since the epoch, unit chosen as in FromEpoch.
func FromEpochFloat(f float64) time.Time {
	a := math.Abs(f)
	switch {
	case f == 0:
		return time.Time{}
	case a < 1e11:
		sec, frac := math.Modf(f)
		return time.Unix(int64(sec), int64(math.Round(frac*1e6))*1e3).UTC() // float seconds carry µs at best
	case a < 1e14:
		return time.Unix(0, int64(f*1e6)).UTC()
	case a < 1e17:
		return time.Unix(0, int64(f*1e3)).UTC()
	case a < 9.2e18:
		return time.Unix(0, int64(f)).UTC()
	}
	return time.Time{}
}
