//go:build !cgo

package syntax

// Available reports whether this binary can parse (it was built with cgo).
const Available = false

// Parse parses src as lang. Without cgo it always fails with ErrNoCgo.
func Parse(file string, lang Lang, src []byte) (*Tree, error) { return nil, ErrNoCgo }
