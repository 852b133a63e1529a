// Package idhelper mints its ids through helpers: an id package's New, a newID wrapping
// crypto/rand, a Sprintf of the clock or of a name and counter; it puts a parent id into the
// context through a helper around context.WithValue, and hands a child run its parent's id in
// a functional option.
package idhelper

import (
	"context"
	"crypto/rand"
	"encoding/hex"
)

func newID() string {
	b := make([]byte, 8)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

type parentKey struct{}

// ContextWithParentID records the parent span's id in ctx.
func ContextWithParentID(ctx context.Context, id string) context.Context {
	return context.WithValue(ctx, parentKey{}, id)
}

// ParentID reads the id ContextWithParentID recorded.
func ParentID(ctx context.Context) string {
	s, _ := ctx.Value(parentKey{}).(string)
	return s
}

// Span is one traced operation.
type Span struct {
	ID, Parent string
}

// StartSpan starts a span under the one in ctx.
func StartSpan(ctx context.Context) (context.Context, *Span) {
	s := &Span{ID: newID(), Parent: ParentID(ctx)}
	return ContextWithParentID(ctx, s.ID), s
}
