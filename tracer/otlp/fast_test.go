package otlp

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/lifeline-dev/lifeline/tracer/otlp/spantree"
)

// slowRecord reads one record with the token reader only.
func slowRecord(data []byte) *parsed {
	p := parser{rec: spantree.Record{Data: data, Line: 1}, out: &parsed{}, noFast: true}
	p.record()
	return p.out
}

// checkFast asserts that when the fast reader accepts a record, the token reader reads the same
// spans from it without a problem. It returns whether the fast reader accepted it.
func checkFast(t *testing.T, data []byte) bool {
	t.Helper()
	if !utf8.Valid(data) {
		return false
	}
	spans, ok := fastRecord(data, 1)
	if !ok {
		return false
	}
	slow := slowRecord(data)
	if len(slow.errs) > 0 {
		t.Fatalf("fast reader accepted a record the token reader reports (%v): %.300q", slow.errs[0].err, data)
	}
	if !reflect.DeepEqual(spans, slow.spans) {
		t.Fatalf("fast and token readers differ on %.300q", data)
	}
	return true
}

// TestFastReaderEquivalence: on every OTLP file of the repository (each document compacted to
// one line, as the file exporter writes it) and on variations of it, the fast reader gives the
// token reader's spans, or gives up.
func TestFastReaderEquivalence(t *testing.T) {
	var files []string
	for _, g := range []string{"../../testdata/*/*/*.otlp.json*", "../../testdata/*/*.otlp.json*", "testdata/*.otlp.json*"} {
		m, _ := filepath.Glob(g)
		files = append(files, m...)
	}
	if len(files) == 0 {
		t.Fatal("no OTLP files found")
	}
	accepted := 0
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		dec := json.NewDecoder(bytes.NewReader(b))
		for {
			var doc json.RawMessage
			if dec.Decode(&doc) != nil {
				break
			}
			var line bytes.Buffer
			if err := json.Compact(&line, doc); err != nil {
				t.Fatal(err)
			}
			variants := [][]byte{line.Bytes(), doc,
				[]byte(strings.ReplaceAll(line.String(), `"resourceSpans"`, `"resource_spans"`)),
				[]byte(strings.ReplaceAll(line.String(), `"stringValue":"`, `"stringValue": "x\"\\n`)),
				[]byte(strings.ReplaceAll(line.String(), `"intValue":"`, `"intValue":"1`)),
				[]byte(strings.ReplaceAll(line.String(), `"code":2`, `"code":"STATUS_CODE_ERROR"`)),
			}
			for _, v := range variants {
				if checkFast(t, v) {
					accepted++
				}
			}
			// truncations and corruptions must never be accepted with other spans
			for i := 1; i < len(line.Bytes()); i += 1 + len(line.Bytes())/97 {
				checkFast(t, line.Bytes()[:i])
				c := bytes.Clone(line.Bytes())
				c[i] = '"'
				checkFast(t, c)
			}
		}
	}
	t.Logf("fast reader accepted %d records", accepted)
	if accepted == 0 {
		t.Fatal("the fast reader accepted no record")
	}
}

func FuzzFastReader(f *testing.F) {
	f.Add([]byte(`{"resourceSpans":[{"scopeSpans":[{"spans":[{"traceId":"01","spanId":"0A","name":"x","attributes":[{"key":"gen_ai.operation.name","value":{"stringValue":"chat"}}]}]}]}]}`))
	f.Add([]byte(`{"resourceSpans":[{"resource":{"attributes":[{"key":"session.id","value":{"intValue":7}}]},"scopeSpans":[{"spans":[{"spanId":"AAAAAAAAAAE=","status":{"code":"ERROR"},"events":[{"name":"exception","attributes":[{"key":"exception.type","value":{"stringValue":"E"}}]}]}]}]}]}`))
	f.Fuzz(func(t *testing.T, data []byte) { checkFast(t, data) })
}

func checkToolCalls(t *testing.T, s string) {
	t.Helper()
	got, ok := fastToolCalls(s)
	if !ok {
		return
	}
	var msgs []any
	_ = json.Unmarshal([]byte(s), &msgs)
	var want []spantree.Request
	for _, m := range msgs {
		mm, _ := m.(map[string]any)
		parts, _ := mm["parts"].([]any)
		for _, pt := range parts {
			pm, _ := pt.(map[string]any)
			if pm["type"] == "tool_call" {
				id, _ := pm["id"].(string)
				name, _ := pm["name"].(string)
				want = append(want, spantree.Request{ID: id, Name: name})
			}
		}
	}
	if len(got) != len(want) || (len(got) > 0 && !reflect.DeepEqual(got, want)) {
		t.Fatalf("fastToolCalls(%q) = %v, want %v", s, got, want)
	}
}

func TestFastToolCalls(t *testing.T) {
	for _, s := range toolCallSeeds {
		checkToolCalls(t, s)
		for i := 1; i < len(s); i++ {
			checkToolCalls(t, s[:i])
		}
	}
}

