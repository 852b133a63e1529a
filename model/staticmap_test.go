package model

import (
	"encoding/json"
	"testing"
)

func TestPositionText(t *testing.T) {
	tests := []struct {
		in      string
		want    Position
		wantErr bool
	}{
		{"model/runtime/loop.go:119", Position{"model/runtime/loop.go", 119}, false},
		{"github.com/x/y@v1/a.go:3", Position{"github.com/x/y@v1/a.go", 3}, false},
		{"", Position{}, false},
		{"a.go", Position{}, true},
		{"a.go:x", Position{}, true},
		{"a.go:-2", Position{}, true},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := ParsePosition(tt.in)
			if (err != nil) != tt.wantErr {
				t.Fatalf("ParsePosition(%q) error = %v, wantErr %v", tt.in, err, tt.wantErr)
			}
			if err == nil && got != tt.want {
				t.Errorf("ParsePosition(%q) = %v, want %v", tt.in, got, tt.want)
			}
		})
	}
}

func TestMapJSONKeys(t *testing.T) {
	m := Map{Packages: []string{"p"}, Entries: []Entry{{
		Func: "p.Run", Pos: Position{"p/run.go", 3},
		Loops: []Loop{{Pos: Position{"p/run.go", 5}, Kind: LoopFor, Bound: &Bound{Expr: "max", Default: "5"},
			OnBound: &OnBound{Kind: OnBoundError, StopReason: StopMaxSteps}, ModelCalls: []CallSite{}, ToolCalls: []CallSite{}}},
		Exits: []Exit{{Pos: Position{"p/run.go", 9}, Outcome: string(StatusCompleted)}},
	}}}
	data, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	var raw struct {
		Entries []map[string]json.RawMessage `json:"entries"`
	}
	if err := json.Unmarshal(data, &raw); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"func", "pos", "loops", "exits"} {
		if _, ok := raw.Entries[0][k]; !ok {
			t.Errorf("entry key %q missing in %s", k, data)
		}
	}
	var loops []map[string]json.RawMessage
	if err := json.Unmarshal(raw.Entries[0]["loops"], &loops); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"pos", "kind", "bound", "on_bound", "model_calls", "tool_calls", "parallel_tools", "checks_cancel"} {
		if _, ok := loops[0][k]; !ok {
			t.Errorf("loop key %q missing", k)
		}
	}
	if string(raw.Entries[0]["pos"]) != `"p/run.go:3"` {
		t.Errorf("pos = %s, want \"p/run.go:3\"", raw.Entries[0]["pos"])
	}
	var back Map
	if err := json.Unmarshal(data, &back); err != nil {
		t.Fatal(err)
	}
	if back.Entries[0].Loops[0].Pos != m.Entries[0].Loops[0].Pos {
		t.Errorf("round trip lost the loop position")
	}
}

func TestConfidenceRank(t *testing.T) {
	if !(ConfidenceDeclared.Rank() > ConfidenceProfile.Rank() && ConfidenceProfile.Rank() > ConfidenceInferred.Rank() && ConfidenceInferred.Rank() > Confidence("").Rank()) {
		t.Error("confidence ranks out of order")
	}
}
