package lifemap_test

import "testing"

// TestShapesMap maps agent code that no profile or directive describes, one package per shape
// (analyzer/recognize/testdata/shapes): a concrete SDK client, a channel stream, an iterator, a
// state machine with a body counter, a default set by a functional option in another package,
// a loop launched in a goroutine, and three loops that must not be turn loops or checked for
// cancellation (a finite slice, a database write, a ctx.Done only in a retry backoff).
func TestShapesMap(t *testing.T) {
	m := buildMap(t, "../recognize/testdata/shapes", "./...")
	txt, js, _ := render(t, m)
	golden(t, "shapes.map.txt", txt)
	golden(t, "shapes.map.json", js)
}
