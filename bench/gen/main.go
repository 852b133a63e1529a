// Command gen writes large synthetic traces for lifeline's performance measurements (see
// bench/run.sh): a canonical event log or an OTLP file-exporter file (JSON Lines, one TracesData
// per line, GenAI semantic-convention attributes with message content, children before parents
// as SDK exporters write them), of at least the requested size. Two more canonical shapes
// measure what memory grows with (bench/memory.sh): one run whose single turn has -n steps, and
// -n small runs (one turn, one step, one model call each), -per runs to a session.
//
//	go run ./bench/gen -format canonical -size 1GB -o /tmp/big.canonical.jsonl
//	go run ./bench/gen -format otlp -size 1GB -o /tmp/big.otlp.jsonl
//	go run ./bench/gen -format long-turn -n 500000 -o /tmp/steps.jsonl
//	go run ./bench/gen -format small-runs -n 1000000 -per 1 -o /tmp/runs.jsonl
package main

import (
	"bufio"
	"flag"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"
)

func main() {
	format := flag.String("format", "otlp", "canonical or otlp")
	size := flag.String("size", "1GB", "minimum output size (e.g. 100MB, 1GB)")
	out := flag.String("o", "", "output file (default stdout)")
	n := flag.Int("n", 500000, "long-turn: steps; small-runs: runs")
	per := flag.Int("per", 1, "small-runs: runs per session")
	flag.Parse()
	limit, err := parseSize(*size)
	if err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(2)
	}
	f := os.Stdout
	if *out != "" {
		if f, err = os.Create(*out); err != nil {
			fmt.Fprintln(os.Stderr, "gen:", err)
			os.Exit(1)
		}
	}
	w := &counter{w: bufio.NewWriterSize(f, 1<<20)}
	switch *format {
	case "canonical":
		canonical(w, limit)
	case "otlp":
		otlp(w, limit)
	case "long-turn":
		longTurn(w, *n)
	case "small-runs":
		smallRuns(w, *n, max(*per, 1))
	default:
		fmt.Fprintln(os.Stderr, "gen: -format canonical, otlp, long-turn or small-runs")
		os.Exit(2)
	}
	if err := w.w.Flush(); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
	f.Close()
}

type counter struct {
	w *bufio.Writer
	n int64
}

func (c *counter) line(s string) {
	c.n += int64(len(s)) + 1
	c.w.WriteString(s)
	c.w.WriteByte('\n')
}

func parseSize(s string) (int64, error) {
	u := int64(1)
	s = strings.ToUpper(strings.TrimSpace(s))
	for suf, m := range map[string]int64{"GB": 1 << 30, "MB": 1 << 20, "KB": 1 << 10} {
		if strings.HasSuffix(s, suf) {
			s, u = strings.TrimSuffix(s, suf), m
			break
		}
	}
	n, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return 0, fmt.Errorf("bad -size %q", s)
	}
	return int64(n * float64(u)), nil
}

var base = time.Date(2026, 11, 29, 8, 0, 0, 0, time.UTC)

// text is filler message content, JSON-escaped already.
var text = strings.Repeat(`The weather in Paris is 18C with light rain; \"quoted\" detail and more words. `, 12)

// canonical writes sessions of 4 runs × 1 turn × 6 steps (model call + 2 tool calls each).
func canonical(w *counter, limit int64) {
	ts := base
	for s := 0; w.n < limit; s++ {
		sid := fmt.Sprintf("s%07d", s)
		seq := 0
		ev := func(typ, extra string) {
			seq++
			ts = ts.Add(time.Millisecond)
			w.line(fmt.Sprintf(`{"v":1,"seq":%d,"ts":%q,"type":%q,"session_id":%q%s}`, seq, ts.Format(time.RFC3339Nano), typ, sid, extra))
		}
		ev("session/start", `,"source":"runtime"`)
		for r := 0; r < 4; r++ {
			rid := fmt.Sprintf(`,"run_id":"%s-r%d"`, sid, r)
			tid := rid + fmt.Sprintf(`,"turn_id":"%s-r%d-t1"`, sid, r)
			ev("run/start", rid+`,"attempt":1,"name":"bench-agent","source":"runtime"`)
			ev("turn/start", tid+`,"source":"runtime"`)
			for st := 0; st < 6; st++ {
				sp := tid + fmt.Sprintf(`,"step_id":"%s-r%d-s%d"`, sid, r, st)
				ev("step/start", sp+`,"source":"runtime"`)
				mc := sp + fmt.Sprintf(`,"call_id":"%s-r%d-m%d"`, sid, r, st)
				ev("model/start", mc+`,"name":"gpt-4.1","source":"model"`)
				ev("model/end", mc+`,"outcome":"ok","usage":{"input_tokens":812,"output_tokens":37},"source":"model","attrs":{"text":"`+text+`"}`)
				if st < 5 {
					for k := 0; k < 2; k++ {
						tc := sp + fmt.Sprintf(`,"call_id":"%s-r%d-c%d-%d"`, sid, r, st, k)
						ev("tool/start", tc+`,"name":"get_weather","source":"tool","attrs":{"args":{"city":"Paris"}}`)
						ev("tool/end", tc+`,"outcome":"ok","source":"tool","attrs":{"result":"`+text[:200]+`"}`)
					}
				}
				ev("step/end", sp+`,"outcome":"ok","source":"runtime"`)
			}
			ev("turn/end", tid+`,"outcome":"ok","stop_reason":"goal_reached","source":"runtime"`)
			ev("run/end", rid+`,"status":"completed","stop_reason":"goal_reached","source":"runtime"`)
		}
	}
}

