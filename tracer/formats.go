package tracer

import (
	"github.com/lifeline-dev/lifeline/tracer/canonical"
	"github.com/lifeline-dev/lifeline/tracer/deepseek"
	"github.com/lifeline-dev/lifeline/tracer/langchain"
	"github.com/lifeline-dev/lifeline/tracer/langgraphv3"
	"github.com/lifeline-dev/lifeline/tracer/lgastream"
	"github.com/lifeline-dev/lifeline/tracer/openai"
	"github.com/lifeline-dev/lifeline/tracer/openaistream"
	"github.com/lifeline-dev/lifeline/tracer/otlp"
	"github.com/lifeline-dev/lifeline/tracer/pi"
	"github.com/lifeline-dev/lifeline/tracer/smolagents"
)

// Formats lists every format lifeline reads, in detection order (ties go to the earlier).
// Add a format here with one entry.
var Formats = []Format{
	{Name: canonical.Name, Description: "lifeline's canonical event log (JSON Lines, docs/events.md)", Detect: canonical.Detect, Decode: canonical.Decode, Expect: `one event object per line, {"v":1,"seq":…,"type":"session/start",…} (docs/events.md)`},
	{Name: otlp.Name, Description: otlp.Description, Detect: otlp.Detect, Decode: otlp.Decode, Expect: `OTLP JSON with spans, {"resourceSpans":[{"scopeSpans":[{"spans":[…]}]}]} (one per line or one body)`},
	{Name: openai.Name, Description: openai.Description, Detect: openai.Detect, Decode: openai.Decode, Expect: `OpenAI Agents trace records, {"object":"trace.span","span_data":{…},…} per line or {"data":[…]}`},
	{Name: openaistream.Name, Description: openaistream.Description, Detect: openaistream.Detect, Decode: openaistream.Decode, Expect: openaistream.Expect},
	{Name: deepseek.Name, Description: deepseek.Description, Detect: deepseek.Detect, Decode: deepseek.Decode, Expect: `DeepSeek Harness session records, a {"type":"session","createdAt":…} header then {"type":"…/…","data":{…}} lines`},
	{Name: pi.EventsName, Description: pi.EventsDescription, Detect: pi.DetectEvents, Decode: pi.DecodeEvents, Expect: `pi agent events, {"type":"agent_start"}, {"type":"message_start","message":{…}}, … one per line`},
	{Name: pi.SessionName, Description: pi.SessionDescription, Detect: pi.DetectSession, Decode: pi.DecodeSession, Expect: `a pi session header {"type":"session","version":3,"id":…} then entries {"type":"message","id":…,"parentId":…}`},
	{Name: langchain.RunsName, Description: langchain.RunsDescription, Detect: langchain.DetectRuns, Decode: langchain.DecodeRuns, Expect: `LangChain run records, {"id":…,"run_type":…,"child_runs":[…]} or createRun/updateRun payloads`},
	{Name: langchain.MultipartName, Description: langchain.MultipartDescription, Detect: langchain.DetectMultipart, Decode: langchain.DecodeMultipart, Expect: langchain.MultipartExpect},
	{Name: langchain.EventsName, Description: langchain.EventsDescription, Detect: langchain.DetectEvents, Decode: langchain.DecodeEvents, Expect: `streamEvents v2 records, {"event":"on_chain_start","run_id":…,…} one per line`},
	{Name: langgraphv3.Name, Description: langgraphv3.Description, Detect: langgraphv3.Detect, Decode: langgraphv3.Decode, Expect: langgraphv3.Expect},
	{Name: lgastream.Name, Description: lgastream.Description, Detect: lgastream.Detect, Decode: lgastream.Decode, Expect: lgastream.Expect},
	{Name: smolagents.Name, Description: smolagents.Description, Detect: smolagents.Detect, Decode: smolagents.Decode, Expect: `smolagents memory steps, [{"step_number":…,"timing":{…},…}] or a RunResult {"state":…,"steps":[…]}`},
}
