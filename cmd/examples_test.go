package cmd

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestCommandExamples runs every lifeline command of every command's Example text, from the
// repository root, as a user would paste it: `a && b` runs b after a succeeded, `a | b` feeds
// a's output to b, `cat FILE |` feeds FILE, `> FILE` captures the output; files an example
// writes go to a temporary directory. A command may report findings (exit 3) but must not fail.
// Lines that do not start with lifeline (go vet -vettool=…) are not run.
func TestCommandExamples(t *testing.T) {
	tmp := t.TempDir()
	written := regexp.MustCompile(`(?:^|\s)((?:/tmp/)?[a-z][a-z0-9-]*\.(?:jsonl|json|html|mmd|sarif))\b`)
	n := 0
	for _, c := range rootCmd.Commands() {
		if c.Name() == "serve" {
			continue // a server runs until it is stopped: render/web and tracer/store test it
		}
		for _, line := range strings.Split(c.Example, "\n") {
			line = strings.TrimSpace(line)
			if !strings.HasPrefix(line, "lifeline ") && !strings.HasPrefix(line, "cat ") {
				continue
			}
			line = written.ReplaceAllStringFunc(line, func(m string) string {
				lead := m[:len(m)-len(strings.TrimLeft(m, " \t"))]
				name := strings.TrimSpace(m)
				if _, err := os.Stat(filepath.Join("..", name)); err == nil {
					return m // a file of the repository
				}
				return lead + filepath.Join(tmp, filepath.Base(name))
			})
			n++
			t.Run(c.Name()+": "+line, func(t *testing.T) {
				for _, step := range strings.Split(line, "&&") {
					code, out, stderr := runPipeline(t, strings.TrimSpace(step))
					if code != 0 && code != exitFindings {
						t.Fatalf("%s: exit %d\nstdout: %.300s\nstderr: %.600s", step, code, out, stderr)
					}
				}
			})
		}
	}
	if n < 25 {
		t.Fatalf("only %d examples found", n)
	}
}

// runPipeline runs `stage | stage …` (each stage a lifeline command or `cat FILE`, the last
// one possibly `> FILE`) and returns the last stage's exit status, output and errors.
func runPipeline(t *testing.T, pipeline string) (int, string, string) {
	t.Helper()
	var stdin []byte
	code := 0
	var out, errb bytes.Buffer
	for _, stage := range strings.Split(pipeline, "|") {
		stage = strings.TrimSpace(stage)
		redirect := ""
		if i := strings.Index(stage, ">"); i >= 0 {
			stage, redirect = strings.TrimSpace(stage[:i]), strings.TrimSpace(stage[i+1:])
		}
		words := strings.Fields(stage)
		var args []string
		for _, w := range words[1:] {
			if strings.ContainsAny(w, "*?") {
				m, _ := filepath.Glob(filepath.Join("..", w))
				if len(m) == 0 {
					t.Fatalf("%s: %s matches nothing", stage, w)
				}
				for _, f := range m {
					args = append(args, strings.TrimPrefix(f, "../"))
				}
				continue
			}
			args = append(args, w)
		}
		out.Reset()
		errb.Reset()
		switch words[0] {
		case "cat":
			data, err := os.ReadFile(filepath.Join("..", args[0]))
			if err != nil && !filepath.IsAbs(args[0]) {
				t.Fatal(err)
			} else if err != nil {
				if data, err = os.ReadFile(args[0]); err != nil {
					t.Fatal(err)
				}
			}
			out.Write(data)
		case "lifeline":
			c := exec.Command(binary, args...)
			c.Dir = ".."
			c.Stdin = bytes.NewReader(stdin)
			c.Stdout, c.Stderr = &out, &errb
			err := c.Run()
			code = 0
			var ee *exec.ExitError
			if errors.As(err, &ee) {
				code = ee.ExitCode()
			} else if err != nil {
				t.Fatal(err)
			}
		default:
			t.Fatalf("%s: not a lifeline command", stage)
		}
		if redirect != "" {
			if err := os.WriteFile(redirect, out.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		stdin = append([]byte(nil), out.Bytes()...)
	}
	return code, out.String(), errb.String()
}
