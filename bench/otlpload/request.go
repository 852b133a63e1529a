package otlpload

import collpb "go.opentelemetry.io/proto/otlp/collector/trace/v1"

// Request is the request Send builds for the spans [from, to) of the load seeded with seed:
// for a benchmark or a test that sends the load's spans its own way.
func Request(seed uint64, from, to int) *collpb.ExportTraceServiceRequest {
	return newGenerator(seed).request(from, to)
}
