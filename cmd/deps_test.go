package cmd

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestMapReachesDependency: `lifeline map` of ONE installed package whose agent hands the
// tool loop to an installed dependency (modelled on @voltagent/core@2.10.0 dist/index.js:31569
// calling ai@6.0.325's generateText, whose loop is ai dist/index.js:4858) reaches the loop in
// the dependency (Node resolution: node_modules, package.json "exports" with the require
// condition), names the entry in the named package, and reads only the modules the flow
// reaches (not the dependency's ES build, not a module its index does not import).
func TestMapReachesDependency(t *testing.T) {
	const dir = "analyzer/lifemap/testdata/deps/node_modules/"
	out, errOut, code := lifeline(t, "", "map", "--format", "json", dir+"@acme/agent")
	if code != 0 {
		t.Fatalf("map: exit %d\n%s", code, errOut)
	}
	var m struct {
		Packages []string `json:"packages"`
		Entries  []struct {
			Func  string `json:"func"`
			Pos   string `json:"pos"`
			Loops []struct {
				Pos string `json:"pos"`
			} `json:"loops"`
		} `json:"entries"`
	}
	if err := json.Unmarshal([]byte(out), &m); err != nil {
		t.Fatal(err)
	}
	if len(m.Entries) != 1 || !strings.HasPrefix(m.Entries[0].Pos, dir+"@acme/agent/dist/index.js:") ||
		len(m.Entries[0].Loops) != 1 || m.Entries[0].Loops[0].Pos != dir+"steploop/dist/steps.js:6" {
		t.Fatalf("want the entry Agent.generateText and its loop at steploop/dist/steps.js:6:\n%s", out)
	}
	if strings.Join(m.Packages, " ") != "@acme/agent" {
		t.Errorf("packages %v, want the named one only", m.Packages)
	}
	for _, never := range []string{"index.mjs", "embed.js", "unused/"} {
		if strings.Contains(out, never) {
			t.Errorf("the map names %s, which the flow does not reach", never)
		}
	}
}
