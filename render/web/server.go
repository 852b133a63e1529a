// Package web is `lifeline serve`'s server: it puts the OTLP and canonical receivers
// (tracer/receiver) and a local web UI over one data directory (tracer/store) on one HTTP
// listener. The UI lists the runs from the store's index, with filters and search, and shows a
// run's timeline with the very page `lifeline timeline --format html` writes (render/html),
// framed by a small page that reloads it when server-sent events say the run changed.
// /metrics is the Prometheus text exposition of the store's counters.
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

	"github.com/lifeline-dev/lifeline/tracer/receiver"
	"github.com/lifeline-dev/lifeline/tracer/store"
)

// DefaultHTTP is the OTLP/HTTP port on loopback, the OpenTelemetry default.
const DefaultHTTP = "127.0.0.1:4318"

// Config says what to serve.
type Config struct {
	// HTTP is the listen address.
	HTTP string
	// Token, when set, is required on every request.
	Token string
	// Clock is the store's clock (time.Now when nil).
	Clock func() time.Time
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

// Handler returns the server's whole HTTP handler over st.
// The returned stop function ends the server-sent event streams (call it before
// http.Server.Shutdown, which does not wait for them otherwise).
func Handler(st *store.Store, token string) (h http.Handler, stop func()) {
	mux := http.NewServeMux()
	receiver.New(st).Register(mux)
	u := &ui{st: st, done: make(chan struct{})}
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

// Serve opens the store in dir, listens on cfg.HTTP and serves until ctx ends; then it stops
// taking requests, lets those in flight finish (up to 10 s) and closes the store. ready, when
// not nil, is called with the bound address once the server listens.
func Serve(ctx context.Context, dir string, cfg Config, ready func(addr string)) error {
	if cfg.HTTP == "" {
		cfg.HTTP = DefaultHTTP
	}
	if err := CheckAddr(cfg.HTTP, cfg.Token); err != nil {
		return err
	}
	st, err := store.Open(dir, store.Options{Clock: cfg.Clock})
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", cfg.HTTP)
	if err != nil {
		st.Close()
		return fmt.Errorf("listening on %s: %w", cfg.HTTP, err)
	}
	h, stop := Handler(st, cfg.Token)
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}
	srv.RegisterOnShutdown(stop)
	if ready != nil {
		ready(ln.Addr().String())
	}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err = <-errc:
	case <-ctx.Done():
		sctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		err = srv.Shutdown(sctx)
		cancel()
	}
	if errors.Is(err, http.ErrServerClosed) {
		err = nil
	}
	return errors.Join(err, st.Close())
}
