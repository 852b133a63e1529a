package a

import (
	"net/http"

	"fw"
)

// noImport: the fix imports "context".
func noImport(w http.ResponseWriter, r *http.Request) {
	go fw.StartRun(r.Context(), fw.RunOptions{}) // want `run started with the HTTP request's context`
}
