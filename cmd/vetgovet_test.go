package cmd

import (
	"os/exec"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// vetLine is one diagnostic line: file:line:col: message, with lifeline vet's " (check)" suffix.
var vetLine = regexp.MustCompile(`^(?:\./)?(\S+\.go:\d+:\d+): (.*?)(?: \([a-z]+\))?$`)

// findings returns the sorted "file:line:col: message" diagnostics of a vet output.
func findings(out string) []string {
	var fs []string
	for _, l := range strings.Split(out, "\n") {
		if m := vetLine.FindStringSubmatch(l); m != nil {
			fs = append(fs, m[1]+": "+m[2])
		}
	}
	slices.Sort(fs)
	return fs
}

// TestVetAgreesWithGoVet runs lifeline vet and go vet -vettool on a module with a defect in a
// source file, an in-package test file and an external test file: both include test files and
// report each finding once.
func TestVetAgreesWithGoVet(t *testing.T) {
	const dir = "testdata/vet/withtests"
	out, errOut, code := lifeline(t, "", "vet", "-C", dir, "./...")
	if code != 3 {
		t.Fatalf("lifeline vet: exit %d, want 3\n%s%s", code, out, errOut)
	}
	c := exec.Command("go", "vet", "-vettool="+binary, "./...")
	c.Dir = "../" + dir
	gout, err := c.CombinedOutput()
	if err == nil {
		t.Fatalf("go vet found nothing:\n%s", gout)
	}
	// lifeline vet prints paths relative to its working directory (the repository root).
	got := findings(strings.ReplaceAll(out, dir+"/", ""))
	want := findings(string(gout))
	if !slices.Equal(got, want) {
		t.Errorf("lifeline vet and go vet -vettool disagree\nlifeline vet:\n\t%s\ngo vet:\n\t%s", strings.Join(got, "\n\t"), strings.Join(want, "\n\t"))
	}
	var files []string
	for _, f := range want {
		files = append(files, f[:strings.Index(f, ":")])
	}
	// each file holds one unbounded turn loop with no cancellation check: unboundedloop and
	// loopcancel report it once each
	if w := []string{"agent.go", "agent.go", "agent_test.go", "agent_test.go", "external_test.go", "external_test.go"}; !slices.Equal(files, w) {
		t.Errorf("go vet -vettool reported in %v, want two findings in each of %v", files, slices.Compact(w))
	}
	out, _, code = lifeline(t, "", "vet", "--tests=false", "-C", dir, "./...")
	fs := findings(strings.ReplaceAll(out, dir+"/", ""))
	if code != 3 || len(fs) != 2 || !strings.HasPrefix(fs[0], "agent.go:") || !strings.HasPrefix(fs[1], "agent.go:") {
		t.Errorf("vet --tests=false: exit %d, findings %v, want agent.go's alone", code, fs)
	}
}
