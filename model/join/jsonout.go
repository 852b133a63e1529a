package join

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
)

// WriteJSON writes res as encoding/json would marshal it, one run at a time: the exit and bound
// matches runs share are encoded once and their bytes reused, so that a join of many runs costs
// little more than the runs' own fields.
func (res *Result) WriteJSON(w io.Writer) error {
	bw := bufio.NewWriterSize(w, 64<<10)
	exits := map[*ExitMatch][]byte{}
	bounds := map[*BoundMatch][]byte{}
	enc := func(v any) ([]byte, error) { return json.Marshal(v) }
	shared := func(cache map[*ExitMatch][]byte, x *ExitMatch) ([]byte, error) {
		if b, ok := cache[x]; ok {
			return b, nil
		}
		b, err := enc(x)
		cache[x] = b
		return b, err
	}
	field := func(name string, v any) error {
		b, err := enc(v)
		if err != nil {
			return err
		}
		bw.WriteString(`,"` + name + `":`)
		bw.Write(b)
		return nil
	}
	bw.WriteString(`{"runs":[`)
	for i := range res.Runs {
		r := &res.Runs[i]
		if i > 0 {
			bw.WriteByte(',')
		}
		head, err := enc(struct {
			RunID      string `json:"run_id"`
			SessionID  string `json:"session_id"`
			Status     string `json:"status"`
			StopReason string `json:"stop_reason,omitempty"`
			Steps      int    `json:"steps"`
		}{r.RunID, r.SessionID, string(r.Status), string(r.StopReason), r.Steps})
		if err != nil {
			return fmt.Errorf("join json: %w", err)
		}
		bw.Write(head[:len(head)-1]) // the object continues
		if r.Exit != nil {
			b, err := shared(exits, r.Exit)
			if err != nil {
				return fmt.Errorf("join json: %w", err)
			}
			bw.WriteString(`,"exit":`)
			bw.Write(b)
		}
		if len(r.Pauses) > 0 {
			if err := field("pauses", r.Pauses); err != nil {
				return fmt.Errorf("join json: %w", err)
			}
		}
		if r.Bound != nil {
			b, ok := bounds[r.Bound]
			if !ok {
				if b, err = enc(r.Bound); err != nil {
					return fmt.Errorf("join json: %w", err)
				}
				bounds[r.Bound] = b
			}
			bw.WriteString(`,"bound":`)
			bw.Write(b)
		}
		if len(r.Calls) > 0 {
			if err := field("calls", r.Calls); err != nil {
				return fmt.Errorf("join json: %w", err)
			}
		}
		if r.Parent != nil {
			if err := field("parent", r.Parent); err != nil {
				return fmt.Errorf("join json: %w", err)
			}
		}
		if r.Origin != nil {
			if err := field("origin", r.Origin); err != nil {
				return fmt.Errorf("join json: %w", err)
			}
		}
		bw.WriteByte('}')
	}
	bw.WriteString(`]`)
	if err := field("findings", res.Findings); err != nil {
		return fmt.Errorf("join json: %w", err)
	}
	if len(res.Sources) > 0 {
		if err := field("sources", res.Sources); err != nil {
			return fmt.Errorf("join json: %w", err)
		}
	}
	bw.WriteByte('}')
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("join json: %w", err)
	}
	return nil
}
