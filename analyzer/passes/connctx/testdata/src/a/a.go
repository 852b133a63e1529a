package a

import (
	"context"
	"net/http"
	"time"

	"fw"
)

func handle(w http.ResponseWriter, r *http.Request) {
	go fw.StartRun(r.Context(), fw.RunOptions{}) // want `run started with the HTTP request's context: the client disconnecting cancels the run`
}

func derived(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := context.WithTimeout(r.Context(), time.Minute)
	defer cancel()
	fw.StartRun(ctx, fw.RunOptions{}) // want `run started with the HTTP request's context \(from r.Context\(\) at a.go:16\)`
}

func detached(w http.ResponseWriter, r *http.Request) {
	ctx := context.WithoutCancel(r.Context())
	fw.StartRun(ctx, fw.RunOptions{})
}

func background(w http.ResponseWriter, r *http.Request) {
	fw.StartRun(context.Background(), fw.RunOptions{Input: r.URL.Path})
}

// reassigned: the value passed is Background, whatever the variable held before.
func reassigned(w http.ResponseWriter, r *http.Request, m fw.Model) {
	ctx := r.Context()
	fw.Complete(ctx, "title")
	ctx = context.Background()
	loop(ctx, m, 3)
}

func loop(ctx context.Context, m fw.Model, max int) {
	for i := 0; i < max; i++ {
		m.Generate(ctx, nil)
	}
}

func drivesLoop(w http.ResponseWriter, r *http.Request, m fw.Model) {
	loop(r.Context(), m, 3) // want `run started with the HTTP request's context`
}

func notARun(w http.ResponseWriter, r *http.Request) {
	fw.Complete(r.Context(), "x") // a single model call may follow the request
}

type server struct {
	m    fw.Model
	base context.Context // the server's lifetime
}

func newServer(ctx context.Context, m fw.Model) *server { return &server{m: m, base: ctx} }

func main() {
	s := newServer(context.Background(), nil)
	http.HandleFunc("/start", s.start)
	http.HandleFunc("/base", s.onBase)
}

// spawn starts the loop on a context of its own: the ctx it is given does not reach the run.
func (s *server) spawn(ctx context.Context, in string) {
	fw.Complete(ctx, in)
	go loop(context.Background(), s.m, 3)
}

func (s *server) start(w http.ResponseWriter, r *http.Request) {
	s.spawn(r.Context(), "x")
}

// onBase starts the run on the server's context.
func (s *server) onBase(w http.ResponseWriter, r *http.Request) {
	fw.StartRun(s.base, fw.RunOptions{})
}

// launch passes its ctx on to the run it starts.
func launch(ctx context.Context, in string) {
	go fw.StartRun(ctx, fw.RunOptions{Input: in})
}

func viaWrapper(w http.ResponseWriter, r *http.Request) {
	launch(r.Context(), "x") // want `run started with the HTTP request's context \(reaching the run start at a.go:82\)`
}

type job struct {
	ctx context.Context
	in  string
}

func (j *job) run() {
	fw.StartRun(j.ctx, fw.RunOptions{Input: j.in}) // want `run started with the HTTP request's context \(from r.Context\(\) at a.go:99\)`
}

func viaField(w http.ResponseWriter, r *http.Request) {
	j := &job{ctx: r.Context(), in: "x"}
	go j.run()
}

func viaClosure(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	go func() {
		fw.StartRun(ctx, fw.RunOptions{}) // want `run started with the HTTP request's context`
	}()
}

// phi: the context may be the request's.
func phi(w http.ResponseWriter, r *http.Request) {
	ctx := context.Background()
	if r.URL.Query().Get("wait") != "" {
		ctx = r.Context()
	}
	fw.StartRun(ctx, fw.RunOptions{}) // want `run started with the HTTP request's context`
}

type ctxKey struct{}

func withUser(ctx context.Context, u string) context.Context {
	return context.WithValue(ctx, ctxKey{}, u)
}

func detach(ctx context.Context) context.Context { return context.WithoutCancel(ctx) }

func helpers(w http.ResponseWriter, r *http.Request) {
	fw.StartRun(withUser(r.Context(), "u"), fw.RunOptions{}) // want `run started with the HTTP request's context`
	fw.StartRun(detach(r.Context()), fw.RunOptions{})
}

// clientRequest: a request the code builds carries the context it was given.
func clientRequest(w http.ResponseWriter, r *http.Request) {
	req, _ := http.NewRequestWithContext(context.Background(), "GET", "http://model", nil)
	fw.StartRun(req.Context(), fw.RunOptions{})
	fw.StartRun(r.WithContext(context.Background()).Context(), fw.RunOptions{})
	fw.StartRun(r.WithContext(r.Context()).Context(), fw.RunOptions{}) // want `run started with the HTTP request's context`
}

// derivedStep: a context another package derives from the request's is the request's.
func derivedStep(w http.ResponseWriter, r *http.Request) {
	ctx, span := fw.StartStep(r.Context(), "step")
	defer span.End()
	fw.StartRun(ctx, fw.RunOptions{}) // want `run started with the HTTP request's context`
}

// captured: a closure assigns the request's context to a variable of the handler.
func captured(w http.ResponseWriter, r *http.Request) {
	ctx := context.Background()
	pick := func() { ctx = r.Context() }
	pick()
	fw.StartRun(ctx, fw.RunOptions{}) // want `run started with the HTTP request's context`
}

// literalParam: the literal passes its parameter on to the run start.
func literalParam(w http.ResponseWriter, r *http.Request) {
	go func(ctx context.Context) {
		fw.StartRun(ctx, fw.RunOptions{})
	}(r.Context()) // want `run started with the HTTP request's context \(reaching the run start`
}

var (
	serverCtx = context.Background()
	lastCtx   context.Context
)

// globals: a package variable holds what is stored to it.
func globals(w http.ResponseWriter, r *http.Request) {
	fw.StartRun(serverCtx, fw.RunOptions{})
	lastCtx = r.Context()
	fw.StartRun(lastCtx, fw.RunOptions{}) // want `run started with the HTTP request's context`
}
