// Command score measures what lifeline invents on Go code that is not agent code: for every
// project of a negative corpus (the name<TAB>directory<TAB>patterns lines fetch.sh prints) it runs
// `lifeline map --format json` and `lifeline vet --format json` and counts the run entries, turn
// loops, model and tool call sites and vet findings. The truth of every project is zero of each.
//
//	go run ./bench/corpus-go-negative/score -lifeline BIN -projects LIST [-v] [-keep DIR] [-reuse DIR]
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"
)

// Count is what lifeline reported on one project; every field should be zero.
type Count struct {
	Project    string   `json:"project"`
	Entries    int      `json:"entries"`
	Loops      int      `json:"loops"`
	ModelSites int      `json:"model_sites"`
	ToolSites  int      `json:"tool_sites"`
	Findings   int      `json:"findings"`
	Details    []string `json:"details,omitempty"`
	Error      string   `json:"error,omitempty"`
}

// Invented is the number of things reported where the truth has none.
func (c *Count) Invented() int { return c.Entries + c.Loops + c.ModelSites + c.ToolSites + c.Findings }

type site struct {
	Pos    string `json:"pos"`
	Callee string `json:"callee"`
}

type staticMap struct {
	Entries []struct {
		Func  string `json:"func"`
		Pos   string `json:"pos"`
		Loops []struct {
			Pos        string `json:"pos"`
			Kind       string `json:"kind"`
			Func       string `json:"func"`
			ModelCalls []site `json:"model_calls"`
			ToolCalls  []site `json:"tool_calls"`
		} `json:"loops"`
	} `json:"entries"`
}

type finding struct {
	Posn    string `json:"posn"`
	Message string `json:"message"`
}

// count scores one project's map and vet outputs.
func count(name string, mapOut, vetOut []byte) (*Count, error) {
	c := &Count{Project: name}
	var m staticMap
	if err := json.Unmarshal(mapOut, &m); err != nil {
		return c, fmt.Errorf("map output: %w", err)
	}
	loops, models, tools := map[string]bool{}, map[string]bool{}, map[string]bool{}
	for _, e := range m.Entries {
		c.Entries++
		c.Details = append(c.Details, fmt.Sprintf("entry %s @ %s", e.Func, e.Pos))
		for _, l := range e.Loops {
			if !loops[l.Pos] {
				loops[l.Pos] = true
				c.Details = append(c.Details, fmt.Sprintf("loop %s %s @ %s", l.Kind, l.Func, l.Pos))
			}
			for _, s := range l.ModelCalls {
				if !models[s.Pos] {
					models[s.Pos] = true
					c.Details = append(c.Details, fmt.Sprintf("model call %s @ %s", s.Callee, s.Pos))
				}
			}
			for _, s := range l.ToolCalls {
				if !tools[s.Pos] {
					tools[s.Pos] = true
					c.Details = append(c.Details, fmt.Sprintf("tool call %s @ %s", s.Callee, s.Pos))
				}
			}
		}
	}
	c.Loops, c.ModelSites, c.ToolSites = len(loops), len(models), len(tools)
	// vet: {"pkg": {"check": [findings]}}; the same finding of a package and its test variant
	// counts once.
	var v map[string]map[string]json.RawMessage
	if err := json.Unmarshal(vetOut, &v); err != nil {
		return c, fmt.Errorf("vet output: %w", err)
	}
	seen := map[string]bool{}
	for _, checks := range v {
		for check, raw := range checks {
			var fs []finding
			if json.Unmarshal(raw, &fs) != nil {
				continue // {"error": …} of a package that did not load
			}
			for _, f := range fs {
				key := check + " " + f.Posn
				if seen[key] {
					continue
				}
				seen[key] = true
				c.Findings++
				c.Details = append(c.Details, fmt.Sprintf("vet %s @ %s: %s", check, f.Posn, f.Message))
			}
		}
	}
	sort.Strings(c.Details)
	return c, nil
}

