package roles

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"sort"
	"strings"

	"github.com/lifeline-dev/lifeline/model"
)

// Rule binds one role to one object named by its Key.
type Rule struct {
	// Role is the role bound.
	Role Role `json:"role"`
	// Object is the object's key (see Key).
	Object string `json:"object"`
	// Status is the canonical status of a status_const.
	Status model.RunStatus `json:"status,omitempty"`
	// StopReason is the canonical stop reason of a stop_reason_const or bound_error.
	StopReason model.StopReason `json:"stop_reason,omitempty"`
	// Value is a bound_default's default, as written.
	Value string `json:"value,omitempty"`
	// Loop is, for engine_call, the key of the function that holds the engine loop.
	Loop string `json:"loop,omitempty"`
	// Bound and OnBound describe an engine loop's bound when the code alone does not show it.
	Bound string `json:"bound,omitempty"`
	// Parallel marks tool calls that run concurrently.
	Parallel bool `json:"parallel,omitempty"`
	// End is, for span_start, the method of the returned value that ends the span
	// (default "End").
	End string `json:"end,omitempty"`
	// Note is free text shown in provenance.
	Note string `json:"note,omitempty"`
	// Not vetoes the role: the object does not play it, whatever structural inference says
	// (e.g. {"role": "model_call", "object": "example.com/store.DB.Save", "not": true}).
	Not bool `json:"not,omitempty"`
}

// Profile maps one framework's API onto roles.
type Profile struct {
	// Name identifies the profile in outputs.
	Name string `json:"name"`
	// Description says what the profile covers, and at which version it was read.
	Description string `json:"description,omitempty"`
	// Scope are the key prefixes of the framework's own code ("smolagents.",
	// "@openai/agents-core/"): the profile's vocabulary is shown in a map of code that has a
	// function under one of them. Without a scope, the rules' objects' packages are used.
	Scope []string `json:"scope,omitempty"`
	// Vocabulary is the framework's own words for lifeline's layers.
	Vocabulary []Word `json:"vocabulary,omitempty"`
	// Rules are the bindings.
	Rules []Rule `json:"rules"`
}

// Word is a framework's word (or a few synonyms) for one lifeline layer.
type Word struct {
	// Layer is the lifeline layer: Run, Turn, Step, Bound, Waiting, Cancelled, ….
	Layer string `json:"layer"`
	// Words are the framework's words, as its code and docs spell them.
	Words []string `json:"words"`
	// Note says how the two relate, optionally.
	Note string `json:"note,omitempty"`
}

// Text renders the word as "words = Layer — note".
func (w Word) Text() string {
	s := strings.Join(w.Words, ", ") + " = " + w.Layer
	if w.Note != "" {
		s += " — " + w.Note
	}
	return s
}

// Validate checks that every rule names a known role and an object.
func (p *Profile) Validate() error {
	if p.Name == "" {
		return fmt.Errorf("profile has no name")
	}
	for i, r := range p.Rules {
		if !r.Role.Valid() {
			return fmt.Errorf("profile %s: rule %d: unknown role %q", p.Name, i+1, r.Role)
		}
		if r.Object == "" {
			return fmt.Errorf("profile %s: rule %d (%s): no object", p.Name, i+1, r.Role)
		}
		if r.StopReason != "" && !r.StopReason.Valid() {
			return fmt.Errorf("profile %s: rule %d: unknown stop reason %q", p.Name, i+1, r.StopReason)
		}
		if r.Status != "" && !r.Status.Valid() {
			return fmt.Errorf("profile %s: rule %d: unknown status %q", p.Name, i+1, r.Status)
		}
	}
	for i, w := range p.Vocabulary {
		if w.Layer == "" || len(w.Words) == 0 {
			return fmt.Errorf("profile %s: vocabulary %d: needs a layer and words", p.Name, i+1)
		}
	}
	return nil
}

// ParseProfiles decodes a profile file: a JSON object (one profile) or array (several).
// Unknown fields are errors.
func ParseProfiles(data []byte) ([]*Profile, error) {
	data = bytes.TrimSpace(data)
	var list []*Profile
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if len(data) > 0 && data[0] == '[' {
		if err := dec.Decode(&list); err != nil {
			return nil, fmt.Errorf("decoding profiles: %w", err)
		}
	} else {
		var p Profile
		if err := dec.Decode(&p); err != nil {
			return nil, fmt.Errorf("decoding profile: %w", err)
		}
		list = append(list, &p)
	}
	for _, p := range list {
		if err := p.Validate(); err != nil {
			return nil, err
		}
	}
	return list, nil
}

