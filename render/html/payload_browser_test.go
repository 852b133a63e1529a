package html

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/lifeline-dev/lifeline/model"
	"github.com/lifeline-dev/lifeline/render/internal/browsertest"
	"github.com/lifeline-dev/lifeline/tracer"
)

// hostilePayload tries to end the page's data script and inject markup and script.
const hostilePayload = `</script><script>alert("payload")</script><img src=x onerror=alert(7)>`

// TestBrowserHostilePayloads reads an OTLP log whose GenAI model input and output and tool
// arguments and result hold markup and script (through the OTLP tracer and the payload policy,
// as lifeline timeline does), renders the page and opens the details of every row: the
// payloads are shown literally in the details pane, nothing runs, nothing is injected.
func TestBrowserHostilePayloads(t *testing.T) {
	esc := func(s string) string { return strings.ReplaceAll(strings.ReplaceAll(s, `\`, `\\`), `"`, `\"`) }
	msgs := esc(`[{"role":"user","parts":[{"type":"text","content":"` + esc(hostilePayload) + `"}]}]`)
	span := func(id, parent, name, op string, extra string) string {
		p := ""
		if parent != "" {
			p = `"parentSpanId":"` + parent + `",`
		}
		return fmt.Sprintf(`{"traceId":"0af7651916cd43dd8448eb211c80319c","spanId":"%s",%s"name":"%s","startTimeUnixNano":"1000000000","endTimeUnixNano":"2000000000","attributes":[{"key":"gen_ai.operation.name","value":{"stringValue":"%s"}}%s]}`, id, p, name, op, extra)
	}
	log := `{"resourceSpans":[{"scopeSpans":[{"spans":[` + strings.Join([]string{
		span("a000000000000001", "", "invoke_agent helper", "invoke_agent", `,{"key":"gen_ai.agent.name","value":{"stringValue":"helper"}}`),
		span("b000000000000001", "a000000000000001", "chat m", "chat",
			`,{"key":"gen_ai.request.model","value":{"stringValue":"m"}},{"key":"gen_ai.input.messages","value":{"stringValue":"`+msgs+`"}},{"key":"gen_ai.output.messages","value":{"stringValue":"`+msgs+`"}}`),
		span("c000000000000001", "a000000000000001", "execute_tool t", "execute_tool",
			`,{"key":"gen_ai.tool.name","value":{"stringValue":"t"}},{"key":"gen_ai.tool.call.arguments","value":{"stringValue":"`+esc(hostilePayload)+`"}},{"key":"gen_ai.tool.call.result","value":{"stringValue":"`+esc(hostilePayload)+`"}}`),
	}, ",") + `]}]}]}`
	in := filepath.Join(t.TempDir(), "hostile.otlp.json")
	if err := os.WriteFile(in, []byte(log), 0o644); err != nil {
		t.Fatal(err)
	}
	proj := model.NewProjector()
	rep, err := tracer.Read([]string{in}, tracer.Options{Payload: model.PayloadPolicy{Max: model.DefaultPayloadMax}}, proj.Apply)
	if err != nil || len(rep.Errors) > 0 {
		t.Fatalf("reading the log: %v %v", err, rep.Errors)
	}
	tree := proj.Tree()
	var calls int
	tree.Walk(func(n any, _ int) bool {
		switch c := n.(type) {
		case *model.ModelCall:
			if s, _ := model.AttrString(c.Attrs[model.AttrInput]); strings.Contains(s, "onerror=alert(7)") {
				calls++
			}
		case *model.ToolCall:
			if s, _ := model.AttrString(c.Attrs[model.AttrResult]); s == hostilePayload {
				calls++
			}
		}
		return true
	})
	if calls != 2 {
		t.Fatalf("%d calls carry the payloads, want the model call and the tool call", calls)
	}
	var buf bytes.Buffer
	if err := Render(&buf, tree, nil, Options{}); err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(buf.Bytes(), []byte(`</script><script>alert("payload")`)) || bytes.Contains(buf.Bytes(), []byte(`<img src=x`)) {
		t.Fatal("the payload is in the page unescaped")
	}
	page := filepath.Join(t.TempDir(), "payloads.html")
	if err := os.WriteFile(page, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	b := browsertest.New(t, 1400, 900, 2*time.Minute)
	open(t, b, browsertest.FileURL(page))
	seen := 0
	for i := 0; i < eval[int](t, b, `window.lifeline.nodes`); i++ {
		if err := chromedp.Do(b.Ctx, chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`window.lifeline.select(%d)`, i))); err != nil {
			t.Fatal(err)
		}
		if strings.Contains(eval[string](t, b, `document.getElementById('d-body').textContent`), `<img src=x onerror=alert(7)>`) {
			seen++
		}
	}
	if seen != 2 {
		t.Errorf("the payload is shown literally in %d details panes, want 2 (model call, tool call)", seen)
	}
	if n := eval[int](t, b, `document.scripts.length`); n != 2 {
		t.Errorf("%d script elements, want 2", n)
	}
	if n := eval[int](t, b, `document.querySelectorAll('img, [onerror]').length`); n != 0 {
		t.Errorf("%d injected elements", n)
	}
	noErrors(t, b)
}
