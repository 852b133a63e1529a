package web

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"html/template"
	"net/http"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/lifeline-dev/lifeline/model/runindex"
	"github.com/lifeline-dev/lifeline/render/html"
)

// Paths of the UI.
const (
	RunsAPI    = "/api/runs"
	StreamPath = "/api/stream"
	RunPage    = "/run"
	TimeLine   = "/run/timeline"
	Metrics    = "/metrics"
)

type ui struct {
	st   Source
	done chan struct{}
}

func (u *ui) register(mux *http.ServeMux) {
	mux.HandleFunc("GET /{$}", u.list)
	mux.HandleFunc("GET "+RunsAPI, u.runsAPI)
	mux.HandleFunc("GET "+RunPage, u.runPage)
	mux.HandleFunc("GET "+TimeLine, u.timeline)
	mux.HandleFunc("GET "+StreamPath, u.stream)
	mux.HandleFunc("GET "+Metrics, u.metrics)
}

// query reads the list filters from the URL: status, stop_reason, q (search), failed, limit.
func query(r *http.Request) runindex.Query {
	v := r.URL.Query()
	q := runindex.Query{Status: v.Get("status"), StopReason: v.Get("stop_reason"), Search: v.Get("q"), Failed: v.Get("failed") != ""}
	q.Limit, _ = strconv.Atoi(v.Get("limit"))
	return q
}

func (u *ui) runsAPI(w http.ResponseWriter, r *http.Request) {
	rows, err := u.st.Runs(query(r))
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	if rows == nil {
		rows = []runindex.Row{}
	}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(rows)
}

//go:embed list.html
var listHTML string

//go:embed run.html
var runHTML string

var (
	listTmpl = template.Must(template.New("list").Funcs(template.FuncMap{"dur": fmtDur, "cost": fmtCost, "ts": fmtTS}).Parse(listHTML))
	runTmpl  = template.Must(template.New("run").Parse(runHTML))
)

// csp lets the UI's own pages run their inline script, frame the timeline page and open the
// event stream on this server, and nothing else.
const csp = "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; connect-src 'self'; frame-src 'self'; base-uri 'none'; form-action 'self'"

func fmtDur(d time.Duration) string {
	if d == 0 {
		return ""
	}
	return d.Round(time.Millisecond).String()
}

func fmtCost(c float64) string {
	if c == 0 {
		return ""
	}
	return fmt.Sprintf("$%.4f", c)
}

func fmtTS(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format("2006-01-02 15:04:05")
}

func (u *ui) list(w http.ResponseWriter, r *http.Request) {
	q := query(r)
	rows, err := u.st.Runs(q)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	counts, _ := u.st.CountRuns()
	statuses, reasons := map[string]bool{}, map[string]bool{}
	for _, c := range counts {
		statuses[c.Status] = true
		if c.StopReason != "" {
			reasons[c.StopReason] = true
		}
	}
	c := u.st.Counters()
	var buf bytes.Buffer
	err = listTmpl.Execute(&buf, map[string]any{
		"Rows": rows, "Q": q, "Statuses": keys(statuses), "Reasons": keys(reasons),
		"Spans": c.Spans, "Events": c.Events, "Rejected": c.Rejected, "Dir": u.st.Dir(),
		"RunPage": RunPage, "Stream": StreamPath,
	})
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Security-Policy", csp)
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Write(buf.Bytes())
}

func keys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func (u *ui) runPage(w http.ResponseWriter, r *http.Request) {
	id := r.URL.Query().Get("id")
	if _, _, ok := u.st.Run(id); !ok {
		http.Error(w, fmt.Sprintf("no run %q in the store", id), http.StatusNotFound)
		return
	}
	var buf bytes.Buffer
	if err := runTmpl.Execute(&buf, map[string]any{"ID": id, "Timeline": TimeLine, "Stream": StreamPath}); err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Security-Policy", csp)
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Write(buf.Bytes())
}

