// Package web is `lifeline serve`'s server: it puts ingest endpoints (given to it: cmd wires
// tracer/receiver in) and a local web UI over a Source of runs (cmd wires tracer/store in) on
// one HTTP listener, and a gRPC listener for the ingest services given. The UI lists the runs
// from the source's index, with filters and search, and shows a run's timeline with the very
// page `lifeline timeline --format html` writes (render/html), framed by a small page that
// reloads it when server-sent events say the run changed. /metrics is the Prometheus text
// exposition of the source's counters.
//
// The package knows the runs only as model-level values (model, model/runindex) through the
// Source interface it declares; it imports nothing from tracer/ or analyzer/.
//
// The server binds to loopback unless a token is given; with a token every request must carry
// it (Authorization: Bearer TOKEN, or ?token=TOKEN once, which sets a cookie for the UI).
package web

import (
	"context"
	"crypto/subtle"
	"errors"
	"fmt"
	"net"
	"net/http"
	"sync"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"

	"github.com/lifeline-dev/lifeline/model"
	"github.com/lifeline-dev/lifeline/model/runindex"
)

// Source is what the UI reads: the run index, one run's tree, the totals, and a subscription to
// changes. tracer/store's Store is one.
type Source interface {
	// Runs are the index rows q selects, newest first.
	Runs(q runindex.Query) ([]runindex.Row, error)
	// CountRuns counts the runs by status and stop reason.
	CountRuns() ([]runindex.StatusCount, error)
	// Run is the row of one run and the change number that last changed it.
	Run(id string) (row runindex.Row, gen uint64, ok bool)
	// RunTree is one run's tree (its session with it and the runs it is the parent of) and
	// the findings about them; ok is false for an unknown run.
	RunTree(id string) (*model.Tree, []model.Finding, bool)
	// FindingsByCode counts the findings (info ones aside) by invariant.
	FindingsByCode() map[string]int
	// Counters are the running totals.
	Counters() runindex.Counters
	// Subscribe returns a channel that receives a change number each time the runs change
	// (slow readers miss intermediate ones, never the last) and a function that ends it.
	Subscribe() (<-chan uint64, func())
	// Dir says where the data is kept (shown on the list page).
	Dir() string
}

// Ingest registers ingest endpoints: on the HTTP mux, and on the gRPC server when there is one.
type Ingest interface {
	Register(mux *http.ServeMux)
	RegisterGRPC(gs *grpc.Server)
}

// DefaultHTTP and DefaultGRPC are the OTLP/HTTP and OTLP/gRPC ports on loopback, the
// OpenTelemetry defaults.
const (
	DefaultHTTP = "127.0.0.1:4318"
	DefaultGRPC = "127.0.0.1:4317"
)

// Addrs are the addresses a server listens on (GRPC empty when it serves no gRPC).
type Addrs struct{ HTTP, GRPC string }

// Config says what to serve.
type Config struct {
	// HTTP is the OTLP/HTTP and UI listen address (DefaultHTTP when empty).
	HTTP string
	// GRPC is the OTLP/gRPC listen address; none when empty.
	GRPC string
	// Token, when set, is required on every request.
	Token string
}

// CheckAddr refuses a non-loopback listen address without a token.
func CheckAddr(addr, token string) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("listen address %q: %v (expected HOST:PORT)", addr, err)
	}
	if token != "" {
		return nil
	}
	if host == "localhost" {
		return nil
	}
	if ip := net.ParseIP(host); ip != nil && ip.IsLoopback() {
		return nil
	}
	return fmt.Errorf("listen address %q is not loopback: give --token so that only who has it can read and write the data", addr)
}

// CheckConfig refuses listen addresses Serve would refuse (before the data is opened).
func CheckConfig(cfg Config) error {
	if cfg.HTTP == "" {
		cfg.HTTP = DefaultHTTP
	}
	if err := CheckAddr(cfg.HTTP, cfg.Token); err != nil {
		return err
	}
	if cfg.GRPC != "" {
		return CheckAddr(cfg.GRPC, cfg.Token)
	}
	return nil
}

// Handler returns the server's whole HTTP handler: in's endpoints (none when nil) and the UI
// over src. The returned stop function ends the server-sent event streams (call it before
// http.Server.Shutdown, which does not wait for them otherwise).
func Handler(src Source, in Ingest, token string) (h http.Handler, stop func()) {
	mux := http.NewServeMux()
	if in != nil {
		in.Register(mux)
	}
	u := &ui{st: src, done: make(chan struct{})}
	u.register(mux)
	var once sync.Once
	stop = func() { once.Do(func() { close(u.done) }) }
	if token == "" {
		return mux, stop
	}
	return auth(mux, token), stop
}