var toolCallSeeds = []string{
	`[{"role":"assistant","parts":[{"type":"tool_call","id":"call_1","name":"get_weather","arguments":{"city":"Paris"}},{"type":"text","content":"x"}]}]`,
	`[{"parts":[{"type":"tool_call","id":"a"}],"parts":[{"type":"tool_call","name":"b","type":"text"},{"type":"tool_call","id":1,"name":"n\"q"}]},null,3,{"parts":null}]`,
	`{"parts":[{"type":"tool_call"}]}`,
	`[{"parts":[{"type":"tool_call","id":"x"}]}] x`,
	`[{"parts":[{"type":"tool_call","name":"\u0041"}]}]`,
	`[]`, `no tool_call here`,
}

func FuzzFastToolCalls(f *testing.F) {
	for _, s := range toolCallSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if utf8.ValidString(s) {
			checkToolCalls(t, s)
		}
	})
}

// TestFastReaderStrings: escapes and control characters in strings, around the jumps rawString
// makes from quote to backslash.
func TestFastReaderStrings(t *testing.T) {
	rec := func(name string) []byte {
		return []byte(`{"resourceSpans":[{"scopeSpans":[{"spans":[{"traceId":"01","spanId":"0A","name":"` + name + `"}]}]}]}`)
	}
	for _, tt := range []struct {
		name   string
		accept bool
	}{
		{`plain`, true},
		{`a\"b\\c\nd\/e\tf`, true},
		{`\\\\\\\\`, true},
		{`ends with a backslash\\`, true},
		{"raw\x01control", false},
		{"raw\ttab", false},
		{`bad \x escape`, false},
		{`unicode \u00e9 escape`, false}, // left to the token reader
	} {
		data := rec(tt.name)
		if got := checkFast(t, data); got != tt.accept {
			t.Errorf("%q: fast reader accepted %v, want %v", tt.name, got, tt.accept)
		}
	}
	// a tab between tokens is JSON whitespace: still read fast
	if !checkFast(t, bytes.Replace(rec("x"), []byte(`,"name"`), []byte(",\t\"name\""), 1)) {
		t.Error("tab as whitespace refused")
	}
}

// TestHasControl: a byte below 0x20 is found wherever it sits, whatever surrounds it.
func TestHasControl(t *testing.T) {
	for _, fill := range []byte{'a', ' ', 0x7f, 0x80, 0xff} {
		for n := range 20 {
			for pos := range n {
				for c := range 256 {
					b := bytes.Repeat([]byte{fill}, n)
					b[pos] = byte(c)
					if got := hasControl(b); got != (c < 0x20) {
						t.Fatalf("hasControl(%q) = %v", b, got)
					}
				}
			}
		}
	}
}

// TestAttrSet: every key a span has is found whatever its convention; keys of conventions the
// span does not use are not looked up.
func TestAttrSet(t *testing.T) {
	m := map[string]any{"gen_ai.operation.name": "chat", "lifeline.kind": "retry", "ai.operationId": "ai.toolCall",
		"langfuse.session.id": "s", "llm.model_name": "m", "session.id": "x", "input.value": "v"}
	a := newAttrSet(m)
	for k, want := range m {
		if got, ok := a.get(k); !ok || got != want {
			t.Errorf("get(%q) = %v, %v", k, got, ok)
		}
	}
	only := newAttrSet(map[string]any{"gen_ai.operation.name": "chat"})
	if only.fam != famGenAI {
		t.Errorf("families %b, want gen_ai only", only.fam)
	}
	for _, k := range []string{"lifeline.kind", "ai.operationId", "llm.model_name", "gen_ai.request.model"} {
		if v, ok := only.get(k); ok {
			t.Errorf("get(%q) = %v on a span without it", k, v)
		}
	}
}

// TestFastReaderAttributeShapes: attributes in the exporters' shape and in every other legal
// shape read the same as with the token reader.
func TestFastReaderAttributeShapes(t *testing.T) {
	for _, attr := range []string{
		`{"key":"gen_ai.operation.name","value":{"stringValue":"chat"}}`,
		`{"key":"gen_ai.usage.input_tokens","value":{"intValue":"12"}}`,
		`{"key":"gen_ai.operation.name","value":{"stringValue":"chat","extra":1}}`,
		`{"key":"gen_ai.operation.name","value":{"stringValue":"chat"},"extra":1}`,
		`{"value":{"stringValue":"chat"},"key":"gen_ai.operation.name"}`,
		`{ "key" : "gen_ai.operation.name" , "value" : { "stringValue" : "chat" } }`,
		`{"key":"gen_ai.operation\u002ename","value":{"stringValue":"chat"}}`,
		`{"key":"gen_ai.operation.name","value":{"stringValue":null}}`,
		`{"key":"unknown.key","value":{"stringValue":"x"}}`,
		`{"key":"unknown.key","value":{"stringValue":"x"},"more":[1,2]}`,
	} {
		data := []byte(`{"resourceSpans":[{"scopeSpans":[{"spans":[{"traceId":"01","spanId":"0A","name":"x","attributes":[` + attr + `,{"key":"gen_ai.request.model","value":{"stringValue":"m"}}]}]}]}]}`)
		checkFast(t, data)
		if got := slowRecord(data); len(got.errs) > 0 || len(got.spans) != 1 {
			t.Errorf("%s: token reader: %d spans, %v", attr, len(got.spans), got.errs)
		}
	}
}
