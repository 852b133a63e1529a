package explain

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"strings"
	"sync"

	"github.com/lifeline-dev/lifeline/model/jsonpos"
)

// Framework is one supported framework as its built-in mapping profile describes it, every rule
// and word with the source line it is written on (what the framework table cites).
type Framework struct {
	// Name is the profile's name (smolagents, eino, …).
	Name string `json:"name"`
	// Description says what the profile covers and at which version it was read.
	Description string `json:"description"`
	Rules       []Rule `json:"rules,omitempty"`
	Words       []Word `json:"words,omitempty"`
	// Sites are the elements of the framework's lifecycle map (see WithMap), when one is known.
	Sites []Site `json:"sites,omitempty"`
	// Map says where Sites come from; zero for a framework without a map to compute.
	Map MapSource `json:"map,omitzero"`
}

// MapSource says whether a framework's map sites were computed and from which tree.
type MapSource struct {
	// State is MapBuiltIn (the code of this repository), MapInstalled (the framework installed at
	// Root, mapped now), MapNotRequested (no installation given) or MapNotInstalled (not at Root).
	State string `json:"state"`
	// Root is the installation the sites' files are relative to, or where it was looked for.
	Root string `json:"root,omitempty"`
	// Version is the installed package's version, when its metadata says.
	Version string `json:"version,omitempty"`
}

// The states of a MapSource.
const (
	MapBuiltIn      = "built_in"
	MapInstalled    = "installed"
	MapNotRequested = "not_requested"
	MapNotInstalled = "not_installed"
)

// Rule is one profile rule: a role bound to an object of the framework.
type Rule struct {
	Role       string   `json:"role"`
	Object     string   `json:"object"`
	StopReason string   `json:"stop_reason,omitempty"`
	Status     string   `json:"status,omitempty"`
	Value      string   `json:"value,omitempty"`
	Note       string   `json:"note,omitempty"`
	Loc        Location `json:"location"`
}

// Word is one entry of a profile's vocabulary: the framework's words for a lifeline layer.
type Word struct {
	Layer string   `json:"layer"`
	Words []string `json:"words"`
	Note  string   `json:"note,omitempty"`
	Loc   Location `json:"location"`
}

// Location is a line of a file of this repository (a path relative to its root), or, when Root
// is set, of a file under Root (an installed framework's tree, mapped at run time).
type Location struct {
	File string `json:"file"`
	Line int    `json:"line"`
	Root string `json:"root,omitempty"`
}

func (l Location) String() string { return fmt.Sprintf("%s:%d", l.File, l.Line) }

// FrameworkRow is one framework's line of a topic's table.
type FrameworkRow struct {
	Framework string `json:"framework"`
	// Version is the framework and version the profile was read at (its description's first
	// clause); Profile is the whole description.
	Version string `json:"version"`
	Profile string `json:"profile"`
	// Names are the framework's own names for the concept (from the vocabulary table), with
	// where the table writes them; empty when the framework has no counterpart.
	Names    []string  `json:"names,omitempty"`
	NamesLoc *Location `json:"names_location,omitempty"`
	// Rules and Words are the profile's rules and vocabulary that implement the concept.
	Rules []Rule `json:"rules,omitempty"`
	Words []Word `json:"words,omitempty"`
	// Sites are the map's elements that implement the concept.
	Sites []Site `json:"sites,omitempty"`
	// MoreSites counts the map's selected elements left off Sites (at most SitesPerKind of each
	// kind are kept, in map order: a large framework has hundreds of call sites).
	MoreSites int `json:"more_sites,omitempty"`
	// Map says where the framework's map sites come from (zero: it has no map to compute).
	Map MapSource `json:"map,omitzero"`
}

// SitesPerKind is how many map elements of one kind a framework row keeps.
const SitesPerKind = 5

// Absent reports whether the framework has no counterpart of the concept on record.
func (r FrameworkRow) Absent() bool {
	return len(r.Names) == 0 && len(r.Rules) == 0 && len(r.Words) == 0 && len(r.Sites) == 0
}

// TableFile is where the vocabulary table is written in this repository.
const TableFile = "model/explain/frameworks.json"

//go:embed frameworks.json
var tableJSON []byte

