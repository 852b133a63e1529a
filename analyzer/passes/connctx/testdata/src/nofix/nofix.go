package nofix

import (
	"net/http"

	"fw"
)

// shadowed: "context" names a variable here, so no fix can name the package.
func shadowed(w http.ResponseWriter, r *http.Request) {
	context := r.Context()
	go fw.StartRun(context, fw.RunOptions{}) // want `run started with the HTTP request's context`
}
