package cmd

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// binary is the lifeline executable built once for the end-to-end tests of this package: the
// commands are exercised exactly as a user runs them.
var binary string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "lifeline-cli")
	if err != nil {
		panic(err)
	}
	binary = filepath.Join(dir, "lifeline")
	build := exec.Command("go", "build", "-o", binary, "..")
	build.Stderr = os.Stderr
	if err := build.Run(); err != nil {
		panic("building lifeline: " + err.Error())
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// lifeline runs the binary with args (stdin may be empty) and returns stdout, stderr and the exit code.
func lifeline(t *testing.T, stdin string, args ...string) (string, string, int) {
	t.Helper()
	c := exec.Command(binary, args...)
	c.Dir = ".."
	c.Stdin = strings.NewReader(stdin)
	var out, errb bytes.Buffer
	c.Stdout, c.Stderr = &out, &errb
	err := c.Run()
	code := 0
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return out.String(), errb.String(), code
}

func TestCheckExitCodes(t *testing.T) {
	out, _, code := lifeline(t, "", "check", "testdata/invariants/clean.jsonl")
	if code != 0 || !strings.Contains(out, "no invariant violations") {
		t.Fatalf("clean: exit %d, out %q", code, out)
	}
	out, _, code = lifeline(t, "", "check", "testdata/invariants/L7_stop_reason_downgrade.jsonl")
	if code != 3 || !strings.Contains(out, "testdata/invariants/L7_stop_reason_downgrade.jsonl:20: L7 error") {
		t.Fatalf("L7: exit %d, out %q", code, out)
	}
	_, errOut, code := lifeline(t, "not an event\n", "check", "-")
	if code != 1 || !strings.Contains(errOut, "<stdin>") {
		t.Fatalf("bad stdin: exit %d, stderr %q", code, errOut)
	}
	_, errOut, code = lifeline(t, "", "check", "testdata/does-not-exist.jsonl")
	if code != 1 || !strings.Contains(errOut, "does-not-exist.jsonl") {
		t.Fatalf("missing file: exit %d, stderr %q", code, errOut)
	}
}

func TestCheckJSON(t *testing.T) {
	out, _, code := lifeline(t, "", "check", "--format", "json", "testdata/invariants/L11_unconsumed_steer.jsonl")
	if code != 3 {
		t.Fatalf("exit %d", code)
	}
	for _, want := range []string{`"code": "L11"`, `"severity": "error"`, `"steer-1"`, `"line": 19`, `"seq": 19`} {
		if !strings.Contains(out, want) {
			t.Errorf("JSON output lacks %s:\n%s", want, out)
		}
	}
}

func TestCheckPartialInputKeepsFindings(t *testing.T) {
	log, err := os.ReadFile("../testdata/invariants/L8_status_not_by_runtime.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(log), "\n")
	in := strings.Join(lines[:3], "") + "{broken\n" + strings.Join(lines[3:], "")
	out, errOut, code := lifeline(t, in, "check", "-")
	if code != 1 || !strings.Contains(errOut, "<stdin>:4:") || !strings.Contains(out, "L8 error") {
		t.Fatalf("exit %d\nstdout %s\nstderr %s", code, out, errOut)
	}
}

func TestVersion(t *testing.T) {
	out, _, code := lifeline(t, "", "version")
	if code != 0 || !strings.HasPrefix(out, "lifeline ") {
		t.Fatalf("exit %d, out %q", code, out)
	}
}

func TestDemoEveryScenario(t *testing.T) {
	list, _, code := lifeline(t, "", "demo", "--list")
	if code != 0 {
		t.Fatalf("demo --list: exit %d", code)
	}
	var names []string
	for _, line := range strings.Split(strings.TrimSpace(list), "\n") {
		if f := strings.Fields(line); len(f) > 1 {
			names = append(names, f[0])
		}
	}
	if len(names) < 16 {
		t.Fatalf("want at least the 16 scenarios of the issue, got %v", names)
	}
	dir := t.TempDir()
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			log := filepath.Join(dir, name+".jsonl")
			out, errOut, code := lifeline(t, "", "demo", name, "--log", log)
			if code != 0 || !strings.Contains(out, "invariants: ok") || !strings.Contains(out, "shape: ok") {
				t.Fatalf("demo %s: exit %d\n%s\n%s", name, code, out, errOut)
			}
			out, _, code = lifeline(t, "", "check", log)
			if code != 0 {
				t.Fatalf("check of demo %s log: exit %d\n%s", name, code, out)
			}
		})
	}
}

func TestDemoErrors(t *testing.T) {
	_, errOut, code := lifeline(t, "", "demo", "no-such-scenario")
	if code != 1 || !strings.Contains(errOut, "happy") {
		t.Fatalf("unknown scenario: exit %d, stderr %q", code, errOut)
	}
	out, _, code := lifeline(t, "", "demo", "approval", "--format", "json")
	if code != 0 || !strings.Contains(out, `"summary"`) || !strings.Contains(out, `"turns": 2`) && !strings.Contains(out, `"turns":2`) {
		t.Fatalf("demo approval --format json: exit %d\n%.400s", code, out)
	}
}

func TestEmptyAndUnknownInput(t *testing.T) {
	empty := filepath.Join(t.TempDir(), "empty.jsonl")
	if err := os.WriteFile(empty, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	out, errOut, code := lifeline(t, "", "check", empty)
	if code != 1 || !strings.Contains(errOut, "empty input") || strings.Contains(out, "ok:") {
		t.Fatalf("empty file: exit %d\nstdout %s\nstderr %s", code, out, errOut)
	}
	_, errOut, code = lifeline(t, "hello world\n", "timeline", "-")
	if code != 1 || !strings.Contains(errOut, "<stdin>: unknown format") || !strings.Contains(errOut, "--input-format") {
		t.Fatalf("unknown format: exit %d, stderr %s", code, errOut)
	}
}

// TestNoReadableRecord: an input of which no record decodes is never "ok": check and timeline
// exit 1 and name the file and what the format expects (issue 9 item 12: check --input-format
// otlp printed "ok: 0 events" and exited 0).
func TestNoReadableRecord(t *testing.T) {
	other := filepath.Join(t.TempDir(), "x.json")
	if err := os.WriteFile(other, []byte(`{"foo":1}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		args []string
		want []string
	}{
		{[]string{"check", "--input-format", "otlp", other}, []string{"x.json: no otlp record: expected", `{"resourceSpans":`}},
		{[]string{"check", "--format", "json", "--input-format", "otlp", other}, []string{"x.json: no otlp record"}},
		{[]string{"timeline", "--input-format", "otlp", other}, []string{"x.json: no otlp record: expected"}},
		{[]string{"timeline", "--input-format", "pi-events", other}, []string{"x.json: no readable pi-events record", `{"type":"agent_start"}`}},
		{[]string{"timeline", "--input-format", "langsmith-runs", "testdata/invariants/clean.jsonl"}, []string{"clean.jsonl: no readable langsmith-runs record", `"run_type"`}},
		{[]string{"convert", "--to", "canonical", "--input-format", "otlp", other}, []string{"x.json: no otlp record"}},
	} {
		out, errOut, code := lifeline(t, "", tt.args...)
		if code != 1 || strings.Contains(out, "ok:") {
			t.Errorf("%v: exit %d, want 1\nstdout %s\nstderr %s", tt.args[:len(tt.args)-1], code, out, errOut)
			continue
		}
		for _, w := range tt.want {
			if !strings.Contains(errOut, w) {
				t.Errorf("%v: stderr lacks %q:\n%s", tt.args[:len(tt.args)-1], w, errOut)
			}
		}
	}
}
