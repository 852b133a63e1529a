// Package walk has loops that look like a turn loop's skeleton and are not one: a walk down a
// linked list whose body recurses and switches on a kind, and the drain of a cursor a query
// returned. Both end with their collection: not turn loops.
package walk

import "strings"

// Node is one entry of an ordered map.
type Node struct {
	Key   string
	Value *Schema
	next  *Node
}

// Next is the following entry.
func (n *Node) Next() *Node { return n.next }

// Props is an ordered map of properties.
type Props struct{ head *Node }

// Oldest is the first entry.
func (p *Props) Oldest() *Node { return p.head }

// Schema is a JSON schema.
type Schema struct {
	Type        string
	Props       *Props
	Items       *Schema
	Extra       map[string]string
	Format      string
	Description string
}

// Transform rewrites a schema and its children in place.
func Transform(s *Schema) {
	extras := map[string]string{}
	switch s.Type {
	case "object":
		for pair := s.Props.Oldest(); pair != nil; pair = pair.Next() {
			Transform(pair.Value)
		}
	case "string":
		if s.Format != "" {
			extras["format"] = s.Format
			s.Format = ""
		}
	case "array":
		Transform(s.Items)
	}
	if len(extras) > 0 {
		keys := make([]string, 0, len(extras))
		for k := range extras {
			keys = append(keys, strings.ToUpper(k))
		}
		s.Description += strings.Join(keys, ",")
		return
	}
	s.Extra = extras
}

// Rows is a database cursor.
type Rows struct{ n int }

// Next advances the cursor.
func (r *Rows) Next() bool { r.n--; return r.n > 0 }

// Scan reads the current row.
func (r *Rows) Scan(dst *Record) error { return nil }

// Record is a stored memory.
type Record struct {
	Space string
	Meta  map[string]any
}

// DB is a database.
type DB struct{}

// Query runs a query.
func (DB) Query(q string) (*Rows, error) { return &Rows{}, nil }

func decode(s string) map[string]any {
	if s == "" {
		return nil
	}
	return map[string]any{"space": s}
}

func str(v any) string { s, _ := v.(string); return strings.TrimSpace(s) }

// Neighborhood reads every row of a query.
func Neighborhood(db DB) ([]Record, error) {
	rows, err := db.Query("select")
	if err != nil {
		return nil, err
	}
	var out []Record
	for rows.Next() {
		var rec Record
		if err := rows.Scan(&rec); err != nil {
			return nil, err
		}
		meta := decode(rec.Space)
		if meta == nil {
			return out, nil
		}
		if rec.Space == "" {
			rec.Space = str(meta["space"])
		}
		out = append(out, rec)
	}
	return out, nil
}