// LoadProfiles reads and parses a profile file.
func LoadProfiles(path string) ([]*Profile, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("reading profile: %w", err)
	}
	ps, err := ParseProfiles(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return ps, nil
}

// Table indexes profile rules by object key.
type Table struct {
	byKey map[string][]Binding
	// vetoes are the "not" rules: object key → roles it does not play.
	vetoes map[string]map[Role]string
	// ifaceMethods lists keys of interface-method rules, for matching implementations.
	ifaceMethods []string
	names        []string
	profiles     []*Profile
}

// NewTable indexes the rules of the given profiles.
func NewTable(profiles ...*Profile) *Table {
	t := &Table{byKey: map[string][]Binding{}, vetoes: map[string]map[Role]string{}}
	t.profiles = profiles
	for _, p := range profiles {
		t.names = append(t.names, p.Name)
		for _, r := range p.Rules {
			if r.Not {
				if t.vetoes[r.Object] == nil {
					t.vetoes[r.Object] = map[Role]string{}
				}
				t.vetoes[r.Object][r.Role] = "profile " + p.Name + ": not " + string(r.Role) + " " + ShortName(r.Object)
				continue
			}
			rule := "profile " + p.Name + ": " + ShortName(r.Object)
			if r.Note != "" {
				rule += " (" + r.Note + ")"
			}
			t.byKey[r.Object] = append(t.byKey[r.Object], Binding{
				Role:       r.Role,
				Rule:       r,
				Provenance: model.Provenance{Confidence: model.ConfidenceProfile, Rule: rule},
			})
			if r.Role == ModelCall || r.Role == ToolCall || r.Role == EngineCall {
				t.ifaceMethods = append(t.ifaceMethods, r.Object)
			}
		}
	}
	sort.Strings(t.ifaceMethods)
	return t
}

// With returns a table holding t's bindings and extra (by object key): directives found in
// sources that have no doc comments for the lifecycle pass (Python, TypeScript).
func (t *Table) With(extra map[string][]Binding) *Table {
	if len(extra) == 0 {
		return t
	}
	n := NewTable()
	if t != nil {
		n = &Table{byKey: map[string][]Binding{}, vetoes: t.vetoes, ifaceMethods: t.ifaceMethods, names: t.names, profiles: t.profiles}
		for k, v := range t.byKey {
			n.byKey[k] = v
		}
	}
	for k, bs := range extra {
		n.byKey[k] = append(append([]Binding{}, n.byKey[k]...), bs...)
	}
	return n
}

// Vetoed reports whether a profile says that the object with the given key does not play
// role, and names the rule.
func (t *Table) Vetoed(key string, role Role) (string, bool) {
	if t == nil || key == "" {
		return "", false
	}
	rule, ok := t.vetoes[key][role]
	return rule, ok
}

// Lookup returns the bindings of the object with the given key.
func (t *Table) Lookup(key string) []Binding {
	if t == nil || key == "" {
		return nil
	}
	return t.byKey[key]
}

// CallableKeys returns the keys of model, tool and engine call rules; an implementation of an
// interface method among them plays the same role.
func (t *Table) CallableKeys() []string {
	if t == nil {
		return nil
	}
	return t.ifaceMethods
}

// Names returns the names of the indexed profiles.
func (t *Table) Names() []string {
	if t == nil {
		return nil
	}
	return t.names
}

// Terms returns the vocabulary of the profiles whose scope holds one of the given function
// keys, in profile order. A profile without Scope is scoped to its rules' objects' packages
// (the key up to its last dot).
func (t *Table) Terms(keys []string) []model.Term {
	if t == nil {
		return nil
	}
	var out []model.Term
	for _, p := range t.profiles {
		if len(p.Vocabulary) == 0 || !p.covers(keys) {
			continue
		}
		for _, w := range p.Vocabulary {
			out = append(out, model.Term{Profile: p.Name, Text: w.Text()})
		}
	}
	return out
}

// covers reports whether one of keys lies in the profile's scope.
func (p *Profile) covers(keys []string) bool {
	scope := p.Scope
	if len(scope) == 0 {
		for _, r := range p.Rules {
			if i := strings.LastIndex(r.Object, "."); i > 0 {
				scope = append(scope, r.Object[:i+1])
			}
		}
	}
	for _, k := range keys {
		for _, s := range scope {
			if strings.HasPrefix(k, s) {
				return true
			}
		}
	}
	return false
}
