// Package old is a module for Go 1.20, which has no context.WithoutCancel: connctx reports the
// run start and offers no fix.
package old

import (
	"context"
	"net/http"
)

// startRun starts a run.
//
//lifeline:run-start
func startRun(ctx context.Context, input string) {}

func old(w http.ResponseWriter, r *http.Request) {
	ctx := context.Background()
	if r.Method == "POST" {
		ctx = r.Context()
	}
	go startRun(ctx, "x") // want `run started with the HTTP request's context`
}
