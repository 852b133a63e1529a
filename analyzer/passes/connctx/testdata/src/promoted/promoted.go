// Package promoted reads the request's context only through a promoted method.
package promoted

import (
	"context"
	"net/http"

	"fw"
)

// apiRequest embeds the request: its Context method is the request's.
type apiRequest struct {
	*http.Request
	user string
}

func embedded(w http.ResponseWriter, r *http.Request) {
	req := apiRequest{Request: r}
	fw.StartRun(req.Context(), fw.RunOptions{}) // want `run started with the HTTP request's context`
	fw.StartRun(context.Background(), fw.RunOptions{})
}
