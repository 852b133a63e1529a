package json

import (
	"bytes"
	stdjson "encoding/json"
	"fmt"
	"io"
	"math/rand"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/lifeline-dev/lifeline/model"
	"github.com/lifeline-dev/lifeline/render/internal/rendertest"
)

func render(t testing.TB, tr *model.Tree, f []model.Finding) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := Render(&buf, tr, Options{Findings: f}); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestGolden(t *testing.T) {
	for _, sc := range rendertest.All(t) {
		t.Run(sc.Name, func(t *testing.T) {
			rendertest.Golden(t, sc.Name+".json", render(t, sc.Tree, sc.Findings))
		})
	}
}

// TestSameAsEncodingJSON checks that "sessions", "timeless", "notes" and "findings" decode to
// exactly what encoding/json makes of the model's own types.
func TestSameAsEncodingJSON(t *testing.T) {
	scs := append(rendertest.All(t), rendertest.Scenario{Name: "big", Tree: rendertest.Big(2000)},
		rendertest.Scenario{Name: "many-sessions", Tree: manySessions(t, 300)})
	for _, sc := range scs {
		t.Run(sc.Name, func(t *testing.T) {
			var got map[string]any
			if err := stdjson.Unmarshal(render(t, sc.Tree, sc.Findings), &got); err != nil {
				t.Fatalf("invalid JSON: %v", err)
			}
			want := map[string]any{}
			for key, v := range map[string]any{"sessions": sc.Tree.Sessions, "notes": sc.Tree.Notes, "findings": sc.Findings} {
				b, err := stdjson.Marshal(v)
				if err != nil {
					t.Fatal(err)
				}
				var x any
				if err := stdjson.Unmarshal(b, &x); err != nil {
					t.Fatal(err)
				}
				want[key] = x
			}
			for key := range want {
				g, w := got[key], want[key]
				if w == nil && (g == nil || reflect.DeepEqual(g, []any{})) {
					continue
				}
				if !reflect.DeepEqual(g, w) {
					gb, _ := stdjson.Marshal(g)
					wb, _ := stdjson.Marshal(w)
					t.Errorf("%s differs from encoding/json:\n got %.2000s\nwant %.2000s", key, gb, wb)
				}
			}
			if got["timeless"] != sc.Tree.Timeless {
				t.Errorf("timeless = %v, want %v", got["timeless"], sc.Tree.Timeless)
			}
			// The tree decodes back into model.Tree.
			var back model.Tree
			if err := stdjson.Unmarshal(render(t, sc.Tree, nil), &back); err != nil {
				t.Fatalf("decode into model.Tree: %v", err)
			}
			if back.Summarize() != sc.Tree.Summarize() {
				t.Errorf("summary after decoding = %+v, want %+v", back.Summarize(), sc.Tree.Summarize())
			}
		})
	}
}

func TestSummaryAndRuns(t *testing.T) {
	sc := rendertest.Subagent()
	var doc struct {
		Summary map[string]any   `json:"summary"`
		Runs    []map[string]any `json:"runs"`
	}
	if err := stdjson.Unmarshal(render(t, sc.Tree, nil), &doc); err != nil {
		t.Fatal(err)
	}
	wantKeys := []string{"failed_tool_calls", "model_calls", "runs", "sessions", "steps", "tool_calls", "turns"}
	var keys []string
	for k, v := range doc.Summary {
		keys = append(keys, k)
		if f, ok := v.(float64); !ok || f != float64(int64(f)) {
			t.Errorf("summary.%s = %v, want an integer", k, v)
		}
	}
	if strings.Join(sortStrings(keys), ",") != strings.Join(wantKeys, ",") {
		t.Errorf("summary keys = %v, want exactly %v", keys, wantKeys)
	}
	s := sc.Tree.Summarize()
	if doc.Summary["runs"] != float64(s.Runs) || doc.Summary["tool_calls"] != float64(s.ToolCalls) {
		t.Errorf("summary = %v, want %+v", doc.Summary, s)
	}
	if len(doc.Runs) != 4 {
		t.Fatalf("runs = %d, want 4", len(doc.Runs))
	}
	for _, tc := range []struct {
		i                              int
		id, status, stop, parent, kind string
	}{
		{0, "run-parent", "completed", "goal_reached", "", ""},
		{1, "run-child", "completed", "goal_reached", "run-parent", "subagent"},
		{2, "run-try1", "failed", "timeout", "", ""},
		{3, "run-try2", "completed", "goal_reached", "run-try1", "retry"},
	} {
		r := doc.Runs[tc.i]
		if r["id"] != tc.id || r["status"] != tc.status || r["stop_reason"] != tc.stop {
			t.Errorf("runs[%d] = %v", tc.i, r)
		}
		if p, _ := r["parent_run_id"].(string); p != tc.parent {
			t.Errorf("runs[%d].parent_run_id = %q, want %q", tc.i, p, tc.parent)
		}
		if k, _ := r["kind"].(string); k != tc.kind {
			t.Errorf("runs[%d].kind = %q, want %q", tc.i, k, tc.kind)
		}
	}
}

