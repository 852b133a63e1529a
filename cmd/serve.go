package cmd

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"runtime/debug"
	"syscall"

	"github.com/lifeline-dev/lifeline/render/web"
	"github.com/lifeline-dev/lifeline/tracer/receiver"
	"github.com/lifeline-dev/lifeline/tracer/store"
	"github.com/spf13/cobra"
)

type serveFlags struct {
	data  string
	http  string
	grpc  string
	token string
}

func newServeCmd() *cobra.Command {
	var f serveFlags
	c := &cobra.Command{
		Use:   "serve --data DIR",
		Short: "Receive OTLP traces and canonical events live, keep them in DIR, show runs in a local web UI",
		Long: `serve is an OTLP receiver (HTTP on --http, gRPC on --grpc) and a local web UI over one data
directory.

Point any OpenTelemetry exporter at it (OTEL_EXPORTER_OTLP_ENDPOINT=http://127.0.0.1:4318):
POST ` + receiver.TracesPath + ` takes an ExportTraceServiceRequest in protobuf or JSON, gzip or not, and
answers with partial_success for the spans it cannot keep, 429 with Retry-After when its write
queue is full, 400 or 415 for a body it cannot read. POST ` + receiver.EventsPath + ` takes lifeline's
canonical event log (JSON Lines). Spans are read with the same conventions as file input
(GenAI semconv, OpenInference, AI SDK, lifeline.* attributes).

Every batch is appended to the journal in DIR (spans.jsonl, events.jsonl) and fsynced before
it is acknowledged; a kill loses nothing acknowledged. The run index (DIR/index.sqlite, SQLite)
is rewritten from the journal when the server starts (one pass) and then updated run by run:
each batch re-projects only the sessions it touched, so its cost does not grow with the store.
The journal files are ordinary logs: lifeline timeline/check DIR and stats --data DIR read them.

The UI at http://ADDR/ lists the runs (status, stop reason, steps, tokens, cost, duration,
findings) with filters and search; a run's page is the HTML timeline, reloaded live as spans
arrive. /metrics is for Prometheus. The server binds to loopback; another address needs
--token, which every request must then carry (Authorization: Bearer TOKEN, or ?token=TOKEN in
the browser once). Stop it with Ctrl-C: requests in flight finish, the journal is closed.`,
		Example: `  lifeline serve --data ~/.lifeline
  OTEL_EXPORTER_OTLP_ENDPOINT=http://127.0.0.1:4318 node agent.js   # then open http://127.0.0.1:4318/
  curl -H 'Content-Type: application/json' --data-binary @testdata/traces/otel-more/vercel-ai-v7-genai_01_tool_loop.otlp.json http://127.0.0.1:4318/v1/traces
  lifeline serve --data /srv/lifeline --http 0.0.0.0:4318 --token "$(cat token)"`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if f.data == "" {
				return &exitError{code: exitFailure, err: fmt.Errorf("serve needs --data DIR: where the journal and the index live")}
			}
			parent := cmd.Context()
			if parent == nil {
				parent = context.Background()
			}
			ctx, stop := signal.NotifyContext(parent, os.Interrupt, syscall.SIGTERM)
			defer stop()
			cfg := web.Config{HTTP: f.http, GRPC: f.grpc, Token: f.token}
			if err := web.CheckConfig(cfg); err != nil {
				return &exitError{code: exitFailure, err: err}
			}
			serveGC()
			st, err := store.Open(f.data, store.Options{})
			if err != nil {
				return &exitError{code: exitFailure, err: err}
			}
			err = web.Serve(ctx, st, receiver.New(st), cfg, func(a web.Addrs) {
				grpcNote := ""
				if a.GRPC != "" {
					grpcNote = ", OTLP/gRPC " + a.GRPC
				}
				fmt.Fprintf(cmd.ErrOrStderr(), "lifeline: serving %s: OTLP/HTTP http://%s%s%s, UI http://%s/\n", f.data, a.HTTP, receiver.TracesPath, grpcNote, a.HTTP)
			})
			if err = errors.Join(err, st.Close()); err != nil {
				return &exitError{code: exitFailure, err: err}
			}
			return nil
		},
	}
	c.Flags().StringVar(&f.data, "data", "", "data directory: journal (spans.jsonl, events.jsonl) and run index (index.sqlite)")
	c.Flags().StringVar(&f.http, "http", web.DefaultHTTP, "OTLP/HTTP and UI listen address")
	c.Flags().StringVar(&f.grpc, "grpc", web.DefaultGRPC, `OTLP/gRPC listen address ("" for none)`)
	c.Flags().StringVar(&f.token, "token", "", "require this token on every request (needed for a non-loopback --http)")
	return c
}

// serveGC tunes the garbage collector for serve: the projection allocates much and keeps little
// (a session's events are dropped once projected, the backlog is read back from the journal),
// so collecting at 5× the live heap instead of 2× cuts a quarter of the CPU a span costs
// (BenchmarkStoreLoad, bench/RESULTS.md), with a soft 2 GiB limit for a large store. GOGC and
// GOMEMLIMIT, when set, win.
func serveGC() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(400)
	}
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(2 << 30)
	}
}

func init() { rootCmd.AddCommand(newServeCmd()) }
