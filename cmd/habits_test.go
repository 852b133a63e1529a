package cmd

import (
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

func TestCheckListAndExplain(t *testing.T) {
	out, _, code := lifeline(t, "", "check", "--list")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if code != 0 || len(lines) < 13 || !strings.HasPrefix(lines[0], "L1 ") || !strings.HasPrefix(lines[12], "L13 ") {
		t.Fatalf("check --list: exit %d\n%s", code, out)
	}
	for _, code := range []string{"L7", "l7"} {
		out, _, exit := lifeline(t, "", "check", "--explain", code)
		if exit != 0 || !strings.HasPrefix(out, "L7: a stop reason is never replaced by one of lower priority") || !strings.Contains(out, "docs/model.md") {
			t.Fatalf("check --explain %s: exit %d\n%s", code, exit, out)
		}
	}
	_, errOut, code := lifeline(t, "", "check", "--explain", "L99")
	if code != 1 || !strings.Contains(errOut, "check --list") {
		t.Fatalf("check --explain L99: exit %d, stderr %q", code, errOut)
	}
	out, _, code = lifeline(t, "", "check", "--list", "--format", "json")
	var list []struct{ Code, Statement string }
	if err := json.Unmarshal([]byte(out), &list); code != 0 || err != nil || len(list) < 13 || list[6].Code != "L7" || list[6].Statement == "" {
		t.Fatalf("check --list --format json: exit %d, %v\n%s", code, err, out)
	}
}

func TestListingsAsJSON(t *testing.T) {
	var scenarios []struct {
		Name, Description string
		Default           bool
	}
	out, _, code := lifeline(t, "", "demo", "--list", "--format", "json")
	if err := json.Unmarshal([]byte(out), &scenarios); code != 0 || err != nil || len(scenarios) < 16 || scenarios[0].Name != "happy" || !scenarios[0].Default {
		t.Fatalf("demo --list --format json: exit %d, %v\n%s", code, err, out)
	}
	var checks []struct{ Name, Title, URL string }
	out, _, code = lifeline(t, "", "vet", "--list", "--format", "json")
	if err := json.Unmarshal([]byte(out), &checks); code != 0 || err != nil || len(checks) != 9 || checks[0].Title == "" || !strings.HasSuffix(checks[0].URL, ".md") {
		t.Fatalf("vet --list --format json: exit %d, %v\n%s", code, err, out)
	}
	var v struct{ Version, Go, OS, Arch string }
	out, _, code = lifeline(t, "", "version", "--format", "json")
	if err := json.Unmarshal([]byte(out), &v); code != 0 || err != nil || v.Version == "" || v.Go != runtime.Version() || v.OS != runtime.GOOS {
		t.Fatalf("version --format json: exit %d, %v\n%s", code, err, out)
	}
	text, _, _ := lifeline(t, "", "version")
	out, _, code = lifeline(t, "", "--version")
	if code != 0 || out != text || out != "lifeline "+v.Version+"\n" {
		t.Fatalf("--version: exit %d, %q; version says %q", code, out, text)
	}
	for _, args := range [][]string{{"demo", "--list", "--format", "html"}, {"vet", "--list", "--format", "sarif"}, {"version", "--format", "xml"}} {
		if _, _, code := lifeline(t, "", args...); code != 1 {
			t.Errorf("%v: exit %d, want 1", args, code)
		}
	}
}

// TestCompletion asks for completions as the shell scripts of `lifeline completion` do.
func TestCompletion(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want []string // completions (before the tab of their description)
		not  []string
	}{
		{[]string{"demo", ""}, []string{"happy", "crash-resume", "subagent"}, nil},
		{[]string{"demo", "--format", ""}, []string{"text", "waterfall", "html", "json"}, nil},
		{[]string{"timeline", "--format", "w"}, []string{"waterfall"}, []string{"text"}},
		{[]string{"timeline", "--input-format", ""}, []string{"canonical", "otlp", "langsmith-runs", "pi-session"}, nil},
		{[]string{"timeline", "--mermaid", ""}, []string{"gantt", "sequence"}, nil},
		{[]string{"check", "--input-format", "o"}, []string{"otlp", "openai-agents"}, []string{"canonical"}},
		{[]string{"check", "--format", ""}, []string{"text", "json"}, nil},
		{[]string{"check", "--explain", "L1"}, []string{"L1", "L10", "L13"}, []string{"L7"}},
		{[]string{"convert", "--to", ""}, []string{"canonical"}, nil},
		{[]string{"convert", "--input-format", "lang"}, []string{"langsmith-runs", "langchain-events"}, nil},
		{[]string{"vet", "--format", ""}, []string{"text", "json", "sarif"}, nil},
		{[]string{"vet", "--explain", "c"}, []string{"connctx", "completedonerror"}, []string{"loopcancel"}},
		{[]string{"vet", "--checks", "unboundedloop,lo"}, []string{"unboundedloop,loopcancel"}, []string{"unboundedloop,unboundedloop", "unboundedloop,lifecycleend"}},
		{[]string{"vet", "--checks", "connctx,"}, []string{"connctx,unboundedloop", "connctx,toolerror"}, []string{"connctx,connctx"}},
		{[]string{"demo", "cancel-"}, []string{"cancel-run", "cancel-turn", "cancel-model-call"}, []string{"happy"}},
		{[]string{"map", "--format", ""}, []string{"text", "json", "mermaid"}, nil},
		{[]string{"version", "--format", ""}, []string{"text", "json"}, nil},
	} {
		out, errOut, code := lifeline(t, "", append([]string{"__complete"}, tc.args...)...)
		if code != 0 {
			t.Fatalf("__complete %q: exit %d\n%s", tc.args, code, errOut)
		}
		got := map[string]bool{}
		for _, line := range strings.Split(out, "\n") {
			if line == "" || strings.HasPrefix(line, ":") {
				continue
			}
			name, _, _ := strings.Cut(line, "\t")
			got[name] = true
		}
		for _, w := range tc.want {
			if !got[w] {
				t.Errorf("__complete %q: no %q in\n%s", tc.args, w, out)
			}
		}
		for _, n := range tc.not {
			if got[n] {
				t.Errorf("__complete %q: %q offered\n%s", tc.args, n, out)
			}
		}
	}
}

