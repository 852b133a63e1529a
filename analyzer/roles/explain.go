package roles

import (
	_ "embed"
	"fmt"
	"path"
	"strconv"
	"strings"

	"github.com/lifeline-dev/lifeline/model/explain"
	"github.com/lifeline-dev/lifeline/model/jsonpos"
)

// The Go sources of the Go profiles, read to cite each rule at its line.
var (
	//go:embed builtin.go
	builtinSource string
	//go:embed lifeline.go
	lifelineSource string
)

// Dir is this package's directory in the repository, the root of the files Frameworks cites.
const Dir = "analyzer/roles"

// Frameworks returns every built-in profile as lifeline explain cites it: each rule and
// vocabulary entry with the repository file and line it is written on (profiles/*.json for the
// Python and TypeScript/JavaScript frameworks: the line of the rule's "object" or the entry's
// "words"; builtin.go and lifeline.go for the Go ones: the line of the rule).
func Frameworks() ([]explain.Framework, error) {
	var out []explain.Framework
	for _, g := range []struct {
		p    *Profile
		file string
		src  string
	}{{Lifeline, "lifeline.go", lifelineSource}, {Eino, "builtin.go", builtinSource},
		{LangChainGo, "builtin.go", builtinSource}, {Genkit, "builtin.go", builtinSource},
		{OpenTelemetry, "builtin.go", builtinSource}} {
		lines, err := goRuleLines(g.p, g.src)
		if err != nil {
			return nil, fmt.Errorf("%s/%s: %w", Dir, g.file, err)
		}
		out = append(out, framework(g.p, path.Join(Dir, g.file), lines, nil))
	}
	names, err := profileFiles.ReadDir("profiles")
	if err != nil {
		return nil, fmt.Errorf("reading built-in profiles: %w", err)
	}
	for _, n := range names {
		file := path.Join("profiles", n.Name())
		data, err := profileFiles.ReadFile(file)
		if err != nil {
			return nil, fmt.Errorf("reading built-in profile %s: %w", n.Name(), err)
		}
		ps, err := ParseProfiles(data)
		if err != nil {
			return nil, fmt.Errorf("built-in profile %s: %w", n.Name(), err)
		}
		pos, err := jsonpos.Lines(data)
		if err != nil {
			return nil, fmt.Errorf("built-in profile %s: %w", n.Name(), err)
		}
		for i, p := range ps {
			prefix := ""
			if strings.HasPrefix(strings.TrimSpace(string(data)), "[") {
				prefix = "/" + strconv.Itoa(i)
			}
			rules := make([]int, len(p.Rules))
			for j := range p.Rules {
				rules[j] = pos[prefix+"/rules/"+strconv.Itoa(j)+"/object"]
			}
			words := make([]int, len(p.Vocabulary))
			for j := range p.Vocabulary {
				words[j] = pos[prefix+"/vocabulary/"+strconv.Itoa(j)+"/words"]
			}
			out = append(out, framework(p, path.Join(Dir, file), rules, words))
		}
	}
	return out, nil
}

func framework(p *Profile, file string, ruleLines, wordLines []int) explain.Framework {
	f := explain.Framework{Name: p.Name, Description: p.Description}
	for i, r := range p.Rules {
		if r.Not {
			continue // a veto says what the framework's object is not
		}
		f.Rules = append(f.Rules, explain.Rule{Role: string(r.Role), Object: r.Object, StopReason: string(r.StopReason),
			Status: string(r.Status), Value: r.Value, Note: r.Note, Loc: explain.Location{File: file, Line: ruleLines[i]}})
	}
	for i, w := range p.Vocabulary {
		f.Words = append(f.Words, explain.Word{Layer: w.Layer, Words: w.Words, Note: w.Note, Loc: explain.Location{File: file, Line: wordLines[i]}})
	}
	return f
}

// goRuleLines finds the line of each rule of p in src, the Go source that declares it: after
// the line naming the profile, each rule is the next line holding its role's constant and a
// string literal that ends its object's key.
func goRuleLines(p *Profile, src string) ([]int, error) {
	lines := strings.Split(src, "\n")
	at := -1
	for i, l := range lines {
		if strings.Contains(l, "Name:") && strings.Contains(l, strconv.Quote(p.Name)) {
			at = i
			break
		}
	}
	if at < 0 {
		return nil, fmt.Errorf("profile %s: no line names it", p.Name)
	}
	out := make([]int, len(p.Rules))
	for j, r := range p.Rules {
		found := false
		for at++; at < len(lines); at++ {
			l := lines[at]
			if goRuleLine(l, r) {
				out[j], found = at+1, true
				break
			}
		}
		if !found {
			return nil, fmt.Errorf("profile %s: rule %d (%s %s) not found in order", p.Name, j+1, r.Role, r.Object)
		}
	}
	return out, nil
}

// goRuleLine reports whether a line of Go source declares rule r: {Role: ModelCall, Object:
// eino + "components/model.BaseChatModel.Generate", …}.
func goRuleLine(l string, r Rule) bool {
	role, ok := strings.CutPrefix(strings.TrimSpace(l), "{Role: ")
	if !ok {
		return false
	}
	name, rest, _ := strings.Cut(role, ",")
	if !strings.EqualFold(name, strings.ReplaceAll(string(r.Role), "_", "")) {
		return false
	}
	_, obj, ok := strings.Cut(rest, "Object: ")
	if !ok {
		return false
	}
	i := strings.Index(obj, `"`)
	if i < 0 {
		return false
	}
	lit, err := strconv.QuotedPrefix(obj[i:])
	if err != nil {
		return false
	}
	s, _ := strconv.Unquote(lit)
	return s != "" && strings.HasSuffix(r.Object, s)
}
