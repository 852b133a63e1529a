// Package loaders holds a schema compiler and a plan expander: each repeats a call whose result
// is tested for an end, whose elements select a handler by name, and whose handlers' results
// are fed to the next round — the whole shape of a turn loop but the model. The repeated call
// is a constructor, a parser or a loader that builds its result in memory from its operands
// (a reference parsed from a string, a plan of the steps handed in): nothing a model decides
// enters through it. None is a turn loop and none makes a run entry.
package loaders

import (
	"errors"
	"strings"
)

// Ref is a parsed schema reference.
type Ref struct {
	URL      string
	Fragment string
	Refs     []Ref
}

// String is the reference as written.
func (r Ref) String() string {
	if r.Fragment == "" {
		return r.URL
	}
	return r.URL + "#" + r.Fragment
}

// ParseRef parses "url#fragment" and the comma-separated references it names.
func ParseRef(s string) (Ref, error) {
	u, f, _ := strings.Cut(s, "#")
	r := Ref{URL: strings.TrimSpace(u), Fragment: f}
	for _, part := range strings.Split(f, ",") {
		if part != "" && part != f {
			r.Refs = append(r.Refs, Ref{URL: r.URL, Fragment: part})
		}
	}
	return r, nil
}

// Source is where a schema comes from.
type Source interface {
	Reference() (Ref, error)
}

type refSource struct{ source string }

// NewRefSource is a source for a reference: it only records where to load from.
func NewRefSource(source string) Source { return &refSource{source: source} }

// Reference parses the source's reference.
func (s *refSource) Reference() (Ref, error) { return ParseRef(s.source) }

type stringSource struct{ doc string }

// NewStringSource is a source for a document given inline.
func NewStringSource(doc string) Source { return &stringSource{doc: doc} }

// Reference of an inline document is the document's own root.
func (s *stringSource) Reference() (Ref, error) {
	return Ref{Fragment: strings.TrimPrefix(s.doc, "#")}, nil
}

// Compiler compiles schemas through keyword handlers.
type Compiler struct {
	keywords map[string]func(ref Ref) (string, error)
	compiled map[string]bool
}

// Compile compiles the schema of src and every schema it references.
func (c *Compiler) Compile(src Source) error {
	ref, err := src.Reference()
	if err != nil {
		return err
	}
	if len(ref.Refs) == 0 {
		c.compiled[ref.String()] = true
		return nil
	}
	for _, sub := range ref.Refs {
		kw, ok := c.keywords[sub.Fragment]
		if !ok {
			continue
		}
		next, err := kw(sub)
		if err != nil {
			return err
		}
		if err := c.Compile(NewRefSource(next)); err != nil {
			return err
		}
	}
	return nil
}

// Step is one step of a plan.
type Step struct {
	Name string
	Args []string
}

// Plan is what is left to expand.
type Plan struct{ Steps []Step }

// NewPlan builds a plan of the steps named in args ("name:arg").
func NewPlan(args []string) *Plan {
	p := &Plan{}
	for _, a := range args {
		name, arg, _ := strings.Cut(a, ":")
		p.Steps = append(p.Steps, Step{Name: name, Args: []string{arg}})
	}
	return p
}

// Expander expands steps with handlers until no step is left.
type Expander struct {
	handlers map[string]func(args []string) []string
}

// Expand runs the handler of each step; what the handlers return is the next round's plan.
func (e *Expander) Expand(args []string) ([]string, error) {
	var done []string
	for {
		p := NewPlan(args)
		if len(p.Steps) == 0 {
			return done, nil
		}
		args = nil
		for _, st := range p.Steps {
			h, ok := e.handlers[st.Name]
			if !ok {
				return done, errors.New("unknown step " + st.Name)
			}
			args = append(args, h(st.Args)...)
			done = append(done, st.Name)
		}
	}
}