// longTurn writes one session with one run whose one turn has n steps (a model call and a tool
// call each).
func longTurn(w *counter, n int) {
	ts, seq := base, 0
	ev := func(typ, extra string) {
		seq++
		ts = ts.Add(time.Millisecond)
		w.line(fmt.Sprintf(`{"v":1,"seq":%d,"ts":%q,"type":%q,"session_id":"s1"%s}`, seq, ts.Format(time.RFC3339Nano), typ, extra))
	}
	ev("session/start", `,"source":"runtime"`)
	ev("run/start", `,"run_id":"r1","attempt":1,"source":"runtime"`)
	ev("turn/start", `,"run_id":"r1","turn_id":"t1","source":"runtime"`)
	for i := 0; i < n; i++ {
		sp := fmt.Sprintf(`,"run_id":"r1","turn_id":"t1","step_id":"st%d"`, i)
		ev("step/start", sp+`,"source":"runtime"`)
		ev("model/start", sp+fmt.Sprintf(`,"call_id":"m%d","name":"gpt-4.1","source":"model"`, i))
		ev("model/end", sp+fmt.Sprintf(`,"call_id":"m%d","outcome":"ok","usage":{"input_tokens":812,"output_tokens":37},"source":"model"`, i))
		ev("tool/start", sp+fmt.Sprintf(`,"call_id":"c%d","name":"get_weather","source":"tool"`, i))
		ev("tool/end", sp+fmt.Sprintf(`,"call_id":"c%d","outcome":"ok","source":"tool"`, i))
		ev("step/end", sp+`,"outcome":"ok","source":"runtime"`)
	}
	ev("turn/end", `,"run_id":"r1","turn_id":"t1","outcome":"ok","stop_reason":"goal_reached","source":"runtime"`)
	ev("run/end", `,"run_id":"r1","status":"completed","stop_reason":"goal_reached","source":"runtime"`)
	ev("session/end", `,"source":"runtime"`)
}

// smallRuns writes n runs of one turn, one step and one model call each, per runs to a session.
func smallRuns(w *counter, n, per int) {
	ts := base
	for r := 0; r < n; r += per {
		sid, seq := fmt.Sprintf("s%d", r/per), 0
		ev := func(typ, extra string) {
			seq++
			ts = ts.Add(time.Millisecond)
			w.line(fmt.Sprintf(`{"v":1,"seq":%d,"ts":%q,"type":%q,"session_id":%q%s}`, seq, ts.Format(time.RFC3339Nano), typ, sid, extra))
		}
		ev("session/start", `,"source":"runtime"`)
		for k := r; k < min(r+per, n); k++ {
			rid := fmt.Sprintf(`,"run_id":"r%d"`, k)
			tid := rid + fmt.Sprintf(`,"turn_id":"t%d"`, k)
			sp := tid + fmt.Sprintf(`,"step_id":"st%d"`, k)
			ev("run/start", rid+`,"attempt":1,"source":"runtime"`)
			ev("turn/start", tid+`,"source":"runtime"`)
			ev("step/start", sp+`,"source":"runtime"`)
			ev("model/start", sp+fmt.Sprintf(`,"call_id":"m%d","name":"gpt-4.1","source":"model"`, k))
			ev("model/end", sp+fmt.Sprintf(`,"call_id":"m%d","outcome":"ok","usage":{"input_tokens":812,"output_tokens":37},"source":"model"`, k))
			ev("step/end", sp+`,"outcome":"ok","source":"runtime"`)
			ev("turn/end", tid+`,"outcome":"ok","stop_reason":"goal_reached","source":"runtime"`)
			ev("run/end", rid+`,"status":"completed","stop_reason":"goal_reached","source":"runtime"`)
		}
		ev("session/end", `,"source":"runtime"`)
	}
}

