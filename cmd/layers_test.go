package cmd

import (
	"fmt"
	"sort"
	"strings"
	"testing"

	"golang.org/x/tools/go/packages"
)

// modulePath is the module whose packages are checked.
const modulePath = "github.com/lifeline-dev/lifeline"

// layers says which of the module's top-level directories a package of each may import, as the
// architecture has it: data flows input → tracer | analyzer → model → render → cmd, and a
// package never imports one beside it (tracer and analyzer) or above it in that chain: model
// imports nothing of tracer, analyzer or render; render only model-level values; cmd wires
// everything and main calls cmd. Directories not listed (bench, scripts, testdata) are tools
// around the product and are not checked.
var layers = map[string][]string{
	"model":    {"model"},
	"tracer":   {"tracer", "model"},
	"analyzer": {"analyzer", "model"},
	"render":   {"render", "model"},
	"cmd":      {"cmd", "render", "model", "tracer", "analyzer"},
	"":         {"cmd"}, // main
}

// layerOf is the top-level directory of a package of the module ("" for the root), and
// whether it is one.
func layerOf(path string) (string, bool) {
	if path == modulePath {
		return "", true
	}
	rest, ok := strings.CutPrefix(path, modulePath+"/")
	if !ok {
		return "", false
	}
	top, _, _ := strings.Cut(rest, "/")
	return top, true
}

// TestLayers fails when a package of the module imports (in its non-test files) one of the
// module's packages its layer may not: render/* importing tracer/* or analyzer/*, model/*
// importing tracer, analyzer or render, tracer and analyzer importing each other, anything
// but main importing cmd.
func TestLayers(t *testing.T) {
	pkgs, err := packages.Load(&packages.Config{Mode: packages.NeedName | packages.NeedImports}, modulePath+"/...")
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	var bad []string
	for _, p := range pkgs {
		for _, e := range p.Errors {
			t.Errorf("%s: %v", p.PkgPath, e)
		}
		layer, _ := layerOf(p.PkgPath)
		allowed, ruled := layers[layer]
		if !ruled {
			continue
		}
		checked++
		for imp := range p.Imports {
			il, ours := layerOf(imp)
			if !ours {
				continue
			}
			ok := false
			for _, a := range allowed {
				ok = ok || il == a
			}
			if !ok {
				bad = append(bad, fmt.Sprintf("%s imports %s (a %s/ package may import only %v of the module)", p.PkgPath, imp, layer, allowed))
			}
		}
	}
	sort.Strings(bad)
	for _, b := range bad {
		t.Errorf("layering: %s", b)
	}
	if checked < 20 {
		t.Fatalf("only %d packages checked: the pattern did not load the module", checked)
	}
}

// TestLayersCatch makes sure the rule table refuses what the architecture forbids.
func TestLayersCatch(t *testing.T) {
	cases := []struct {
		from, to string
		ok       bool
	}{
		{"render/web", "tracer/store", false},
		{"render/web", "tracer/receiver", false},
		{"render/html", "analyzer/lifemap", false},
		{"model", "tracer", false},
		{"model/stats", "render/text", false},
		{"model/join", "analyzer/passes", false},
		{"tracer/otlp", "analyzer/ir", false},
		{"analyzer/lifemap", "tracer/otlp", false},
		{"tracer/store", "cmd", false},
		{"render/web", "model/runindex", true},
		{"tracer/store", "model", true},
		{"cmd", "tracer/store", true},
		{"", "cmd", true},
	}
	for _, c := range cases {
		from, _ := layerOf(modulePath + "/" + c.from)
		if c.from == "" {
			from = ""
		}
		to, _ := layerOf(modulePath + "/" + c.to)
		ok := false
		for _, a := range layers[from] {
			ok = ok || a == to
		}
		if ok != c.ok {
			t.Errorf("%s → %s: allowed %v, want %v", c.from, c.to, ok, c.ok)
		}
	}
}
