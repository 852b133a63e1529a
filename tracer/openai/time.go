package openai

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/lifeline-dev/lifeline/tracer/otlp/spantree"
)

// spantreeTime parses the SDK's timestamps: ISO 8601 strings (Python "+00:00" µs, JS "Z" ms,
// or no zone), epoch numbers in s/ms/µs/ns, or null.
type spantreeTime time.Time

func (t *spantreeTime) parse(raw json.RawMessage) error {
	if len(raw) == 0 || string(raw) == "null" {
		return nil
	}
	var s string
	if raw[0] == '"' {
		if err := json.Unmarshal(raw, &s); err != nil {
			return err
		}
	} else if raw[0] == '-' || raw[0] >= '0' && raw[0] <= '9' {
		s = string(raw)
	} else {
		return fmt.Errorf("is %s: expected an ISO 8601 time", jsonKind(raw))
	}
	v, err := spantree.ParseTime(s)
	if err != nil {
		return err
	}
	*t = spantreeTime(v)
	return nil
}