func TestStdinWhenNoFile(t *testing.T) {
	clean, err := os.ReadFile("../testdata/invariants/clean.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	out, errOut, code := lifeline(t, string(clean), "check")
	if code != 0 || !strings.Contains(out, "ok: ") {
		t.Fatalf("check with a log on stdin: exit %d\n%s\n%s", code, out, errOut)
	}
	out, errOut, code = lifeline(t, string(clean), "timeline", "--format", "json")
	if code != 0 || !strings.Contains(out, `"summary"`) {
		t.Fatalf("timeline with a log on stdin: exit %d\n%.300s\n%s", code, out, errOut)
	}
	out, errOut, code = lifeline(t, string(clean), "convert")
	if code != 0 || strings.Count(out, "\n") != strings.Count(string(clean), "\n") {
		t.Fatalf("convert with a log on stdin: exit %d\n%.300s\n%s", code, out, errOut)
	}
	// At a terminal, no file is a mistake: say what to give instead of waiting for input.
	for _, cmd := range []string{"check", "timeline", "convert"} {
		out, code := onTerminal(t, cmd)
		if code != 1 || !strings.Contains(out, "no input: give FILE") {
			t.Errorf("%s at a terminal: exit %d\n%s", cmd, code, out)
		}
	}
}

func TestDirectoryArgument(t *testing.T) {
	dir := t.TempDir()
	copyFile := func(from, to string) {
		data, err := os.ReadFile(filepath.Join("..", from))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, to), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	copyFile("testdata/samples/openai-agents/01_two_turn_tools.jsonl", "a.jsonl")
	copyFile("testdata/samples/otel/langgraph_01_react_multi_step.otlp.json", "b.otlp.json")
	os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("what I saw\n"), 0o644)
	os.Mkdir(filepath.Join(dir, "old"), 0o755)

	out, errOut, code := lifeline(t, "", "timeline", "--format", "json", dir)
	if code != 0 {
		t.Fatalf("timeline DIR: exit %d\n%s", code, errOut)
	}
	var tree struct {
		Summary struct{ Runs int } `json:"summary"`
	}
	if err := json.Unmarshal([]byte(out), &tree); err != nil {
		t.Fatal(err)
	}
	single, _, _ := lifeline(t, "", "timeline", "--format", "json", filepath.Join(dir, "a.jsonl"))
	var one struct {
		Summary struct{ Runs int } `json:"summary"`
	}
	json.Unmarshal([]byte(single), &one)
	if tree.Summary.Runs <= one.Summary.Runs {
		t.Errorf("timeline DIR read %d runs, a.jsonl alone has %d: b.otlp.json was not read", tree.Summary.Runs, one.Summary.Runs)
	}
	// What is skipped is counted in one line for the directory; --verbose names each.
	if want := "lifeline: skipped 2 entries under " + dir + ": 1 not a log of a known format (notes.txt), 1 subdirectory not read recursively (old); --verbose lists them\n"; errOut != want {
		t.Errorf("stderr:\n%s\nwant:\n%s", errOut, want)
	}
	_, errOut, _ = lifeline(t, "", "timeline", "--verbose", "--format", "json", dir)
	for _, want := range []string{"skipped " + filepath.Join(dir, "notes.txt") + ": not a log of a known format", "skipped " + filepath.Join(dir, "old") + ": a directory"} {
		if !strings.Contains(errOut, want) {
			t.Errorf("--verbose: stderr does not say %q:\n%s", want, errOut)
		}
	}
	// check reads a directory of fixtures, naming the generator it skips.
	out, errOut, code = lifeline(t, "", "check", "testdata/invariants")
	if code != 3 || !strings.Contains(errOut, "skipped testdata/invariants/gen.py") || !strings.Contains(out, "L13 error") {
		t.Fatalf("check testdata/invariants: exit %d\n%.400s\n%s", code, out, errOut)
	}
	// A directory with no log is an error.
	empty := t.TempDir()
	os.WriteFile(filepath.Join(empty, "README"), []byte("nothing here\n"), 0o644)
	_, errOut, code = lifeline(t, "", "convert", empty)
	if code != 1 || !strings.Contains(errOut, "no log file in this directory") {
		t.Fatalf("convert of a directory without logs: exit %d\n%s", code, errOut)
	}
}