const cookieName = "lifeline_token"

func auth(next http.Handler, token string) http.Handler {
	ok := func(s string) bool { return subtle.ConstantTimeCompare([]byte(s), []byte(token)) == 1 }
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if h := r.Header.Get("Authorization"); len(h) > 7 && h[:7] == "Bearer " && ok(h[7:]) {
			next.ServeHTTP(w, r)
			return
		}
		if c, err := r.Cookie(cookieName); err == nil && ok(c.Value) {
			next.ServeHTTP(w, r)
			return
		}
		if q := r.URL.Query().Get("token"); q != "" && ok(q) {
			http.SetCookie(w, &http.Cookie{Name: cookieName, Value: token, Path: "/", HttpOnly: true, SameSite: http.SameSiteStrictMode})
			u := *r.URL
			v := u.Query()
			v.Del("token")
			u.RawQuery = v.Encode()
			http.Redirect(w, r, u.String(), http.StatusSeeOther)
			return
		}
		w.Header().Set("WWW-Authenticate", `Bearer realm="lifeline"`)
		http.Error(w, "lifeline: this server wants its token: Authorization: Bearer TOKEN (or open /?token=TOKEN)", http.StatusUnauthorized)
	})
}

// Serve listens on cfg.HTTP (and cfg.GRPC), serves in's endpoints and the UI over src until
// ctx ends, then stops taking requests and lets those in flight finish (up to 10 s); closing
// the source is the caller's. ready, when not nil, is called with the bound addresses once the
// server listens.
func Serve(ctx context.Context, src Source, in Ingest, cfg Config, ready func(Addrs)) error {
	if cfg.HTTP == "" {
		cfg.HTTP = DefaultHTTP
	}
	if err := CheckConfig(cfg); err != nil {
		return err
	}
	ln, err := net.Listen("tcp", cfg.HTTP)
	if err != nil {
		return fmt.Errorf("listening on %s: %w", cfg.HTTP, err)
	}
	addrs := Addrs{HTTP: ln.Addr().String()}
	var gs *grpc.Server
	var gln net.Listener
	if cfg.GRPC != "" {
		if gln, err = net.Listen("tcp", cfg.GRPC); err != nil {
			ln.Close()
			return fmt.Errorf("listening on %s: %w", cfg.GRPC, err)
		}
		addrs.GRPC = gln.Addr().String()
		var opts []grpc.ServerOption
		if cfg.Token != "" {
			opts = append(opts, grpc.UnaryInterceptor(grpcAuth(cfg.Token)))
		}
		gs = grpc.NewServer(opts...)
		if in != nil {
			in.RegisterGRPC(gs)
		}
	}
	h, stop := Handler(src, in, cfg.Token)
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}
	srv.RegisterOnShutdown(stop)
	if ready != nil {
		ready(addrs)
	}
	errc := make(chan error, 2)
	go func() { errc <- srv.Serve(ln) }()
	if gs != nil {
		go func() { errc <- gs.Serve(gln) }()
	}
	select {
	case err = <-errc:
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	if e := srv.Shutdown(sctx); err == nil {
		err = e
	}
	if gs != nil {
		done := make(chan struct{})
		go func() { gs.GracefulStop(); close(done) }()
		select {
		case <-done:
		case <-sctx.Done():
			gs.Stop()
		}
	}
	cancel()
	if errors.Is(err, http.ErrServerClosed) || errors.Is(err, grpc.ErrServerStopped) {
		err = nil
	}
	return err
}

// grpcAuth wants "authorization: Bearer TOKEN" in the call's metadata.
func grpcAuth(token string) grpc.UnaryServerInterceptor {
	return func(ctx context.Context, req any, info *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
		md, _ := metadata.FromIncomingContext(ctx)
		for _, v := range md.Get("authorization") {
			if len(v) > 7 && v[:7] == "Bearer " && subtle.ConstantTimeCompare([]byte(v[7:]), []byte(token)) == 1 {
				return handler(ctx, req)
			}
		}
		return nil, status.Error(codes.Unauthenticated, "lifeline: this server wants its token: authorization: Bearer TOKEN")
	}
}