func kv(k, v string) string { return `{"key":"` + k + `","value":{"stringValue":"` + v + `"}}` }
func kvi(k string, v int) string {
	return `{"key":"` + k + `","value":{"intValue":"` + strconv.Itoa(v) + `"}}`
}

// otlp writes one trace per line: invoke_agent root, 6 chat spans (the first 5 ask for two
// tools each) and their execute_tool spans; children first, root last.
func otlp(w *counter, limit int64) {
	ts := base.UnixNano()
	var b strings.Builder
	for tr := 0; w.n < limit; tr++ {
		trace := fmt.Sprintf("%032x", tr+1)
		root := fmt.Sprintf("%016x", tr*100+1)
		b.Reset()
		b.WriteString(`{"resourceSpans":[{"resource":{"attributes":[` + kv("service.name", "bench") + `]},"scopeSpans":[{"scope":{"name":"bench.agent","version":"1.0"},"spans":[`)
		start := ts
		t := ts
		first := true
		span := func(id, name string, s, e int64, attrs string, status string) {
			if !first {
				b.WriteByte(',')
			}
			first = false
			fmt.Fprintf(&b, `{"traceId":"%s","spanId":"%s","parentSpanId":"%s","name":"%s","kind":1,"startTimeUnixNano":"%d","endTimeUnixNano":"%d","attributes":[%s],"status":%s}`,
				trace, id, root, name, s, e, attrs, status)
		}
		for st := 0; st < 6; st++ {
			mid := fmt.Sprintf("%016x", tr*100+10+st)
			out := `[{\"role\":\"assistant\",\"parts\":[{\"type\":\"text\",\"content\":\"` + strings.ReplaceAll(text, `\"`, `'`) + `\"}]}]`
			if st < 5 {
				out = fmt.Sprintf(`[{\"role\":\"assistant\",\"parts\":[{\"type\":\"tool_call\",\"id\":\"call_%d_%d_0\",\"name\":\"get_weather\",\"arguments\":{}},{\"type\":\"tool_call\",\"id\":\"call_%d_%d_1\",\"name\":\"get_time\",\"arguments\":{}}]}]`, tr, st, tr, st)
			}
			span(mid, "chat gpt-4.1", t+1e6, t+30e6, kv("gen_ai.operation.name", "chat")+","+kv("gen_ai.provider.name", "openai")+","+kv("gen_ai.request.model", "gpt-4.1")+","+
				kvi("gen_ai.usage.input_tokens", 812)+","+kvi("gen_ai.usage.output_tokens", 37)+","+kv("gen_ai.input.messages", `[{\"role\":\"user\",\"parts\":[{\"type\":\"text\",\"content\":\"`+strings.ReplaceAll(text, `\"`, `'`)+`\"}]}]`)+","+
				kv("gen_ai.output.messages", out), `{"code":1}`)
			t += 30e6
			if st < 5 {
				for k, tool := range []string{"get_weather", "get_time"} {
					span(fmt.Sprintf("%016x", tr*100+40+st*2+k), "execute_tool "+tool, t+1e6, t+10e6,
						kv("gen_ai.operation.name", "execute_tool")+","+kv("gen_ai.tool.name", tool)+","+kv("gen_ai.tool.call.id", fmt.Sprintf("call_%d_%d_%d", tr, st, k))+","+
							kv("gen_ai.tool.call.arguments", `{\"city\":\"Paris\"}`)+","+kv("gen_ai.tool.call.result", "18C, light rain"), `{}`)
				}
				t += 10e6
			}
		}
		// the root last, with no parent
		b.WriteByte(',')
		fmt.Fprintf(&b, `{"traceId":"%s","spanId":"%s","parentSpanId":"","name":"invoke_agent bench","kind":1,"startTimeUnixNano":"%d","endTimeUnixNano":"%d","attributes":[%s,%s,%s],"status":{}}`,
			trace, root, start, t+1e6, kv("gen_ai.operation.name", "invoke_agent"), kv("gen_ai.agent.name", "bench"), kv("gen_ai.conversation.id", fmt.Sprintf("conv_%d", tr/4)))
		b.WriteString(`]}]}]}`)
		w.line(b.String())
		ts = t + 5e6
	}
}
