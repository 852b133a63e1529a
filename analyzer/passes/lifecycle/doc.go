// Package lifecycle defines an Analyzer that binds lifecycle roles to objects and summarizes the
// functions of a package for the lifeline checks and the lifecycle map.
//
// # Analyzer lifecycle
//
// lifecycle: bind lifecycle roles and summarize functions for lifeline's checks
//
// The lifecycle pass reports nothing. It binds roles (model call, tool call, run entry, run
// status, stop reason, ...) to types.Objects from //lifeline: directives, mapping profiles
// (built in for lifeline's runtime, eino, langchaingo, genkit and OpenTelemetry, or given with
// -lifecycle.profile=file.json) and structural inference; finds the turn loops of the package
// (for loops, recursions and profile-named engine loops around model calls) with their bounds,
// what happens at the bound and whether they check cancellation; and lists the run entry points
// with their exits and id sites. Per-function summaries are exported as facts, so a helper that
// calls the model is a model-call site for its callers in other packages.
//
// See docs/analyzer.md for profiles, directives and inference.
package lifecycle
