package cmd

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// readmeCommand is one command line of a README code block with what its comment says of its
// exit status.
type readmeCommand struct {
	line    string // the command, comment removed
	comment string
	// exit is lifeline's exit status the comment states (0 when it states none); goRun is
	// whether the comment also states what `go run` reports for it.
	exit  int
	goRun bool
}

var (
	// "lifeline exits 3", "# exit 3": lifeline's own exit status.
	statedExit = regexp.MustCompile(`\b(?:lifeline exits|exit) (\d+)\b`)
	// go run's report of a non-zero exit: it prints "exit status N" and exits 1 itself.
	goRunExit = regexp.MustCompile(`"exit status (\d+)" and exits 1\b`)
	anyExit   = regexp.MustCompile(`(?i)\bexit\w*(?:\s+[a-z]+){0,3}\s+\d+`)
)

// readmeCommands returns the lines of the README's sh code blocks, with the exit status their
// comment states, and the comments that state an exit status in a form it cannot check or that
// go run does not give.
func readmeCommands(readme string) (cmds []readmeCommand, problems []string) {
	inBlock := false
	for i, line := range strings.Split(readme, "\n") {
		if strings.HasPrefix(line, "```") {
			inBlock = !inBlock && strings.TrimPrefix(line, "```") == "sh"
			continue
		}
		if !inBlock {
			continue
		}
		c := readmeCommand{line: line}
		if j := strings.Index(line, " #"); j >= 0 {
			c.line, c.comment = strings.TrimSpace(line[:j]), strings.TrimSpace(line[j+2:])
		}
		rest := c.comment
		if m := goRunExit.FindStringSubmatch(rest); m != nil {
			c.goRun = true
			rest = strings.Replace(rest, m[0], "", 1)
			if m2 := statedExit.FindStringSubmatch(rest); m2 == nil || m2[1] != m[1] {
				problems = append(problems, fmt.Sprintf("README line %d: go run reports exit status %s but the comment does not say lifeline exits %s: %q", i+1, m[1], m[1], line))
			}
		}
		if m := statedExit.FindStringSubmatch(rest); m != nil {
			c.exit, _ = strconv.Atoi(m[1])
			rest = strings.Replace(rest, m[0], "", 1)
		}
		if m := anyExit.FindString(rest); m != "" {
			problems = append(problems, fmt.Sprintf("README line %d: %q: the test cannot check this statement of an exit status", i+1, m))
		}
		if c.exit != 0 && !c.goRun && strings.HasPrefix(c.line, "go run ") {
			problems = append(problems, fmt.Sprintf("README line %d: %q: go run does not exit %d (it prints \"exit status %d\" and exits 1); say both", i+1, line, c.exit, c.exit))
		}
		if c.comment != "" && c.exit == 0 && strings.Contains(c.comment, "exit") && !strings.HasPrefix(c.line, "go run ") {
			problems = append(problems, fmt.Sprintf("README line %d: an exit status stated on a line the test does not run: %q", i+1, line))
		}
		cmds = append(cmds, c)
	}
	return cmds, problems
}

// TestReadmeExamples runs every `go run . …` command of the README with the built binary, as a
// new user would, and expects exit 0 or the exit status its comment states. A command whose
// comment states a non-zero status is also run with go run, which must report it as the comment
// says. Output files go to a temporary directory.
func TestReadmeExamples(t *testing.T) {
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()
	outputs := regexp.MustCompile(`\b(trace\.html|trace\.json|stats\.html|crash\.jsonl|run\.jsonl|lifecycle\.mmd|lifeline\.sarif)\b`)
	n, stated := 0, 0
	cmds, problems := readmeCommands(string(readme))
	for _, p := range problems {
		t.Error(p)
	}
	for _, c := range cmds {
		if !strings.HasPrefix(c.line, "go run . ") {
			continue
		}
		line := outputs.ReplaceAllStringFunc(c.line, func(f string) string { return filepath.Join(tmp, f) })
		parts := strings.Split(line, "&&")
		for i, part := range parts {
			part = strings.TrimSpace(part)
			if j := strings.Index(part, ">"); j >= 0 {
				part = strings.TrimSpace(part[:j]) // stdout is captured anyway
			}
			args, ok := strings.CutPrefix(part, "go run . ")
			if !ok {
				continue // e.g. go build
			}
			want := 0
			if i == len(parts)-1 {
				want = c.exit // the status of a && chain is its last command's
			}
			n++
			t.Run(args, func(t *testing.T) {
				out, errOut, got := lifeline(t, "", strings.Fields(args)...)
				if strings.HasPrefix(args, "check") && strings.Contains(args, "L7_") && want == 0 {
					t.Fatalf("README check of a violating log must say its exit status")
				}
				if got != want {
					t.Fatalf("exit %d, README says %d\nstdout: %.600s\nstderr: %.600s", got, want, out, errOut)
				}
			})
			if want != 0 && c.goRun {
				stated++
				t.Run("go run "+args, func(t *testing.T) {
					code, stderr := goRun(t, strings.Fields(args))
					if code != 1 || !strings.Contains(stderr, "exit status "+strconv.Itoa(want)) {
						t.Fatalf("go run . %s: exit %d, stderr %q; README says \"exit status %d\" and exit 1", args, code, stderr, want)
					}
				})
			}
		}
	}
	if n < 20 {
		t.Fatalf("found only %d README examples", n)
	}
	if stated == 0 {
		t.Fatalf("no README example states a non-zero exit status")
	}
}

// goRun runs `go run . args` in the repository as the README tells a user to.
func goRun(t *testing.T, args []string) (int, string) {
	t.Helper()
	c := exec.Command("go", append([]string{"run", "."}, args...)...)
	c.Dir = ".."
	var errb bytes.Buffer
	c.Stderr = &errb
	err := c.Run()
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return ee.ExitCode(), errb.String()
	} else if err != nil {
		t.Fatal(err)
	}
	return 0, errb.String()
}

// TestReadmeExitStatements shows that the README test refuses a comment that states an exit
// status go run does not give.
func TestReadmeExitStatements(t *testing.T) {
	for _, tc := range []struct {
		line string
		ok   bool
		exit int
	}{
		{"go run . check x.jsonl     # exit 3", false, 3},
		{`go run . check x.jsonl     # lifeline exits 3; go run prints "exit status 3" and exits 1`, true, 3},
		{`go run . check x.jsonl     # lifeline exits 1; go run prints "exit status 3" and exits 1`, false, 1},
		{"go run . check x.jsonl     # exits with status 3", false, 0},
		{"go run . demo --list       # 18 scenarios, one line each", true, 0},
	} {
		cmds, problems := readmeCommands("```sh\n" + tc.line + "\n```\n")
		if (len(problems) == 0) != tc.ok {
			t.Errorf("%q: problems %q, want ok=%v", tc.line, problems, tc.ok)
		}
		if len(cmds) == 1 && cmds[0].exit != tc.exit {
			t.Errorf("%q: exit %d, want %d", tc.line, cmds[0].exit, tc.exit)
		}
	}
}
