// Package id mints identifiers.
package id

import "github.com/google/uuid"

// New returns a new id of at most n characters.
func New(n int) string {
	s := uuid.NewString()
	if n > 0 && n < len(s) {
		s = s[:n]
	}
	return s
}
