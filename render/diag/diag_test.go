package diag_test

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/lifeline-dev/lifeline/render/diag"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// Sample returns fixed diagnostics for golden tests.
func sample() []diag.Diagnostic {
	return []diag.Diagnostic{
		{Package: "example.com/agent", Check: "toolerror", Pos: diag.Position{Filename: "agent.go", Line: 12, Column: 2, Offset: 200},
			End: diag.Position{Filename: "agent.go", Line: 12, Column: 20, Offset: 218}, Message: "error of tool call t.Call is discarded",
			URL: "https://example.com/toolerror.md"},
		{Package: "example.com/agent", Check: "lifecycleend", Pos: diag.Position{Filename: "agent.go", Line: 4, Column: 2, Offset: 40},
			End: diag.Position{Filename: "agent.go", Line: 4, Column: 30, Offset: 68}, Message: "span not ended",
			Related: []diag.Related{{Pos: diag.Position{Filename: "agent.go", Line: 8, Column: 3}, Message: "this return"}},
			Fixes:   []diag.Fix{{Message: "Defer span.End()", Edits: []diag.Edit{{Filename: "agent.go", Start: 68, End: 68, New: "\n\tdefer span.End()"}}}}},
	}
}

func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (go test -update creates it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs (go test -update rewrites it):\n%s", name, got)
	}
}

func TestText(t *testing.T) {
	ds := sample()
	diag.Sort(ds)
	var b bytes.Buffer
	if err := diag.WriteText(&b, ds); err != nil {
		t.Fatal(err)
	}
	golden(t, "diags.txt", b.Bytes())
}

func TestJSON(t *testing.T) {
	ds := sample()
	diag.Sort(ds)
	var b bytes.Buffer
	if err := diag.WriteJSON(&b, ds, map[string]map[string]string{"example.com/broken": {"toolerror": "boom"}}); err != nil {
		t.Fatal(err)
	}
	golden(t, "diags.json", b.Bytes())
	var tree map[string]map[string]json.RawMessage
	if err := json.Unmarshal(b.Bytes(), &tree); err != nil {
		t.Fatal(err)
	}
	if _, ok := tree["example.com/agent"]["toolerror"]; !ok {
		t.Errorf("go vet shape {package: {check: [...]}} not respected: %s", b.Bytes())
	}
}

func TestRelTo(t *testing.T) {
	ds := []diag.Diagnostic{{Pos: diag.Position{Filename: "/w/m/a/b.go"}}, {Pos: diag.Position{Filename: "/elsewhere/c.go"}}}
	diag.RelTo(ds, "/w/m")
	if ds[0].Pos.Filename != "a/b.go" || ds[1].Pos.Filename != "/elsewhere/c.go" {
		t.Errorf("RelTo: %+v", ds)
	}
}
