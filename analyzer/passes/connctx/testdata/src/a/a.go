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
	fw.StartRun(ctx, fw.RunOptions{}) // want `run started with the HTTP request's context`
}

func detached(w http.ResponseWriter, r *http.Request) {
	ctx := context.WithoutCancel(r.Context())
	fw.StartRun(ctx, fw.RunOptions{})
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
