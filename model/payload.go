package model

import (
	"encoding/json"
	"fmt"
	"slices"
	"unicode/utf8"
)

// Payload attributes: what a model call was sent and answered, what a tool call was given and
// returned, carried in the Attrs of model/* and tool/* events (and so of ModelCall and
// ToolCall) wherever the log records them. A value is text: the producer's own serialization
// (JSON for messages and arguments, as the log has it) or plain text.
const (
	// AttrInput is a model call's input: the messages (or prompt) sent (model/start).
	AttrInput = "input"
	// AttrOutput is a model call's output: the completion text or output messages (model/end).
	AttrOutput = "output"
	// AttrArgs is a tool call's arguments (tool/start).
	AttrArgs = "args"
	// AttrResult is a tool call's result (tool/end).
	AttrResult = "result"
)

// PayloadAttrs lists the payload attributes.
var PayloadAttrs = []string{AttrInput, AttrOutput, AttrArgs, AttrResult}

// The older names of payloads some producers write, cut and dropped like the payloads: a model
// call's answer text on model/end ("text": lifeline's runtime, Pi, DeepSeek Harness) and a
// step's observations on tool/end (smolagents).
var (
	modelEndPayloads = append(slices.Clone(PayloadAttrs), "text")
	toolEndPayloads  = append(slices.Clone(PayloadAttrs), "observations")
)

func payloadKeys(t EventType) []string {
	switch t {
	case ModelEnd:
		return modelEndPayloads
	case ToolEnd:
		return toolEndPayloads
	}
	return PayloadAttrs
}

// PayloadKeepMax is the most of one payload a tracer keeps (a bound on memory, whatever the
// log holds); PayloadPolicy.Max cuts further.
const PayloadKeepMax = 64 << 10

// DefaultPayloadMax is the default of PayloadPolicy.Max (lifeline's --payload-max).
const DefaultPayloadMax = 4096

// PayloadPolicy says what becomes of payloads and conversation text on their way into the tree.
type PayloadPolicy struct {
	// Max cuts each payload (and message text) to at most this many bytes, on a UTF-8
	// boundary, with a mark saying how much was cut; 0 keeps them whole (up to PayloadKeepMax).
	Max int
	// Redact drops every payload and the text of messages, steering and follow-up inputs.
	Redact bool
}

// IsZero reports whether p changes nothing.
func (p PayloadPolicy) IsZero() bool { return p.Max <= 0 && !p.Redact }

// Apply cuts or drops the payloads of ev as p says. It never writes to ev's Attrs map (the
// tree may share it): a changed map is a new one.
func (p PayloadPolicy) Apply(ev *Event) {
	if p.IsZero() {
		return
	}
	if p.Redact {
		if ev.Text != "" {
			ev.Text = ""
		}
	} else if ev.Text != "" {
		ev.Text = CutText(ev.Text, p.Max)
	}
	if len(ev.Attrs) == 0 {
		return
	}
	var out map[string]any
	for _, k := range payloadKeys(ev.Type) {
		v, ok := ev.Attrs[k]
		if !ok {
			continue
		}
		if out == nil {
			out = make(map[string]any, len(ev.Attrs))
			for k, v := range ev.Attrs {
				out[k] = v
			}
		}
		if p.Redact {
			delete(out, k)
			continue
		}
		s, ok := AttrString(v)
		if !ok {
			b, err := json.Marshal(v)
			if err != nil {
				delete(out, k)
				continue
			}
			s = string(b)
		}
		out[k] = CutText(s, p.Max)
	}
	if out != nil {
		if len(out) == 0 {
			out = nil
		}
		ev.Attrs = out
	}
}

// CutText returns s cut to at most max bytes (0: s whole) on a UTF-8 boundary, with "… [N
// bytes cut]" appended when it was cut.
func CutText(s string, max int) string {
	if max <= 0 || len(s) <= max {
		return s
	}
	cut := max
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return fmt.Sprintf("%s… [%d bytes cut]", s[:cut], len(s)-cut)
}

// PayloadText turns a payload value read from a log into the text kept: a string as it is, any
// other JSON value serialized, cut to PayloadKeepMax. It returns "" for nil.
func PayloadText(v any) string {
	switch x := v.(type) {
	case nil:
		return ""
	case string:
		return CutText(x, PayloadKeepMax)
	case JSONText:
		return CutText(x.String(), PayloadKeepMax)
	}
	b, err := json.Marshal(v)
	if err != nil {
		return ""
	}
	return CutText(string(b), PayloadKeepMax)
}
