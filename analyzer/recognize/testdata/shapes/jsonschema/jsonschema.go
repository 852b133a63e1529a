// Package jsonschema is a JSON schema library as agent code depends on it (an ordered map of
// properties walked pair by pair, items, definitions) with the transform a provider SDK runs
// over it before a request: a recursion and a cursor loop over the schema tree.
package jsonschema

// Pair is one property of an ordered map.
type Pair struct {
	Key   string
	Value *Schema
	next  *Pair
}

// Next is the following property, nil after the last.
func (p *Pair) Next() *Pair { return p.next }

// Properties is an ordered map of properties.
type Properties struct{ head *Pair }

// Oldest is the first property.
func (p *Properties) Oldest() *Pair {
	if p == nil {
		return nil
	}
	return p.head
}

// Schema is a JSON schema.
type Schema struct {
	Type        string
	Format      string
	Description string
	Props       *Properties
	items       *Schema
	anyOf       []*Schema
	defs        map[string]*Schema
}

// Variants are the schemas of an anyOf.
func (s *Schema) Variants() []*Schema { return s.anyOf }

// Items is the schema of an array's elements.
func (s *Schema) Items() *Schema { return s.items }

// Def returns a definition by name.
func (s *Schema) Def(name string) *Schema { return s.defs[name] }
