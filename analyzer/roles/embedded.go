package roles

import (
	"embed"
	"fmt"
	"path"
	"sort"
	"sync"
)

// profileFiles are the built-in profiles of Python and TypeScript/JavaScript frameworks, one
// JSON file each (the format of ParseProfiles), keyed as analyzer/srcir names objects:
// "smolagents.agents.MultiStepAgent.run", "@openai/agents-core/dist/run.Runner.run".
//
//go:embed profiles/*.json
var profileFiles embed.FS

// embedded returns the parsed profileFiles, in file name order. They are parsed on first use,
// not at init: go vet -vettool starts lifeline once a package, the standard library's included,
// and most of those processes never look a profile up.
var embedded = sync.OnceValue(mustEmbedded)

func mustEmbedded() []*Profile {
	ps, err := parseEmbedded()
	if err != nil {
		panic(err) // a built-in profile that does not parse is a build defect; TestEmbeddedProfiles names it
	}
	return ps
}

func parseEmbedded() ([]*Profile, error) {
	names, err := profileFiles.ReadDir("profiles")
	if err != nil {
		return nil, fmt.Errorf("reading built-in profiles: %w", err)
	}
	sort.Slice(names, func(i, j int) bool { return names[i].Name() < names[j].Name() })
	var out []*Profile
	for _, n := range names {
		data, err := profileFiles.ReadFile(path.Join("profiles", n.Name()))
		if err != nil {
			return nil, fmt.Errorf("reading built-in profile %s: %w", n.Name(), err)
		}
		ps, err := ParseProfiles(data)
		if err != nil {
			return nil, fmt.Errorf("built-in profile %s: %w", n.Name(), err)
		}
		out = append(out, ps...)
	}
	return out, nil
}
