package main

import "testing"

// TestCount checks the counting rules on hand-made outputs: loops and call sites by position
// (a loop two entries share once), findings by check and position (a package and its test
// variant once), and a vet error object skipped.
func TestCount(t *testing.T) {
	tests := []struct {
		name                               string
		mapOut, vetOut                     string
		entries, loops, model, tool, finds int
	}{
		{"clean", `{"entries":[]}`, `{}`, 0, 0, 0, 0, 0},
		{"shared loop", `{"entries":[
			{"func":"a.A.Run","pos":"a.go:1","loops":[{"pos":"a.go:5","kind":"for","func":"a.A.run","model_calls":[{"pos":"a.go:6","callee":"m"}],"tool_calls":[{"pos":"a.go:9","callee":"t"},{"pos":"a.go:10","callee":"u"}]}]},
			{"func":"a.A.Stream","pos":"a.go:20","loops":[{"pos":"a.go:5","kind":"for","func":"a.A.run","model_calls":[{"pos":"a.go:6","callee":"m"}],"tool_calls":[{"pos":"a.go:9","callee":"t"}]}]}]}`,
			`{"a [a.test]":{"unboundedloop":[{"posn":"a.go:5:2","message":"x"}]},"a":{"unboundedloop":[{"posn":"a.go:5:2","message":"x"}],"loopcancel":[{"posn":"a.go:5:2","message":"y"}]},"b":{"error":{"message":"does not load"}}}`,
			2, 1, 1, 2, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := count(tt.name, []byte(tt.mapOut), []byte(tt.vetOut))
			if err != nil {
				t.Fatal(err)
			}
			got := [5]int{c.Entries, c.Loops, c.ModelSites, c.ToolSites, c.Findings}
			want := [5]int{tt.entries, tt.loops, tt.model, tt.tool, tt.finds}
			if got != want {
				t.Errorf("entries, loops, model, tool, findings = %v, want %v (%v)", got, want, c.Details)
			}
			if (c.Invented() == 0) != (tt.name == "clean") {
				t.Errorf("invented %d", c.Invented())
			}
		})
	}
	if _, err := count("bad", []byte(`{`), []byte(`{}`)); err == nil {
		t.Error("a map output that is not JSON: no error")
	}
}