func sortStrings(s []string) []string {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j] < s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
	return s
}

func TestEmpty(t *testing.T) {
	got := string(render(t, nil, nil))
	if !strings.HasPrefix(got, `{"summary":{"sessions":0,`) || !stdjson.Valid([]byte(got)) {
		t.Errorf("empty tree: %s", got)
	}
}

func BenchmarkRender100k(b *testing.B) {
	tr := rendertest.Big(100_000)
	rendertest.Bench(b, func(w io.Writer) error { return Render(w, tr, Options{}) })
}

func TestAttrValuesMatchEncodingJSON(t *testing.T) {
	vals := []any{nil, true, "a<b>&\"\\\u2028", 0.0, -1.5, 1e-7, 123456789.0, 1e21, 3e-9, 42.0, int64(7), 5,
		map[string]any{"b": []any{1.0, "x", map[string]any{}}, "a": nil}, []any{},
		[]model.ToolCallRef{{ID: "c<1>", Name: "get_weather"}, {}}, []model.ToolCallRef{}}
	for _, v := range vals {
		var e enc
		e.value(v, 0)
		want, err := stdjson.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		if string(e.buf) != string(want) {
			t.Errorf("value(%#v) = %s, encoding/json gives %s", v, e.buf, want)
		}
	}
}

// manySessions builds a tree of n sessions (more than one chunk of the parallel renderer).
func manySessions(t *testing.T, n int) *model.Tree {
	t.Helper()
	base := rendertest.Basic().Tree
	tree := &model.Tree{}
	for i := 0; i < n; i++ {
		se := *base.Sessions[0]
		se.ID = fmt.Sprintf("%s-%03d", se.ID, i)
		tree.Sessions = append(tree.Sessions, &se)
	}
	return tree
}

// FuzzJSONTextValue: an attribute text a canonical log kept as its literal (model.JSONText) is
// written exactly as the same text read as a string.
func FuzzJSONTextValue(f *testing.F) {
	f.Add(`a "quoted" <tag> & \ é` + "\n\t\r\x01\x7f\u2028")
	f.Add(strings.Repeat("plain words ", 10))
	f.Fuzz(func(t *testing.T, s string) {
		s = strings.Repeat("x", 64) + s
		lit, _ := stdjson.Marshal(s)
		line := []byte(`{"v":1,"seq":1,"type":"session/start","session_id":"s","attrs":{"t":` + string(lit) + `}}`)
		kept := model.LineDecoder{KeepText: true}
		ev, err := kept.Decode(line)
		if err != nil {
			t.Skip(err) // the fast decoder declined; nothing kept
		}
		plain, err := model.DecodeLine(line)
		if err != nil {
			t.Fatal(err)
		}
		var a, b enc
		a.value(ev.Attrs, 0)
		b.value(plain.Attrs, 0)
		if !bytes.Equal(a.buf, b.buf) {
			t.Fatalf("kept %T written as %s, the string as %s", ev.Attrs["t"], a.buf, b.buf)
		}
		if got, _ := model.AttrString(ev.Attrs["t"]); got != plain.Attrs["t"] {
			t.Fatalf("AttrString = %q, want %q", got, plain.Attrs["t"])
		}
	})
}

// TestTimeFormat: times are written as time.RFC3339Nano writes them, also when the part up to
// the second is reused from the time before.
func TestTimeFormat(t *testing.T) {
	locs := []*time.Location{time.UTC, time.FixedZone("", 2*3600), time.FixedZone("X", -(5*3600 + 30*60))}
	rng := rand.New(rand.NewSource(1))
	var e enc
	base := time.Date(2026, 11, 29, 8, 0, 0, 0, time.UTC)
	for i := range 5000 {
		ts := base.Add(time.Duration(rng.Int63n(int64(3 * time.Second))))
		switch i % 7 {
		case 0:
			ts = ts.Truncate(time.Second)
		case 1:
			ts = ts.Truncate(time.Millisecond)
		case 2:
			ts = time.Date(rng.Intn(10000), time.Month(1+rng.Intn(12)), 1+rng.Intn(28), rng.Intn(24), rng.Intn(60), rng.Intn(60), rng.Intn(1e9), time.UTC)
		}
		ts = ts.In(locs[rng.Intn(len(locs))])
		e.buf = e.buf[:0]
		e.time(ts)
		if want := `"` + ts.Format(time.RFC3339Nano) + `"`; string(e.buf) != want {
			t.Fatalf("%v written %s, want %s", ts, e.buf, want)
		}
	}
}