// timeline is the run's page exactly as `lifeline timeline --format html` writes it.
func (u *ui) timeline(w http.ResponseWriter, r *http.Request) {
	id := r.URL.Query().Get("id")
	t, fs, ok := u.st.RunTree(id)
	if !ok {
		http.Error(w, fmt.Sprintf("no run %q in the store", id), http.StatusNotFound)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	if err := html.Render(w, t, fs, html.Options{Title: "run " + id}); err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
	}
}

// stream sends a server-sent event "change" each time the runs change, with the number of runs;
// with ?run=ID only when that run changed, with its row (the source says which runs each change touched: a new span or event of
// its session, a new status, usage or finding).
func (u *ui) stream(w http.ResponseWriter, r *http.Request) {
	fl, ok := w.(http.Flusher)
	if !ok {
		http.Error(w, "streaming unsupported", http.StatusInternalServerError)
		return
	}
	run := r.URL.Query().Get("run")
	ch, stop := u.st.Subscribe()
	defer stop()
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusOK)
	fmt.Fprint(w, ": lifeline\n\n")
	fl.Flush()
	_, last, _ := u.st.Run(run)
	for {
		select {
		case <-r.Context().Done():
			return
		case <-u.done:
			return
		case gen := <-ch:
			data := strconv.Itoa(u.st.Counters().Runs) // the list: how many runs
			if run != "" {
				row, g, ok := u.st.Run(run)
				if g == last {
					continue
				}
				last = g
				if ok {
					b, _ := json.Marshal(row)
					data = string(b)
				}
			}
			fmt.Fprintf(w, "event: change\nid: %d\ndata: %s\n\n", gen, data)
			fl.Flush()
		}
	}
}

func (u *ui) metrics(w http.ResponseWriter, r *http.Request) {
	counts, err := u.st.CountRuns()
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/plain; version=0.0.4; charset=utf-8")
	writeMetrics(w, counts, u.st.FindingsByCode(), u.st.Counters())
}

// writeMetrics writes the Prometheus text exposition format (version 0.0.4).
func writeMetrics(w interface{ Write([]byte) (int, error) }, counts []runindex.StatusCount, findings map[string]int, c runindex.Counters) {
	var b strings.Builder
	metric := func(name, typ, help string) {
		fmt.Fprintf(&b, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, typ)
	}
	metric("lifeline_runs", "gauge", "Runs in the store by status and stop reason.")
	for _, s := range counts {
		fmt.Fprintf(&b, "lifeline_runs{status=\"%s\",stop_reason=\"%s\"} %d\n", label(s.Status), label(s.StopReason), s.Runs)
	}
	metric("lifeline_findings", "gauge", "Invariant findings (errors and warnings) in the store by invariant.")
	codes := make([]string, 0, len(findings))
	for k := range findings {
		codes = append(codes, k)
	}
	sort.Strings(codes)
	for _, k := range codes {
		fmt.Fprintf(&b, "lifeline_findings{invariant=\"%s\"} %d\n", label(k), findings[k])
	}
	metric("lifeline_spans_received_total", "counter", "OTLP spans in the store's journal (acknowledged).")
	fmt.Fprintf(&b, "lifeline_spans_received_total %d\n", c.Spans)
	metric("lifeline_events_received_total", "counter", "Canonical events in the store's journal (acknowledged).")
	fmt.Fprintf(&b, "lifeline_events_received_total %d\n", c.Events)
	metric("lifeline_spans_rejected_total", "counter", "OTLP spans rejected (partial success) since the server started.")
	fmt.Fprintf(&b, "lifeline_spans_rejected_total %d\n", c.Rejected)
	metric("lifeline_ingest_lag_seconds", "gauge", "How long the oldest acknowledged batch not yet in the index has waited.")
	fmt.Fprintf(&b, "lifeline_ingest_lag_seconds %s\n", strconv.FormatFloat(c.Lag.Seconds(), 'g', -1, 64))
	w.Write([]byte(b.String()))
}

// label escapes a label value: backslash, double quote and newline.
func label(s string) string {
	return strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`).Replace(s)
}