func TestHTMLRefusedOnTerminal(t *testing.T) {
	const sample = "testdata/samples/openai-agents/01_two_turn_tools.jsonl"
	out, code := onTerminal(t, "timeline", "--format", "html", sample)
	if code != 1 || !strings.Contains(out, "-o trace.html") || strings.Contains(out, "<html") {
		t.Fatalf("timeline --format html at a terminal: exit %d\n%.300s", code, out)
	}
	out, code = onTerminal(t, "demo", "--format", "html")
	if code != 1 || !strings.Contains(out, "> demo.html") || strings.Contains(out, "<html") {
		t.Fatalf("demo --format html at a terminal: exit %d\n%.300s", code, out)
	}
	html := filepath.Join(t.TempDir(), "trace.html")
	if out, code := onTerminal(t, "timeline", "--format", "html", "-o", html, sample); code != 0 {
		t.Fatalf("timeline --format html -o at a terminal: exit %d\n%s", code, out)
	}
	// Not a terminal: a pipe or a file takes the page.
	out, _, code = lifeline(t, "", "timeline", "--format", "html", sample)
	if code != 0 || !strings.Contains(out, "<html") {
		t.Fatalf("timeline --format html to a pipe: exit %d", code)
	}
}

func TestLoadErrorsOnce(t *testing.T) {
	for _, cmd := range []string{"map", "vet"} {
		_, errOut, code := lifeline(t, "", cmd, "-C", "analyzer/lifemap/testdata/broken", "./...")
		const msg = `cannot use "not an int" (untyped string constant) as int value in return statement`
		if code != 1 || strings.Count(errOut, msg) != 1 || strings.Contains(errOut, "-:") || !strings.Contains(errOut, "\tbroken.go:4:25: "+msg) {
			t.Errorf("%s of code that does not type-check: exit %d, want each error once, module-relative:\n%s", cmd, code, errOut)
		}
	}
}

// TestVetPositionsLikeMap: vet names files as map does, module-relative, whatever the working
// directory and -C.
func TestVetPositionsLikeMap(t *testing.T) {
	var m struct {
		Entries []struct{ Pos string }
	}
	out, _, _ := lifeline(t, "", "map", "--format", "json", "-C", agentDir, "./...")
	if err := json.Unmarshal([]byte(out), &m); err != nil || len(m.Entries) == 0 {
		t.Fatalf("map json: %v", err)
	}
	mapFile, _, _ := strings.Cut(m.Entries[0].Pos, ":")
	out, _, code := lifeline(t, "", "vet", "-C", agentDir, "./...")
	if code != 3 {
		t.Fatalf("vet: exit %d", code)
	}
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		if strings.HasPrefix(line, "\t") {
			continue
		}
		if !strings.HasPrefix(line, mapFile+":") {
			t.Errorf("vet position %q is not module-relative like map's %q", line, mapFile)
		}
	}
	out, _, _ = lifeline(t, "", "vet", "--format", "json", "-C", agentDir, "./...")
	if !strings.Contains(out, `"posn": "`+mapFile+`:`) {
		t.Errorf("vet --format json positions are not module-relative:\n%.500s", out)
	}
}

func TestDemoLogExistsHintsForce(t *testing.T) {
	log := filepath.Join(t.TempDir(), "run.jsonl")
	if _, _, code := lifeline(t, "", "demo", "--log", log); code != 0 {
		t.Fatalf("first demo: exit %d", code)
	}
	_, errOut, code := lifeline(t, "", "demo", "--log", log)
	if code != 1 || !strings.Contains(errOut, "already exists") || !strings.Contains(errOut, "--force") {
		t.Fatalf("demo onto an existing log: exit %d, stderr %q", code, errOut)
	}
	if _, _, code := lifeline(t, "", "demo", "--log", log, "--force"); code != 0 {
		t.Fatalf("demo --force: exit %d", code)
	}
}