// table is frameworks.json: the frameworks in table order, and per concept the profile rules
// and vocabulary that implement it and each framework's own names for it.
type table struct {
	Frameworks []string            `json:"frameworks"`
	Concepts   map[string]*concept `json:"concepts"`
}

type concept struct {
	// Roles select profile rules: "role", or "role~text" (the object contains text).
	Roles []string `json:"roles"`
	// Layers select vocabulary entries: "Layer", "Layer:text" (a word contains text) or
	// "Layer!text" (no word does).
	Layers []string `json:"layers"`
	// Sites select elements of a framework's map: "kind", "kind:word" (a word of the value:
	// an exit's outcome or stop reason, an id site's kind), "kind~text" (the name contains text).
	Sites []string `json:"sites"`
	// Names are each framework's names, keyed by profile name.
	Names map[string][]string `json:"names"`
}

var loadTable = sync.OnceValues(func() (*table, error) {
	var t table
	if err := json.Unmarshal(tableJSON, &t); err != nil {
		return nil, fmt.Errorf("%s: %w", TableFile, err)
	}
	return &t, nil
})

var tableLines = sync.OnceValues(func() (map[string]int, error) { return jsonpos.Lines(tableJSON) })

// TableFrameworks lists the frameworks the table covers, in its order.
func TableFrameworks() ([]string, error) {
	t, err := loadTable()
	if err != nil {
		return nil, err
	}
	return t.Frameworks, nil
}

// frameworkRows generates the concept's table: one row per framework of the table's list that
// fws describes, in the table's order.
func frameworkRows(key, lang string, fws []Framework) ([]FrameworkRow, error) {
	t, err := loadTable()
	if err != nil {
		return nil, err
	}
	lines, err := tableLines()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", TableFile, err)
	}
	c, ok := t.Concepts[key]
	if !ok {
		return nil, fmt.Errorf("%s: no concept %q", TableFile, key)
	}
	byName := map[string]Framework{}
	for _, f := range fws {
		byName[f.Name] = f
	}
	var rows []FrameworkRow
	for _, name := range t.Frameworks {
		f, ok := byName[name]
		if !ok {
			continue
		}
		row := FrameworkRow{Framework: name, Version: version(f.Description), Profile: f.Description, Names: c.Names[name], Map: f.Map}
		if len(row.Names) > 0 {
			row.NamesLoc = &Location{File: TableFile, Line: lines["/concepts/"+key+"/names/"+name]}
		}
		for _, r := range f.Rules {
			if selectRule(c.Roles, r) {
				row.Rules = append(row.Rules, r)
			}
		}
		for _, w := range f.Words {
			if selectWord(c.Layers, w) {
				row.Words = append(row.Words, w)
			}
		}
		perKind := map[string]int{}
		for _, s := range f.Sites {
			if selectSite(c.Sites, s) {
				if perKind[s.Kind]++; perKind[s.Kind] > SitesPerKind {
					row.MoreSites++
					continue
				}
				row.Sites = append(row.Sites, s)
			}
		}
		rows = append(rows, row)
	}
	return rows, nil
}

func selectRule(sel []string, r Rule) bool {
	for _, s := range sel {
		role, text, has := strings.Cut(s, "~")
		if role == r.Role && (!has || strings.Contains(r.Object, text)) {
			return true
		}
	}
	return false
}

func selectWord(sel []string, w Word) bool {
	anyWord := func(text string) bool {
		for _, x := range w.Words {
			if strings.Contains(strings.ToLower(x), strings.ToLower(text)) {
				return true
			}
		}
		return false
	}
	for _, s := range sel {
		if layer, text, ok := strings.Cut(s, ":"); ok {
			if layer == w.Layer && anyWord(text) {
				return true
			}
		} else if layer, text, ok := strings.Cut(s, "!"); ok {
			if layer == w.Layer && !anyWord(text) {
				return true
			}
		} else if s == w.Layer {
			return true
		}
	}
	return false
}

// version is the first clause of a profile description: up to its first ": ", " (" or ", "
// ("smolagents==1.26.0", "github.com/cloudwego/eino v0.7.36").
func version(desc string) string {
	end := len(desc)
	for _, sep := range []string{": ", " (", ", "} {
		if i := strings.Index(desc, sep); i >= 0 && i < end {
			end = i
		}
	}
	return desc[:end]
}