func main() {
	bin := flag.String("lifeline", "", "lifeline binary")
	projects := flag.String("projects", "", "name<TAB>directory<TAB>patterns lines (fetch.sh's output)")
	verbose := flag.Bool("v", false, "list every invented element")
	asJSON := flag.Bool("json", false, "print JSON")
	keep := flag.String("keep", "", "keep the map and vet JSON of each project in this directory")
	reuse := flag.String("reuse", "", "score the outputs kept in this directory instead of running lifeline")
	timeout := flag.Duration("timeout", 10*time.Minute, "time limit of one lifeline run")
	flag.Parse()
	if *projects == "" || (*bin == "" && *reuse == "") {
		fmt.Fprintln(os.Stderr, "score: -projects and -lifeline (or -reuse) are required")
		os.Exit(2)
	}
	b, err := os.ReadFile(*projects)
	if err != nil {
		fmt.Fprintln(os.Stderr, "score:", err)
		os.Exit(1)
	}
	only := flag.Args()
	var results []*Count
	for i, line := range strings.Split(string(b), "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Split(line, "\t")
		if len(f) != 3 {
			fmt.Fprintf(os.Stderr, "score: %s:%d: want name<TAB>directory<TAB>patterns, got %q\n", *projects, i+1, line)
			os.Exit(1)
		}
		name, dir, patterns := f[0], f[1], strings.Fields(f[2])
		if len(only) > 0 && !slices.Contains(only, name) {
			continue
		}
		var mapOut, vetOut []byte
		var mapErr, vetErr error
		if *reuse != "" {
			mapOut, mapErr = os.ReadFile(filepath.Join(*reuse, name+".map.json"))
			vetOut, vetErr = os.ReadFile(filepath.Join(*reuse, name+".vet.json"))
		} else {
			mapOut, mapErr = run(*timeout, dir, *bin, append([]string{"map", "--format", "json"}, patterns...), 0)
			vetOut, vetErr = run(*timeout, dir, *bin, append([]string{"vet", "--format", "json"}, patterns...), 0, 3)
			if *keep != "" {
				_ = os.MkdirAll(*keep, 0o755)
				_ = os.WriteFile(filepath.Join(*keep, name+".map.json"), mapOut, 0o644)
				_ = os.WriteFile(filepath.Join(*keep, name+".vet.json"), vetOut, 0o644)
			}
		}
		var c *Count
		if err := errors.Join(mapErr, vetErr); err != nil {
			c = &Count{Project: name, Error: err.Error()}
		} else if c, err = count(name, mapOut, vetOut); err != nil {
			c.Error = err.Error()
		}
		results = append(results, c)
	}
	if *asJSON {
		enc := json.NewEncoder(os.Stdout)
		enc.SetIndent("", "  ")
		_ = enc.Encode(results)
		return
	}
	write(os.Stdout, results, *verbose)
}

// write prints the Markdown table (and, verbose, every invented element).
func write(w io.Writer, results []*Count, verbose bool) {
	fmt.Fprintln(w, "| project | entries | turn loops | model sites | tool sites | vet findings | clean |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|---|")
	var t Count
	clean := 0
	for _, c := range results {
		ok := "yes"
		switch {
		case c.Error != "":
			ok = "error"
		case c.Invented() > 0:
			ok = "no"
		default:
			clean++
		}
		fmt.Fprintf(w, "| %s | %d | %d | %d | %d | %d | %s |\n", c.Project, c.Entries, c.Loops, c.ModelSites, c.ToolSites, c.Findings, ok)
		t.Entries += c.Entries
		t.Loops += c.Loops
		t.ModelSites += c.ModelSites
		t.ToolSites += c.ToolSites
		t.Findings += c.Findings
	}
	fmt.Fprintf(w, "| **total** | **%d** | **%d** | **%d** | **%d** | **%d** | **%d/%d clean** |\n", t.Entries, t.Loops, t.ModelSites, t.ToolSites, t.Findings, clean, len(results))
	if !verbose {
		return
	}
	for _, c := range results {
		if c.Error == "" && len(c.Details) == 0 {
			continue
		}
		fmt.Fprintf(w, "\n### %s\n\n", c.Project)
		if c.Error != "" {
			fmt.Fprintf(w, "- error: %s\n", c.Error)
		}
		for _, d := range c.Details {
			fmt.Fprintf(w, "- %s\n", d)
		}
	}
}

// run runs bin with args in dir and returns its standard output; exit codes in ok are success.
func run(timeout time.Duration, dir, bin string, args []string, ok ...int) ([]byte, error) {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Dir = dir
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		var ee *exec.ExitError
		if !errors.As(err, &ee) || !slices.Contains(ok, ee.ExitCode()) {
			msg := strings.TrimSpace(stderr.String())
			if len(msg) > 400 {
				msg = msg[:400] + "…"
			}
			return nil, fmt.Errorf("%s %s in %s: %v: %s", filepath.Base(bin), strings.Join(args, " "), dir, err, msg)
		}
	}
	return stdout.Bytes(), nil
}
