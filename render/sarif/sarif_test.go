package sarif_test

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/lifeline-dev/lifeline/render/diag"
	"github.com/lifeline-dev/lifeline/render/sarif"
)

var update = flag.Bool("update", false, "rewrite the golden files")

func TestGolden(t *testing.T) {
	ds := []diag.Diagnostic{
		{Package: "p", Check: "toolerror", Pos: diag.Position{Filename: "agent/a.go", Line: 12, Column: 2},
			End: diag.Position{Filename: "agent/a.go", Line: 12, Column: 20}, Message: "error of tool call t.Call is discarded"},
		{Package: "p", Check: "lifecycleend", Pos: diag.Position{Filename: "agent/a.go", Line: 4, Column: 2}, Message: "span not ended",
			Related: []diag.Related{{Pos: diag.Position{Filename: "agent/a.go", Line: 8, Column: 3}, Message: "this return"}},
			Fixes:   []diag.Fix{{Message: "Defer span.End()", Edits: []diag.Edit{{Filename: "agent/a.go", Start: 68, End: 68, New: "\n\tdefer span.End()"}}}}},
	}
	rules := []diag.Rule{
		{ID: "lifecycleend", Title: "report lifecycle starts not ended on every path", Doc: "Every start has exactly one end.", URL: "https://example.com/lifecycleend.md"},
		{ID: "toolerror", Title: "report tool call errors that are discarded", Doc: "A tool failure must reach the model.", URL: "https://example.com/toolerror.md"},
	}
	var b bytes.Buffer
	if err := sarif.Write(&b, "lifeline", "v0.0.0-test", rules, ds); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join("testdata", "golden.sarif")
	if *update {
		if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(b.Bytes(), want) {
		t.Errorf("SARIF differs from %s (go test -update rewrites it):\n%s", path, b.Bytes())
	}
	// What GitHub code scanning requires.
	var log sarif.Log
	if err := json.Unmarshal(b.Bytes(), &log); err != nil {
		t.Fatal(err)
	}
	if log.Version != "2.1.0" || len(log.Runs) != 1 {
		t.Fatalf("version %q, %d runs", log.Version, len(log.Runs))
	}
	for _, r := range log.Runs[0].Results {
		loc := r.Locations[0].PhysicalLocation
		if r.RuleID == "" || loc.Region.StartLine < 1 || loc.ArtifactLocation.URIBaseID != "%SRCROOT%" || r.PartialFingerprints["primaryLocationLineHash"] == "" {
			t.Errorf("result missing what GitHub needs: %+v", r)
		}
		if log.Runs[0].Tool.Driver.Rules[r.RuleIndex].ID != r.RuleID {
			t.Errorf("ruleIndex %d does not point at %s", r.RuleIndex, r.RuleID)
		}
	}
}
