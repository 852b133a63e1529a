package explain

import (
	"strings"

	"github.com/lifeline-dev/lifeline/model"
)

// Site is one element of a framework's lifecycle map (model.Map) that a topic cites: where the
// code enters a run, loops, bounds the loop, checks cancellation, calls the model or a tool,
// exits, or mints and passes ids.
type Site struct {
	// Kind is entry, loop, bound, on_bound, cancel, model_call, tool_call, exit or id.
	Kind string `json:"kind"`
	// What names the element: the entry or loop function, the bound expression, the callee,
	// the id expression.
	What string `json:"what"`
	// Value is what the element decides: an exit's outcome and stop reason, a bound's default,
	// what happens at the bound, an id site's kind (minted, parent).
	Value string `json:"value,omitempty"`
	// Source is the code line, as the map records it.
	Source string   `json:"source,omitempty"`
	Loc    Location `json:"location"`
}

// WithMap returns fws with the sites of m attached to the framework called name (its map: the
// run entries, loops, bounds, calls, exits and id sites, each once).
func WithMap(fws []Framework, name string, m *model.Map) []Framework {
	return WithMapFrom(fws, name, m, MapSource{State: MapBuiltIn})
}

// WithMapFrom is WithMap for a map of code outside this repository: src.Root is the tree the
// map's positions are relative to (an installed framework, see Installed), recorded on every
// site's location. A nil m attaches no sites, only src (a map not computed, and why).
func WithMapFrom(fws []Framework, name string, m *model.Map, src MapSource) []Framework {
	out := make([]Framework, len(fws))
	copy(out, fws)
	for i := range out {
		if out[i].Name == name {
			out[i].Map = src
			out[i].Sites = nil
			if m != nil {
				out[i].Sites = sites(m, src.Root)
			}
		}
	}
	return out
}

func sites(m *model.Map, root string) []Site {
	var out []Site
	seen := map[string]bool{}
	add := func(s Site, pos model.Position) {
		if !pos.IsValid() {
			return
		}
		s.Loc = Location{File: pos.File, Line: pos.Line, Root: root}
		key := s.Kind + " " + s.What + " " + s.Value + " " + pos.String()
		if !seen[key] {
			seen[key] = true
			out = append(out, s)
		}
	}
	for _, e := range m.Entries {
		add(Site{Kind: "entry", What: e.Func, Source: e.Source}, e.Pos)
		for _, l := range e.Loops {
			add(Site{Kind: "loop", What: string(l.Kind) + " in " + l.Func, Source: l.Source}, l.Pos)
			if b := l.Bound; b != nil {
				add(Site{Kind: "bound", What: b.Expr, Value: b.Default, Source: b.Source}, b.Pos)
			}
			if ob := l.OnBound; ob != nil {
				v := ob.Kind
				if ob.StopReason != "" {
					v += " " + string(ob.StopReason)
				}
				add(Site{Kind: "on_bound", What: ob.Value, Value: v, Source: ob.Source}, ob.Pos)
			}
			if l.ChecksCancel {
				add(Site{Kind: "cancel", What: l.Func}, l.CancelPos)
			}
			for _, c := range l.ModelCalls {
				add(Site{Kind: "model_call", What: c.Callee, Source: c.Source}, c.Pos)
			}
			for _, c := range l.ToolCalls {
				add(Site{Kind: "tool_call", What: c.Callee, Source: c.Source}, c.Pos)
			}
		}
		for _, x := range e.Exits {
			var vs []string
			for _, o := range x.Alternatives() {
				v := o.Outcome
				if o.StopReason != "" {
					v += " " + string(o.StopReason)
				}
				vs = append(vs, v)
			}
			v := strings.Join(vs, " | ")
			add(Site{Kind: "exit", Value: v, Source: x.Source}, x.Pos)
		}
		for _, id := range e.IDs {
			add(Site{Kind: "id", What: id.What, Value: id.Kind, Source: id.Source}, id.Pos)
		}
	}
	return out
}

// selectSite: "kind", "kind:word" (a word of Value), "kind~text" (What contains text).
func selectSite(sel []string, s Site) bool {
	for _, x := range sel {
		if kind, word, ok := strings.Cut(x, ":"); ok {
			if kind == s.Kind && contains(strings.Fields(s.Value), word) {
				return true
			}
		} else if kind, text, ok := strings.Cut(x, "~"); ok {
			if kind == s.Kind && strings.Contains(s.What, text) {
				return true
			}
		} else if x == s.Kind {
			return true
		}
	}
	return false
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
