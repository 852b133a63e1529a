// Package schemawalk rewrites a JSON schema of a dependency (example.com/shapes/jsonschema)
// for a provider that accepts a subset of it: a recursion over the schema tree whose child
// accessor's result (the anyOf variants) is tested for a leaf, whose variants' formats select
// a rewriter from a table, and whose rewriters' results are walked next. The accessors
// (Variants, Items, Oldest, Next) are the dependency's; their results are parts of the schema
// being walked. Not a turn loop.
package schemawalk

import (
	"strings"

	"example.com/shapes/jsonschema"
)

// Rewriter rewrites one schema and returns the schemas to rewrite next.
type Rewriter func(s *jsonschema.Schema) ([]*jsonschema.Schema, error)

// Transformer rewrites schemas.
type Transformer struct {
	byFormat map[string]Rewriter
}

// Transform rewrites s and its children.
func (t *Transformer) Transform(s *jsonschema.Schema) error {
	variants := s.Variants()
	if len(variants) == 0 {
		s.Description = strings.TrimSpace(s.Description)
		return nil
	}
	for _, v := range variants {
		rw, ok := t.byFormat[v.Format]
		if !ok {
			continue
		}
		next, err := rw(v)
		if err != nil {
			return err
		}
		for _, n := range next {
			if err := t.Transform(n); err != nil {
				return err
			}
		}
	}
	for pair := s.Props.Oldest(); pair != nil; pair = pair.Next() {
		if err := t.Transform(pair.Value); err != nil {
			return err
		}
	}
	if it := s.Items(); it != nil {
		return t.Transform(it)
	}
	return nil
}
