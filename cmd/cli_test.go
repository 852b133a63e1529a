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
