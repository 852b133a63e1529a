package tracer

import "github.com/lifeline-dev/lifeline/tracer/canonical"

// Formats lists every format lifeline reads, in detection order (ties go to the earlier).
// Add a format here with one entry.
var Formats = []Format{
	{Name: canonical.Name, Description: "lifeline's canonical event log (JSON Lines, docs/events.md)", Detect: canonical.Detect, Decode: canonical.Decode},
}
