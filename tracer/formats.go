package tracer

import (
	"github.com/lifeline-dev/lifeline/tracer/canonical"
	"github.com/lifeline-dev/lifeline/tracer/deepseek"
	"github.com/lifeline-dev/lifeline/tracer/langchain"
	"github.com/lifeline-dev/lifeline/tracer/openai"
	"github.com/lifeline-dev/lifeline/tracer/otlp"
	"github.com/lifeline-dev/lifeline/tracer/pi"
	"github.com/lifeline-dev/lifeline/tracer/smolagents"
)

// Formats lists every format lifeline reads, in detection order (ties go to the earlier).
// Add a format here with one entry.
var Formats = []Format{
	{Name: canonical.Name, Description: "lifeline's canonical event log (JSON Lines, docs/events.md)", Detect: canonical.Detect, Decode: canonical.Decode},
	{Name: otlp.Name, Description: otlp.Description, Detect: otlp.Detect, Decode: otlp.Decode},
	{Name: openai.Name, Description: openai.Description, Detect: openai.Detect, Decode: openai.Decode},
	{Name: deepseek.Name, Description: deepseek.Description, Detect: deepseek.Detect, Decode: deepseek.Decode},
	{Name: pi.EventsName, Description: pi.EventsDescription, Detect: pi.DetectEvents, Decode: pi.DecodeEvents},
	{Name: pi.SessionName, Description: pi.SessionDescription, Detect: pi.DetectSession, Decode: pi.DecodeSession},
	{Name: langchain.RunsName, Description: langchain.RunsDescription, Detect: langchain.DetectRuns, Decode: langchain.DecodeRuns},
	{Name: langchain.EventsName, Description: langchain.EventsDescription, Detect: langchain.DetectEvents, Decode: langchain.DecodeEvents},
	{Name: smolagents.Name, Description: smolagents.Description, Detect: smolagents.Detect, Decode: smolagents.Decode},
}
